"""One entry shape: a team and a mêlée's player share their fields (`Entry`) and answer the
same questions, so the reads ask the entry rather than the format."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, PlayerFactory, RoundFactory, TeamFactory, TournamentFactory
from tournaments.models import Entrant, Entry, Standing, Team, Tournament
from tournaments.selectors.players import entries, entries_with_players

pytestmark = pytest.mark.django_db

SHARED = {
    "seed",
    "withdrawn",
    "withdrawn_at",
    "withdrawal",
    "category",
    "attendance",
    "checked_in_at",
    "paid",
    "fee_paid",
}


def test_the_fields_a_team_and_an_entrant_share_are_defined_once_by_the_entry():
    assert {f.name for f in Entry._meta.get_fields()} == SHARED
    for model in (Team, Entrant):
        for name in SHARED:
            assert (
                model._meta.get_field(name).deconstruct()[1:]
                == (Entry._meta.get_field(name).deconstruct()[1:])
            )


def test_the_entry_has_no_table_of_its_own():
    assert Entry._meta.abstract


def test_a_team_tournament_s_entries_are_its_registered_teams_not_partnerships():
    tournament = TournamentFactory(club=ClubFactory(), format=Tournament.Format.SWISS)
    team = TeamFactory(tournament=tournament, seed=1, name="Les As")
    TeamFactory(
        tournament=tournament, seed=1, name="Drawn", round=RoundFactory(tournament=tournament)
    )
    assert tournament.entry_model is Team
    assert list(entries(tournament)) == [team]


def test_a_team_and_a_melee_player_answer_for_their_kind():
    club = ClubFactory()
    ann, bob = (
        PlayerFactory(first_name="Ann", last_name="Roux"),
        PlayerFactory(first_name="Bob", last_name="Gay"),
    )
    teams = TournamentFactory(club=club, format=Tournament.Format.ROUND_ROBIN)
    TeamFactory(tournament=teams, seed=1, name="Les As", first_player=ann, second_player=bob)
    melee = TournamentFactory(club=club, format=Tournament.Format.INDIVIDUAL, round_count=3)
    Entrant.objects.create(tournament=melee, player=ann, seed=1)
    assert melee.entry_model is Entrant
    team = entries_with_players(teams).get()
    entrant = entries_with_players(melee).get()
    assert team.players_in_words == "Ann Roux & Bob Gay"
    assert entrant.players_in_words == "Ann Roux"
    assert (team.player_count, entrant.player_count) == (2, 1)
    assert team.naming == ["Les As", ann, bob]
    assert entrant.naming == ["Ann Roux"]
    assert (teams.entry_heading, melee.entry_heading) == ("Team", "Player")
    # Each is the key of its own standings line.
    line = Standing(tournament=melee, round_number=1, **{entrant.line_field: entrant})
    assert line.ranked == entrant
