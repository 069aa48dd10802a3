"""Celery tasks: take ids, call a service, safe to run twice; and their throttled send.

The change hook (`changes.change_committed`, subscribed in apps.py) asks for the recompute of
the tournament's standings and publishes its live versions (`on_change_committed`).

The recompute is sent throttled, leading and trailing (`schedule_recompute`): the first
change after a quiet `WINDOW_SECONDS` sends its task at once (no delay added); a change
inside the window sends, once per window, a trailing task with a countdown a little longer
than the window, so it starts after every change that found the window taken has
committed. So a lone deal is computed at once, a burst costs at most two runs per window,
and no change waits more than `TRAILING_COUNTDOWN_SECONDS`. The club's ratings and the
series tables (seasons.tasks) are sent the same way with a longer window (`CLUB_WINDOW_SECONDS`). The task
reads `change_seq`
before the results and does nothing if the standings were already computed from it; so
duplicates and retries are harmless. If the cache is per process (locmem), down or loses a
key, more tasks run, never fewer. If the broker is down the change stays committed and
unsent: the worker sends a reconcile each time it (re)connects, and beat every few
seconds (`reconcile_standings`), which recomputes every tournament that is behind.
Without a broker (eager mode) the tasks run in process right after the commit.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, transaction

from live.versions import publish_live, take_window

from .changes import ratings_stored, record_ratings_change, standings_stored
from .models import Tournament
from .services.members import rename_after_merge, scrub_erased_names
from .services.ratings import recompute_ratings
from .services.standings import recompute_standings

log = logging.getLogger(__name__)

WINDOW_SECONDS: float = getattr(settings, "STANDINGS_WINDOW_SECONDS", 0.15)
# A little more than the window, so that a worker whose clock runs a little ahead still
# starts the trailing task after the window has closed (no change finds the window taken
# after its task has read).
TRAILING_MARGIN_SECONDS = 0.05
TRAILING_COUNTDOWN_SECONDS: float = WINDOW_SECONDS + TRAILING_MARGIN_SECONDS
# The club's ratings and the series tables replay every finished match of the club or the
# series (a 200-table evening: 256 ms a rebuild): nobody watches them deal by deal, and with
# the standings' window they would run several times a second at a peak; with 3 s, a sixth
# of a core at an evening's pace, beside the live standings. The first change after a quiet
# window still sends at once; the others of the window ride one trailing task.
CLUB_WINDOW_SECONDS: float = getattr(settings, "CLUB_TABLES_WINDOW_SECONDS", 15.0)

RETRY = {
    "acks_late": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": 2,
    "max_retries": 5,
    "ignore_result": True,
}


@shared_task(**RETRY)
def recompute_tournament(tournament_id: int) -> bool:
    """Recompute the standings if a change came in since; then ask for the club's ratings.

    One recompute of a tournament at a time (`_take_turn`): a task that finds one running
    leaves its change to it, and that one computes once more when it ends.
    """
    if not _take_turn(tournament_id):
        return False
    computed = False
    while True:
        try:
            if recompute_standings(tournament_id):
                computed = True
                # After the commit: pages asking for a new version must find the rows.
                transaction.on_commit(lambda: publish_live(tournament_id))
        finally:
            asked_again = _end_turn(tournament_id)
        if not (asked_again and _take_turn(tournament_id)):
            break
    if not computed:
        return False
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        schedule_ratings(club_id)
    # What above tournaments/ reads the standings (the series tables, the prize list) follows.
    standings_stored.send(sender=Tournament, tournament_id=tournament_id)
    return True


# A recompute that died holding its tournament frees it after this; the reconcile (beat)
# then sends what it left behind.
COMPUTING_SECONDS = 60


def _turn_keys(tournament_id: int) -> tuple[str, str]:
    key = f"belote:computing:{tournament_id}"
    return key, f"{key}:again"


def _take_turn(tournament_id: int) -> bool:
    """Take the tournament's recompute, or leave word (`again`) for the task that holds it.

    At a peak (20 deals a second) both of the worker's processes would otherwise rank the
    same tournament at once, the second mostly to find what the first wrote. The word is
    left before the turn is tried once more, and the holder reads it after it has freed the
    turn (`_end_turn`): so one of the two always computes the change.
    """
    key, again = _turn_keys(tournament_id)
    if not take_window(key, COMPUTING_SECONDS):
        _cache_call(cache.set, again, 1, COMPUTING_SECONDS)
        if not take_window(key, COMPUTING_SECONDS):
            return False
    _cache_call(cache.delete, again)
    return True


def _end_turn(tournament_id: int) -> bool:
    """Free the tournament's recompute; whether a task asked for it meanwhile."""
    key, again = _turn_keys(tournament_id)
    _cache_call(cache.delete, key)
    return bool(_cache_call(cache.get, again))


