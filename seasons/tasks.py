"""Celery tasks of the series tables: take ids, call a service, safe to run twice; sent
throttled with the club's window (tournaments.tasks), and asked for by what tournaments/ says
it stored (`standings_stored`, `ratings_stored`, `ratings_changed`) and by a series' own
changes (`series_changed`), all connected in apps.py."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.tasks import CLUB_WINDOW_SECONDS, RETRY, send_throttled

from .models import Series
from .services.tables import handicap_series_of_club, recompute_series, series_of_tournament


# The name it had in tournaments/: a task sent before an upgrade still finds its worker.
@shared_task(name="tournaments.tasks.recompute_series_table", **RETRY)
def recompute_series_table(series_id: int) -> bool:
    """Rebuild a series table from its evenings' stored standings (docs/seasons.md)."""
    return recompute_series(series_id)


def schedule_series(series_id: int) -> bool:
    """Ask for a series table's recompute (after its evenings' standings or its rules)."""
    return send_throttled(
        recompute_series_table, f"belote:series:{series_id}", series_id, CLUB_WINDOW_SECONDS
    )


def on_series_changed(sender: Any = None, *, series_id: int, **kwargs: Any) -> None:
    """A series' rules or evenings changed and committed."""
    schedule_series(series_id)


def on_standings_stored(sender: Any = None, *, tournament_id: int, **kwargs: Any) -> None:
    """An evening's standings are stored: the tables of the series it counts in follow."""
    for series_id in series_of_tournament(tournament_id):
        schedule_series(series_id)


def on_ratings_stored(sender: Any = None, *, club_id: int, **kwargs: Any) -> None:
    """The club's ratings are stored: its handicap series' tables follow (they read them)."""
    for series_id in handicap_series_of_club(club_id):
        schedule_series(series_id)


def on_ratings_changed(sender: Any = None, *, club_id: int, **kwargs: Any) -> None:
    """What counts in the club changed (a tournament made private or public, finished or
    reopened): every series table of the club follows."""
    for series_id in Series.objects.filter(season__club_id=club_id).values_list("pk", flat=True):
        schedule_series(series_id)
