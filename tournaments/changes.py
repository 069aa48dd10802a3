"""Change tracking: a change is recorded, and its recompute asked for, in exactly one place.

Every write to deals, matches, teams, entrants or a tournament's settings bumps the tournament's
`change_seq` in the writing transaction and, once it commits, asks for the derived state
(standings, then the club's ratings) to be recomputed:

- a service writes inside `with changing(tournament_id):` — one transaction that records
  the change when it ends well, so no service can forget to;
- anything else (the admin, the shell, a script) is caught by the save and delete signals
  below, which record the change exactly as a service would, unless a service's
  `changing` block is running (it records its own, once per action).

The recompute is sent throttled, leading and trailing (`schedule_recompute`): the first
change after a quiet `WINDOW_SECONDS` sends its task at once (no delay added); a change
inside the window sends, once per window, a trailing task with a countdown a little longer
than the window, so it starts after every change that found the window taken has
committed. So a lone deal is computed at once, a burst costs at most two runs per window,
and no change waits more than `TRAILING_COUNTDOWN_SECONDS`. The task reads `change_seq`
before the results and does nothing if the standings were already computed from it; so
duplicates and retries are harmless. If the cache is per process (locmem), down or loses a
key, more tasks run, never fewer. If the broker is down the change stays committed and
unsent: the worker sends a reconcile each time it (re)connects, and beat every few
seconds (`tasks.reconcile_standings`), which recomputes every tournament that is behind.
Without a broker (eager mode) the tasks run in process right after the commit.

After a change commits and after a recompute stores standings, `publish_live` puts the
tournament's versions in the cache, so a polling page answers "nothing changed" without
the database (`selectors.live_state`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Deal, Entrant, Match, Team, Tournament

log = logging.getLogger(__name__)

WINDOW_SECONDS: float = getattr(settings, "STANDINGS_WINDOW_SECONDS", 0.15)
# A little more than the window, so that a worker whose clock runs a little ahead still
# starts the trailing task after the window has closed (no change finds the window taken
# after its task has read).
TRAILING_COUNTDOWN_SECONDS: float = WINDOW_SECONDS + 0.05


def record_change(tournament_id: int) -> None:
    """Bump the tournament's change number now and ask for its recompute after commit.

    The bump and the task travel together: the task only runs once the change it must see
    has committed. Prefer `changing`, which calls this for you.
    """
    Tournament.objects.filter(pk=tournament_id).update(change_seq=F("change_seq") + 1)
    transaction.on_commit(lambda: _committed(tournament_id))


def _committed(tournament_id: int) -> None:
    """After a change commits: ask for the recompute, and tell the polling pages."""
    schedule_recompute(tournament_id)
    publish_live(tournament_id)


# Set while a service's `changing` block runs: the signals then leave its writes alone.
_service_writing: ContextVar[bool] = ContextVar("belote_service_writing", default=False)


@contextmanager
def changing(tournament_id: int) -> Iterator[None]:
    """One transaction for a service action that changes the tournament; records the change.

    Nested blocks (a service calling another) record once each; the throttle and the
    change-number check make that harmless.
    """
    token = _service_writing.set(True)
    try:
        with transaction.atomic():
            yield
            record_change(tournament_id)
    finally:
        _service_writing.reset(token)


# --- the throttled send ---------------------------------------------------------------------


def _eager() -> bool:
    from celery import current_app

    return bool(current_app.conf.task_always_eager)


def take_window(key: str, seconds: float = WINDOW_SECONDS) -> bool:
    """Take the window `key` for `seconds` if it is free; also True when the cache cannot
    tell (down). The send throttle's, and the live fragments' one render per version."""
    if cache.add(key, 1, timeout=seconds):
        return True
    # Taken, or a cache that stores nothing (config.cache's, while Redis is down): only a
    # value read back proves a window.
    reachable = getattr(cache, "is_reachable", None)
    return (callable(reachable) and not reachable()) or cache.get(key) is None


def _send(task: Any, key: str, object_id: int, countdown: float | None) -> bool:
    try:
        if countdown:
            task.apply_async((object_id,), countdown=countdown)
        else:
            task.apply_async((object_id,))
    except Exception:
        # Broker unreachable: the change is committed all the same; the reconcile sends the
        # recompute when the worker is connected again (tasks.reconcile_standings).
        cache.delete(key)
        log.exception("could not send the recompute of %s %s", key, object_id)
        return False
    return True


def _send_throttled(task: Any, key: str, object_id: int) -> bool:
    if _eager():
        try:
            task.delay(object_id)
        except Exception:
            # The change is committed; a failed recompute must not turn it into an error
            # page. The periodic reconcile (or the next change) computes it again.
            log.exception("recompute of %s %s failed", key, object_id)
        return True
    if take_window(key):
        return _send(task, key, object_id, None)
    # Inside the window: one trailing task per window carries every change made in it.
    trailing = f"{key}:trailing"
    if take_window(trailing):
        return _send(task, trailing, object_id, TRAILING_COUNTDOWN_SECONDS)
    return False


def schedule_recompute(tournament_id: int) -> bool:
    """Ask for the tournament's standings (then the club's ratings); called after commit."""
    from .tasks import recompute_tournament

    return _send_throttled(recompute_tournament, f"belote:standings:{tournament_id}", tournament_id)


def schedule_ratings(club_id: int) -> bool:
    from .tasks import recompute_club_ratings

    return _send_throttled(recompute_club_ratings, f"belote:ratings:{club_id}", club_id)


def schedule_series(series_id: int) -> bool:
    """Ask for a series table's recompute (after its evenings' standings or its rules)."""
    from .tasks import recompute_series_table

    return _send_throttled(recompute_series_table, f"belote:series:{series_id}", series_id)


# --- what polling pages compare (selectors.live_state reads it) ----------------------------


def publish_live(tournament_id: int) -> None:
    """Put the tournament's committed versions in the cache, for the pages that poll them.

    Called after a change commits and after a recompute stores the standings. A page that
    polls then answers "nothing new" from the cache alone, and learns of a change at once.
    A cache that fails is skipped: the pages read the versions from the database instead.
    """
    from .selectors import LIVE_SECONDS, read_live_state

    try:
        read = read_live_state(Tournament.objects.filter(pk=tournament_id))
        if read is not None:
            cache.set(*read, timeout=LIVE_SECONDS)
    except Exception:
        # The change is committed; pages then learn of it within LIVE_SECONDS all the same.
        log.warning("live state of tournament %s not published", tournament_id, exc_info=True)


# --- edits made outside the services (the admin, the shell) -------------------------------


def _tournament_id(instance: Any, origin: Any = None) -> int | None:
    if not isinstance(instance, Deal):
        return instance.tournament_id
    for match in (instance._state.fields_cache.get("match"), origin):
        if isinstance(match, Match) and match.pk == instance.match_id:
            return match.tournament_id
    return (
        Match.objects.filter(pk=instance.match_id).values_list("tournament_id", flat=True).first()
    )


def _note(instance: Any, origin: Any = None) -> None:
    # A service's own writes are recorded by its `changing` block: look nothing up for them.
    if _service_writing.get():
        return
    tournament_id = _tournament_id(instance, origin)
    if tournament_id is not None:
        record_change(tournament_id)


@receiver(post_save, sender=Deal, dispatch_uid="belote_deal_saved")
@receiver(post_save, sender=Match, dispatch_uid="belote_match_saved")
@receiver(post_save, sender=Team, dispatch_uid="belote_team_saved")
@receiver(post_save, sender=Entrant, dispatch_uid="belote_entrant_saved")
def _saved(
    sender: type, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any
) -> None:
    if raw:  # loaddata
        return
    if created and getattr(instance, "status", "") != Match.Status.FINISHED:
        # A new team, a match not yet played, or a deal added by hand (its scores and the
        # match's totals are the deal services' to compute) changes no result yet: the
        # standings pick it up with the next change.
        return
    _note(instance)


@receiver(post_delete, sender=Deal, dispatch_uid="belote_deal_deleted")
@receiver(post_delete, sender=Match, dispatch_uid="belote_match_deleted")
@receiver(post_delete, sender=Team, dispatch_uid="belote_team_deleted")
@receiver(post_delete, sender=Entrant, dispatch_uid="belote_entrant_deleted")
def _deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    origin = kwargs.get("origin")
    if isinstance(origin, Tournament) or getattr(origin, "model", None) is Tournament:
        return  # the whole tournament is going: nothing left to recompute
    _note(instance, origin)
