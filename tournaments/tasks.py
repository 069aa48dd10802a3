"""Celery tasks: take ids, call a service, safe to run twice.

How a burst of changes costs one or two recomputes: every change bumps the tournament's
`change_seq` and, after commit, calls `schedule_recompute`. That sends a task only if no
task was sent for the tournament during the last `DEBOUNCE_SECONDS` (an atomic cache
`add`), and sends it with a countdown a little longer, so it runs after every change it
covers has committed. The task reads `change_seq` before the results and does nothing if
the standings were already computed from it; so duplicates, retries and redelivery after
a lost worker are harmless, and a change that found the key taken is always seen by the
task that holds it. If the cache is per process (locmem) or loses the key, more tasks run,
never fewer; if a task is lost, the periodic `reconcile_running_tournaments` finds
`standings_seq < change_seq` and sends it again.

Without a broker (eager mode) the tasks run in process right after the commit, without
the debounce: a page then shows the change at once.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import F, Q

from .models import Tournament
from .services.ratings import recompute_ratings
from .services.standings import recompute_standings

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS: float = getattr(settings, "STANDINGS_DEBOUNCE_SECONDS", 1.0)
# Half a window more, so that a worker whose clock runs a little ahead still starts the task
# after the key has expired (a change never finds the key of a task that already read).
COUNTDOWN_SECONDS: float = DEBOUNCE_SECONDS * 1.5
_RETRY = {
    "acks_late": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": 2,
    "max_retries": 5,
    "ignore_result": True,
}


def _eager() -> bool:
    from config.celery_app import app

    return bool(app.conf.task_always_eager)


def _send_debounced(task: object, key: str, object_id: int) -> bool:
    if _eager():
        try:
            task.delay(object_id)  # type: ignore[attr-defined]
        except Exception:
            # The change is committed; a failed recompute must not turn it into an error
            # page. The periodic reconcile (or the next change) computes it again.
            log.exception("recompute of %s %s failed", key, object_id)
        return True
    # Changes while the key lives ride on this task, which starts only after the key is gone.
    if not cache.add(key, 1, timeout=DEBOUNCE_SECONDS):
        return False
    try:
        task.apply_async((object_id,), countdown=COUNTDOWN_SECONDS)  # type: ignore[attr-defined]
    except Exception:
        # Broker unreachable: the change is committed all the same; the next change or the
        # periodic reconcile sends the recompute.
        cache.delete(key)
        log.exception("could not send the recompute of %s %s", key, object_id)
        return False
    return True


def schedule_recompute(tournament_id: int) -> bool:
    """Ask for the tournament's standings (then the club's ratings); called after commit."""
    return _send_debounced(recompute_tournament, f"belote:standings:{tournament_id}", tournament_id)


def schedule_ratings(club_id: int) -> bool:
    return _send_debounced(recompute_club_ratings, f"belote:ratings:{club_id}", club_id)


@shared_task(**_RETRY)
def recompute_tournament(tournament_id: int) -> bool:
    """Recompute the standings if a change came in since; then ask for the club's ratings."""
    if not recompute_standings(tournament_id):
        return False
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        schedule_ratings(club_id)
    return True


@shared_task(**_RETRY)
def recompute_club_ratings(club_id: int) -> None:
    """Rebuild the club's ratings, history and season table from every finished match."""
    recompute_ratings(club_id)


@shared_task(ignore_result=True)
def reconcile_running_tournaments() -> int:
    """Periodic: send a recompute for every running tournament whose standings are behind."""
    behind = list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .filter(Q(standings_seq__lt=F("change_seq")) | Q(standings_computed_at__isnull=True))
        .values_list("id", flat=True)
    )
    for tournament_id in behind:
        recompute_tournament.delay(tournament_id)
    if behind:
        log.info("reconciling the standings of tournaments %s", behind)
    return len(behind)
