"""Registration refuses hidden characters in names, pastes past the limit, and does a bounded
number of queries however many lines are pasted."""

from __future__ import annotations

import math

import pytest
from django.db import connection

from club.models import Membership, Player
from club.registration import (
    MAX_PASTED_LINES,
    RegistrationRefused,
    hidden_character_problem,
    register_players,
)
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, TournamentFactory
from tournaments.errors import ServiceError
from tournaments.models import Team
from tournaments.permissions import SYSTEM
from tournaments.services import register_team, register_teams
from tournaments.services.teams import edit_team

pytestmark = pytest.mark.django_db

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "Team ‮gnp.exe" reads "Team exe.png"


def player_names(count: int) -> list[str]:
    """Distinct names of letters only, first and last names each unique: "Aaaa Baaa", ..."""

    def word(i: int) -> str:
        return "".join("abcdefghijklmnopqrstuvwxyz"[i // 26**k % 26] for k in (2, 1, 0))

    return [f"A{word(i)} B{word(i)}" for i in range(count)]


@pytest.mark.parametrize("char", [RLO, "\u2066", "\u200f", "\u061c", "\x07", "\u2028"])
def test_a_bidirectional_or_control_character_is_a_problem(char):
    problem = hidden_character_problem(f"Les{char}Atouts")
    assert problem and f"U+{ord(char):04X}" in problem


def test_ordinary_names_of_any_alphabet_are_no_problem():
    for name in ("Les Atouts", "Zoë & Chloé", "Ōtani – Müller", "فريق", "Команда 1"):
        assert hidden_character_problem(name) is None


def test_a_pasted_team_name_with_a_right_to_left_override_is_refused():
    tournament = TournamentFactory()
    with pytest.raises(RegistrationRefused) as refused:
        register_teams(tournament, f"Team {RLO}gnp.exe: Anne Roux & Luc Martin", by=SYSTEM)
    assert [p.line for p in refused.value.problems] == [1]
    assert "U+202E" in str(refused.value.problems[0])
    assert not Team.objects.exists()


def test_a_team_registered_alone_with_a_hidden_character_is_refused_on_its_name():
    tournament = TournamentFactory()
    first, second = PlayerFactory(), PlayerFactory()
    for player in (first, second):
        MembershipFactory(club=tournament.club, player=player)
    with pytest.raises(ServiceError) as refused:
        register_team(
            tournament, by=SYSTEM, name=f"A{RLO}B", first_player=first, second_player=second
        )
    assert refused.value.field == "name"


def test_a_rename_to_a_name_with_a_hidden_character_is_refused_and_the_name_kept():
    tournament = TournamentFactory()
    first, second = PlayerFactory(), PlayerFactory()
    for player in (first, second):
        MembershipFactory(club=tournament.club, player=player)
    team = register_team(
        tournament, by=SYSTEM, name="Les Atouts", first_player=first, second_player=second
    )
    with pytest.raises(ServiceError) as refused:
        edit_team(team, by=SYSTEM, name=f"Team {RLO}gnp.exe")
    assert refused.value.field == "name" and "U+202E" in refused.value.message
    team.refresh_from_db()
    assert team.name == "Les Atouts"


def test_a_player_name_with_a_hidden_character_is_refused():
    with pytest.raises(RegistrationRefused) as refused:
        register_players(ClubFactory(), f"Marie Du{RLO}pont", by=SYSTEM)
    assert "U+202E" in str(refused.value.problems[0])


def test_more_lines_than_the_limit_are_refused_with_the_count_and_nothing_is_saved():
    text = "\n".join(player_names(MAX_PASTED_LINES + 1))
    with pytest.raises(ServiceError) as refused:
        register_players(ClubFactory(), text, by=SYSTEM)
    assert refused.value.field == "text"
    assert "2001 lines" in refused.value.message and "2000" in refused.value.message
    assert not Player.objects.exists()


def insert_statements(model, rows):  # type: ignore[no-untyped-def]
    """How many statements a bulk insert of `rows` takes on this database: one on PostgreSQL,
    one per 999 variables on SQLite (so more as a model gains columns)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    size = connection.ops.bulk_batch_size(fields, [None] * rows) or rows
    return math.ceil(rows / size)


def test_two_thousand_players_are_registered_in_a_handful_of_queries(
    django_assert_max_num_queries,
):
    club = ClubFactory()
    names = player_names(MAX_PASTED_LINES)
    existing = PlayerFactory(first_name="Aaaa", last_name="Baaa")
    MembershipFactory(club=club, player=existing)
    # A name pasted twice is one player: a few reads, then the rows in bulk.
    inserts = insert_statements(Player, MAX_PASTED_LINES) + insert_statements(
        Membership, MAX_PASTED_LINES
    )
    with django_assert_max_num_queries(8 + inserts):
        players = register_players(club, "\n".join([*names[:-1], names[5]]), by=SYSTEM)
    assert len(players) == MAX_PASTED_LINES - 1
    assert players[0] == existing  # found, not created again
    assert Membership.objects.filter(club=club).count() == MAX_PASTED_LINES - 1


def test_five_hundred_teams_are_registered_in_a_handful_of_queries(
    django_assert_max_num_queries,
):
    tournament = TournamentFactory()
    names = player_names(1000)
    lines = [f"{names[i]} & {names[i + 500]}" for i in range(500)]
    inserts = (
        insert_statements(Player, 1000)
        + insert_statements(Membership, 1000)
        + insert_statements(Team, 500)
    )
    with django_assert_max_num_queries(8 + inserts):
        teams = register_teams(tournament, "\n".join(lines), by=SYSTEM)
    assert [team.seed for team in teams] == list(range(1, 501))
    assert Team.objects.filter(tournament=tournament).count() == 500
    assert Membership.objects.filter(club=tournament.club).count() == 1000
