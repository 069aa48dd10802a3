"""Celery tasks: take ids, call a service, safe to run twice (the send is in tournaments.changes)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import DatabaseError

from .changes import schedule_ratings, schedule_series
from .models import Tournament
from .services.ratings import recompute_ratings
from .services.series import handicap_series_of_club, recompute_series, series_of_tournament
from .standings.store import recompute_standings

log = logging.getLogger(__name__)

_RETRY = {
    "acks_late": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": 2,
    "max_retries": 5,
    "ignore_result": True,
}


@shared_task(**_RETRY)
def recompute_tournament(tournament_id: int) -> bool:
    """Recompute the standings if a change came in since; then ask for the club's ratings."""
    if not recompute_standings(tournament_id):
        return False
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        schedule_ratings(club_id)
    for series_id in series_of_tournament(tournament_id):
        schedule_series(series_id)
    return True


@shared_task(**_RETRY)
def recompute_club_ratings(club_id: int) -> None:
    """Rebuild the club's ratings, history and season table from every finished match; then
    ask for the tables of the club's handicap series (they read the ratings)."""
    if recompute_ratings(club_id):
        for series_id in handicap_series_of_club(club_id):
            schedule_series(series_id)


@shared_task(**_RETRY)
def recompute_series_table(series_id: int) -> bool:
    """Rebuild a series table from its evenings' stored standings (docs/seasons.md)."""
    return recompute_series(series_id)


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
