"""Stores a club's derived rankings: ratings, rating history and the season table."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping

from django.db import transaction

from .models import Rating, RatingChange, SeasonEntry
from .ratings import PlayerRating, RatingStep, SeasonLine


@transaction.atomic
def store_rankings(
    club_id: int,
    ratings: Mapping[int, PlayerRating],
    steps: Iterable[RatingStep],
    season: Iterable[SeasonLine],
    *,
    computed_at: datetime.datetime,
) -> None:
    """Replace the club's ratings, history and season table with freshly computed ones.

    Everything is rebuilt and overwritten in one transaction, so readers see either the old
    rankings or the new ones, and a rebuild from scratch stores exactly the same values.
    """
    Rating.objects.filter(club_id=club_id).delete()
    RatingChange.objects.filter(club_id=club_id).delete()
    SeasonEntry.objects.filter(club_id=club_id).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                club_id=club_id,
                player_id=r.player_id,
                mu=r.mu,
                sigma=r.sigma,
                rating=r.rating,
                matches_played=r.matches_played,
                matches_won=r.matches_won,
                computed_at=computed_at,
            )
            for r in ratings.values()
        ],
        batch_size=1000,
    )
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                club_id=club_id,
                player_id=s.player_id,
                match_id=s.match_id,
                played_at=s.played_at,
                mu=s.mu,
                sigma=s.sigma,
                rating=s.rating,
                won=s.won,
            )
            for s in steps
        ],
        batch_size=1000,
    )
    SeasonEntry.objects.bulk_create(
        [
            SeasonEntry(
                club_id=club_id,
                season=line.season,
                player_id=line.player_id,
                tournaments_played=line.tournaments_played,
                matches_played=line.matches_played,
                matches_won=line.matches_won,
                average_place=line.average_place,
                computed_at=computed_at,
            )
            for line in season
        ],
        batch_size=1000,
    )
