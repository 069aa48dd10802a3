"""Signals that keep derived state fresh when rows change outside the services (the admin).

A saved or deleted Deal, Match or Team records a change of its tournament, exactly as the
services do. The services call `record_change` themselves, once per action, as their
contract says; so a save made while a service action runs (`recording_changes()` marks
it) is left to them, and the tournament's `change_seq` goes up by exactly one per action. Everything else (the admin, the shell, a script) is recorded
here, once per transaction and tournament: an admin action over 500 deals costs one bump,
not 500. A double call would only cost one more bump and one more request that the
debounce or the change-number check turns into nothing.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Deal, Match, Team, Tournament
from .services.changes import record_change, service_is_recording

_MARK = "belote_recorded_tournament"


def _already_recorded(tournament_id: int) -> bool:
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return False
    # Django keeps the pending after-commit callbacks here and drops those of a rolled-back
    # transaction or savepoint, so a mark found here belongs to this very transaction.
    return any(
        getattr(func, _MARK, None) == tournament_id for _, func, _ in connection.run_on_commit
    )


def note_change(tournament_id: int | None) -> None:
    """record_change once per transaction and tournament, unless a service is doing it."""
    if tournament_id is None or service_is_recording() or _already_recorded(tournament_id):
        return
    connection = transaction.get_connection()
    before = len(connection.run_on_commit)
    record_change(tournament_id)
    for _, func, _ in connection.run_on_commit[before:]:
        with contextlib.suppress(AttributeError):  # a callable that takes no attributes
            setattr(func, _MARK, tournament_id)


def _tournament_id(instance: Any, origin: Any = None) -> int | None:
    if not isinstance(instance, Deal):
        return instance.tournament_id
    for match in (instance._state.fields_cache.get("match"), origin):
        if isinstance(match, Match) and match.pk == instance.match_id:
            return match.tournament_id
    return (
        Match.objects.filter(pk=instance.match_id).values_list("tournament_id", flat=True).first()
    )


def _cascade_from_tournament(kwargs: dict[str, Any]) -> bool:
    # Deleting a whole tournament: nothing left to recompute.
    origin = kwargs.get("origin")
    return isinstance(origin, Tournament) or getattr(origin, "model", None) is Tournament


@receiver(post_save, sender=Deal, dispatch_uid="belote_deal_saved")
@receiver(post_save, sender=Match, dispatch_uid="belote_match_saved")
@receiver(post_save, sender=Team, dispatch_uid="belote_team_saved")
def changed(
    sender: type, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any
) -> None:
    if raw:  # loaddata
        return
    if created and getattr(instance, "status", "") != "finished":
        # A new team, a match not yet played, or a deal added by hand (its scores and the
        # match's totals are the deal services' to compute) changes no result yet: the
        # standings pick it up with the next change.
        return
    note_change(_tournament_id(instance))


@receiver(post_delete, sender=Deal, dispatch_uid="belote_deal_deleted")
@receiver(post_delete, sender=Match, dispatch_uid="belote_match_deleted")
@receiver(post_delete, sender=Team, dispatch_uid="belote_team_deleted")
def deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    if _cascade_from_tournament(kwargs):
        return
    note_change(_tournament_id(instance, kwargs.get("origin")))
