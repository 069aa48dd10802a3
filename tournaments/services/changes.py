"""Marks a tournament changed and asks, after commit, for its derived state to be recomputed."""

from __future__ import annotations

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
