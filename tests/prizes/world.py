"""A played evening for the prize tests: six teams, a round robin played out (the better seed
wins every match: the final standings are A, B, C, D, E, F), fees of 10.00."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from club.models import Membership
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.models import Standing, Team, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.schedule import generate_round_robin
from tournaments.services.standings import recompute_standings

NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
EW_WINS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 120}}

PRIZES = {
    "pool": {"percent_of_fees": 50, "added": 20},
    "rounding": 1,
    "lines": [
        {"place": 1, "percent": 50},
        {"place": 2, "amount": 15},
        {"last": True, "kind": "Ham"},
        {"category": "Ladies", "place": 1, "amount": 5},
    ],
}


@dataclass
class World:
    tournament: Tournament
    director: Any
    referee: Any

    def ranked(self) -> list[Team]:
        """The teams in the order of the final standings."""
        lines = Standing.objects.filter(tournament=self.tournament).exclude(round_number=0)
        latest = max(line.round_number for line in lines)
        return [
            line.team for line in lines.filter(round_number=latest).order_by("rank", "team__seed")
        ]


def build_world(*, teams: int = 6, play: bool = True, prizes: Any = PRIZES) -> World:
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    tournament = TournamentFactory(
        club=club,
        slug="concours",
        name="Concours d'hiver",
        rules={"target": None, "max_deals": 1},
        entry_fee=Decimal("10.00"),
        prizes=prizes,
    )
    for seed in range(1, teams + 1):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {chr(64 + seed)}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    referee = make_staff(club, Membership.Role.REFEREE, "remi")
    generate_round_robin(tournament, by=director)
    if play:
        for match in tournament.matches.order_by("round__number", "table"):
            if not match.is_bye:
                ns_better = match.ns_team.seed < match.ew_team.seed
                enter_deal(match, NS_WINS if ns_better else EW_WINS, by=director)
    recompute_standings(tournament.pk, force=True)
    tournament.refresh_from_db()
    return World(tournament, director, referee)