def _cache_call(method: Any, *args: Any) -> Any:
    """A cache call that a cache down turns into nothing: the task then computes as if
    alone (take_window says yes), which costs a recompute, never a change."""
    try:
        return method(*args)
    except Exception:
        log.warning("cache unavailable: recompute not shared", exc_info=True)
        return None


@shared_task(**RETRY)
def recompute_club_ratings(club_id: int) -> None:
    """Rebuild the club's ratings, history and year ranking from every finished match; then
    say so (`ratings_stored`: a handicap series reads the ratings)."""
    if recompute_ratings(club_id):
        ratings_stored.send(sender=Tournament, club_id=club_id)


@shared_task(ignore_result=True)
def reconcile_standings() -> int:
    """Send a recompute for every tournament whose standings are behind its changes.

    Sent by the worker each time it (re)connects to the broker and by beat every few
    seconds, so a recompute lost with the broker or the worker is caught up soon after they
    are back, whatever the tournament's status.
    """
    behind = list(
        Tournament.objects.filter(Tournament.standings_behind()).values_list("id", flat=True)
    )
    for tournament_id in behind:
        recompute_tournament.delay(tournament_id)
    if behind:
        log.info("reconciling the standings of tournaments %s", behind)
    return len(behind)


# --- after a change commits (the hook of tournaments.changes) ------------------------------


def on_change_committed(sender: Any = None, *, tournament_id: int, **kwargs: Any) -> None:
    """Ask for the recompute, and tell the polling pages (connected in apps.py)."""
    schedule_recompute(tournament_id)
    publish_live(tournament_id)


def on_ratings_changed(sender: Any = None, *, club_id: int, **kwargs: Any) -> None:
    """Ask for the club's ratings (a tournament made private or public, finished or
    reopened; connected in apps.py; seasons/ listens too, for its series tables)."""
    schedule_ratings(club_id)


# --- the throttled send ---------------------------------------------------------------------


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def _send(task: Any, key: str, object_id: int, countdown: float | None) -> bool:
    try:
        if countdown:
            task.apply_async((object_id,), countdown=countdown)
        else:
            task.apply_async((object_id,))
    except Exception:
        # Broker unreachable: the change is committed all the same; the reconcile sends the
        # recompute when the worker is connected again (reconcile_standings).
        cache.delete(key)
        log.exception("could not send the recompute of %s %s", key, object_id)
        return False
    return True


def send_throttled(task: Any, key: str, object_id: int, window: float = WINDOW_SECONDS) -> bool:
    if _eager():
        try:
            task.delay(object_id)
        except Exception:
            # The change is committed; a failed recompute must not turn it into an error
            # page. The periodic reconcile (or the next change) computes it again.
            log.exception("recompute of %s %s failed", key, object_id)
        return True
    if take_window(key, window):
        return _send(task, key, object_id, None)
    # Inside the window: one trailing task per window carries every change made in it,
    # sent a little after the window.
    trailing = f"{key}:trailing"
    if take_window(trailing, window):
        return _send(task, trailing, object_id, window + TRAILING_MARGIN_SECONDS)
    return False


def schedule_recompute(tournament_id: int) -> bool:
    """Ask for the tournament's standings (then the club's ratings); called after commit."""
    return send_throttled(recompute_tournament, f"belote:standings:{tournament_id}", tournament_id)


def schedule_ratings(club_id: int) -> bool:
    return send_throttled(
        recompute_club_ratings, f"belote:ratings:{club_id}", club_id, CLUB_WINDOW_SECONDS
    )


# --- after a merge or an erasure of a member (club.hooks) --------------------------------------


def _after_commit(tournament_ids: set[int], club_ids: list[int]) -> None:
    """Once the merge or erasure commits: the renamed tournaments' standings and pages, and
    the clubs' ratings (and through them, seasons/ listening, the series tables)."""
    for club_id in club_ids:
        record_ratings_change(club_id)

    def send() -> None:
        for tournament_id in sorted(tournament_ids):
            on_change_committed(tournament_id=tournament_id)

    transaction.on_commit(send)


def on_member_merged(
    sender: Any = None, *, first: Any, second: Any, clubs: list[int], **kwargs: Any
) -> None:
    """The merged record's names in teams follow it; the clubs' ratings and series, and the
    standings of the tournaments renamed, are recomputed once the merge commits."""
    _after_commit(rename_after_merge(first, second), clubs)


def on_member_erased(sender: Any = None, *, player: Any, names: list[str], **kwargs: Any) -> None:
    """The erased name out of teams and registrations; their pages published again."""
    _after_commit(scrub_erased_names(player, names), [])
