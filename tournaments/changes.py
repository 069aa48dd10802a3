"""Change tracking: a change is recorded, and announced once committed, in exactly one place.

Every write to deals, matches, teams, entrants or a tournament's settings bumps the tournament's
`change_seq` in the writing transaction and, once it commits, sends `change_committed` (an
on-commit hook) with the tournament's id:

- a service writes inside `with changing(tournament_id):` — one transaction that records
  the change when it ends well, so no service can forget to;
- anything else (the admin, the shell, a script) is caught by the save and delete signals
  below, which record the change exactly as a service would, unless a service's
  `changing` block is running (it records its own, once per action).

This module knows nothing of what follows a change: the task module subscribes to the hook in
`AppConfig.ready` (the throttled recompute of the standings, then the club's ratings, and the
live versions the polling pages compare; `tasks.on_change_committed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal, receiver

from .models import Deal, Entrant, Match, Team, Tournament

# Sent after a change commits, with `tournament_id`; the task module listens (apps.py).
change_committed = Signal()


def record_change(tournament_id: int) -> None:
    """Bump the tournament's change number now and send `change_committed` after commit.

    The bump and the hook travel together: what listens only runs once the change it must
    see has committed. Prefer `changing`, which calls this for you.
    """
    Tournament.objects.filter(pk=tournament_id).update(change_seq=F("change_seq") + 1)
    transaction.on_commit(lambda: _committed(tournament_id))


def _committed(tournament_id: int) -> None:
    change_committed.send(sender=Tournament, tournament_id=tournament_id)


# Sent after commit, with `club_id`, when what counts in the club's ratings changed without a
# result changing (a tournament made private or public, finished or reopened).
ratings_changed = Signal()


def record_ratings_change(club_id: int) -> None:
    """Have the club's ratings rebuilt once this transaction commits (the task module listens)."""
    transaction.on_commit(lambda: ratings_changed.send(sender=Tournament, club_id=club_id))


# Sent by the tasks once a tournament's standings are stored (with `tournament_id`), and once a
# club's ratings are (with `club_id`): what is derived from them above tournaments/ (a
# series table, seasons/ listens in its AppConfig.ready) follows without tournaments/
# knowing of it.
standings_stored = Signal()
ratings_stored = Signal()


# Sent at once, inside the settings' transaction, with `tournament`, when its capacity changed:
# the app that keeps the waiting list moves it up into the new places (entries' apps.py).
capacity_changed = Signal()


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
