"""Hands a club's finished matches and final places to club.ratings and stores the result.

club/ never imports tournaments/ (docs/architecture.md): this module reads the tournaments' rows and
turns them into the plain records that the pure rating functions take.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from club.models import Club
from club.ratings import (
    MatchRecord,
    Placing,
    compute_ratings,
    compute_year_ranking,
)
from club.services import store_rankings

from ..models import Match, MatchSeat, Side, Standing, Tournament
from ..standings.match_figures import winner_of

log = logging.getLogger(__name__)


def rated_tournaments_q(prefix: str = "tournament__") -> Q:
    """The tournaments whose matches count in the club's ratings: public and published.

    The ratings, their history and the year ranking are public (docs/director.md, "Who may
    do what"); a private tournament's (or a draft's) matches would name, on public pages,
    players and matches only its club may see. So they count nowhere: not in the ratings.
    """
    return Q(**{f"{prefix}is_public": True}) & ~Q(**{f"{prefix}status": Tournament.Status.DRAFT})


def match_records(club_id: int) -> list[MatchRecord]:
    """Every finished match (byes excluded) of the club's public tournaments, in two queries.

    An individual tournament's match is two partnerships of its round (Team rows like any
    other), so its four players are read the same way. Who sat is the seat's line-up
    (`MatchSeat`: a substitute in place of a team's player), the team's players otherwise.
    """
    finished = Match.objects.filter(
        tournament__club_id=club_id,
        status=Match.Status.FINISHED,
        ew_team__isnull=False,
    ).filter(rated_tournaments_q())
    rows = finished.order_by().values_list(
        "id",
        "finished_at",
        "updated_at",
        "tournament__starts_on",
        "tournament_id",
        "ns_team__first_player_id",
        "ns_team__second_player_id",
        "ew_team__first_player_id",
        "ew_team__second_player_id",
        "winner",
        "ns_total",
        "ew_total",
    )
    sat = {
        (match_id, side): (first, second)
        for match_id, side, first, second in MatchSeat.objects.filter(match__in=finished)
        .order_by()
        .values_list("match_id", "side", "first_player_id", "second_player_id")
    }
    nobody = (None, None)
    return [
        MatchRecord(
            match_id=r[0],
            played_at=r[1] or r[2],
            year=r[3].year,
            tournament_id=r[4],
            ns_players=MatchSeat.who_sat(sat.get((r[0], Side.NS), nobody), (r[5], r[6])),
            ew_players=MatchSeat.who_sat(sat.get((r[0], Side.EW), nobody), (r[7], r[8])),
            winner=winner_of(r[9], r[10], r[11]),
        )
        for r in rows
    ]


def final_placings(club_id: int) -> list[Placing]:
    """Each player's place in the last standings of every finished public tournament of the club."""
    last_round = (
        Standing.objects.filter(tournament_id=OuterRef("tournament_id"))
        .order_by("-round_number")
        .values("round_number")[:1]
    )
    rows = (
        Standing.objects.filter(
            tournament__club_id=club_id,
            tournament__status=Tournament.Status.FINISHED,
            round_number=Subquery(last_round),
        )
        .filter(rated_tournaments_q())
        .order_by()
        .values_list(
            "tournament_id",
            "tournament__starts_on",
            "rank",
            "team__first_player_id",
            "team__second_player_id",
            "entrant__player_id",
        )
    )
    # A team's line places both its players; an individual tournament's line, its player.
    return [
        Placing(year=starts_on.year, tournament_id=tid, player_id=player, place=rank)
        for tid, starts_on, rank, first, second, alone in rows
        for player in ((first, second) if alone is None else (alone,))
    ]


def recompute_ratings(club_id: int, *, force: bool = False) -> bool:
    """Rebuild the club's ratings, rating history and year ranking from scratch.

    Returns whether the stored rows changed (`force` rewrites them all the same).
    Rebuilds of one club run one after the other (the club's row is locked first): two at
    once would both delete the old rows and insert the new, and the second insert would
    meet the first's rows; and a rebuild that read the matches earlier would overwrite a
    later one.
    """
    with transaction.atomic():
        list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))
        records = match_records(club_id)
        ratings, steps = compute_ratings(records)
        year_ranking = compute_year_ranking(records, final_placings(club_id))
        written = store_rankings(
            club_id, ratings, steps, year_ranking, computed_at=timezone.now(), force=force
        )
    if written:
        log.info("ratings of club %s recomputed from %s matches", club_id, len(records))
    return written
