"""A small played tournament for the page tests: four teams, a schedule, deals, standings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club.models import Membership
from tests.factories import ClubFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Match, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.schedule import generate_round_robin
from tournaments.services.standings import recompute_standings

MADE_BY_NS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
LITIGE = {"taker": "N", "trump": "S", "points": {"team": "NS", "cards": 81}}
MADE_BY_EW = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 120}}


@dataclass
class World:
    tournament: Tournament
    director: Any
    referee: Any
    other_referee: Any
    match: Match
    other_match: Match


def build_world(n_teams: int = 4, *, rules: dict[str, Any] | None = None) -> World:
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    tournament = TournamentFactory(
        club=club,
        slug="winter-cup",
        name="Winter Cup",
        rules=rules or {"target": None, "max_deals": 3},
    )
    for seed in range(1, n_teams + 1):
        TeamFactory(tournament=tournament, seed=seed, name=f"Team {chr(64 + seed)}")
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    referee = make_staff(club, Membership.Role.REFEREE, "remi")
    other_referee = make_staff(club, Membership.Role.REFEREE, "olga")
    generate_round_robin(tournament, by=director)
    first, second = list(
        tournament.matches.filter(round__number=1, ew_team__isnull=False).order_by("table")
    )[:2]
    Match.objects.filter(pk=first.pk).update(referee=referee)
    Match.objects.filter(pk=second.pk).update(referee=other_referee)
    first.refresh_from_db()
    second.refresh_from_db()
    for entry in (MADE_BY_NS, LITIGE, MADE_BY_EW):
        enter_deal(first, entry, by=director)
    recompute_standings(tournament.pk, force=True)
    tournament.refresh_from_db()
    first.refresh_from_db()
    return World(tournament, director, referee, other_referee, first, second)
