"""What asks for a series table's recompute: a change of its rules or evenings (sent after
commit), and a tournament of its evenings going. The task module listens (apps.py)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import pre_delete
from django.dispatch import Signal, receiver

from tournaments.models import Tournament

from .models import Series

# Sent after a series' rules or evenings change and commit, with `series_id`. A change of an
# evening's results needs no such call: tournaments/ says when its standings are stored
# (`tournaments.changes.standings_stored`) and seasons.tasks asks for its series' tables.
series_changed = Signal()


def record_series_change(series_id: int) -> None:
    """Send `series_changed` once the writing transaction commits."""
    transaction.on_commit(lambda: series_changed.send(sender=Series, series_id=series_id))


@receiver(pre_delete, sender=Tournament, dispatch_uid="belote_tournament_deleting")
def _tournament_deleting(sender: type, instance: Tournament, **kwargs: Any) -> None:
    """A tournament going takes its evening out of its series' tables (once it is gone)."""
    for series_id in Series.tournaments.through.objects.filter(
        tournament_id=instance.pk
    ).values_list("series_id", flat=True):
        record_series_change(series_id)
