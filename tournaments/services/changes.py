"""Marks a tournament changed and asks, after commit, for its derived state to be recomputed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction
from django.db.models import F

from ..models import Tournament


def record_change(tournament_id: int) -> None:
    """Call inside the transaction of every change to deals, matches or teams.

    The bump and the task travel together: the task only runs once the change it must see
    has committed, and it compares change numbers so that a burst of changes costs one or
    two recomputes.
    """
    Tournament.objects.filter(pk=tournament_id).update(change_seq=F("change_seq") + 1)

    def send() -> None:
        from ..tasks import schedule_recompute

        schedule_recompute(tournament_id)

    transaction.on_commit(send)


# Set while a service action runs: it calls record_change itself, once per action, so the
# save signals (tournaments.signals, there for the admin and the shell) leave its writes alone.
_service_recording: ContextVar[bool] = ContextVar("service_recording", default=False)


@contextmanager
def recording_changes() -> Iterator[None]:
    """Around a service action (or as its decorator) that calls record_change itself."""
    token = _service_recording.set(True)
    try:
        yield
    finally:
        _service_recording.reset(token)


def service_is_recording() -> bool:
    return _service_recording.get()
