"""Registering teams through the typed call (an accepted online entry, a script): the players'
names as data, never a line of text to parse, matched to the club's members exactly as a
pasted line is."""

from __future__ import annotations

import pytest

from club.models import Player
from club.registration import ASK_IF_SIMILAR, NewMembersToConfirm, RegistrationRefused
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, TournamentFactory
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.entrants import register_entrant_names
from tournaments.services.registration import TeamLine, register_team_lines, register_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(club=ClubFactory())
    player = PlayerFactory(first_name="Marie", last_name="Dupont")
    MembershipFactory(club=tournament.club, player=player)
    return tournament


def test_a_member_named_exactly_is_found_and_a_new_name_becomes_a_member(tournament):
    marie = Player.objects.get(first_name="Marie")
    [team] = register_team_lines(tournament, [TeamLine("marie dupont", "Luc Martin")], by=SYSTEM)
    assert (team.name, team.first_player, team.second_player.full_name) == (
        "dupont – Martin",  # named as typed, as a pasted line is
        marie,
        "Luc Martin",
    )


def test_a_name_close_to_a_members_is_asked_about_never_silently_created(tournament):
    with pytest.raises(NewMembersToConfirm) as asked:
        register_team_lines(
            tournament,
            [TeamLine("Marie Dupond", "Luc Martin")],
            by=SYSTEM,
            new_members=ASK_IF_SIMILAR,
        )
    assert [name.name for name in asked.value.plan.new if name.similar] == ["Marie Dupond"]
    assert not tournament.teams.exists()
    assert not Player.objects.filter(last_name="Dupond").exists()


def test_a_name_with_a_character_in_it_that_splits_pasted_lines_is_no_longer_read_as_text(
    tournament,
):
    # "&" in a typed name is refused as a name, not taken for a second partnership.
    with pytest.raises(RegistrationRefused) as refused:
        register_team_lines(tournament, [TeamLine("Anne & Co", "Luc Martin")], by=SYSTEM)
    assert [problem.line for problem in refused.value.problems] == [1]


def test_the_pasted_lines_end_in_the_same_call(tournament):
    register_teams(tournament, "Les As: Marie Dupont & Luc Martin", by=SYSTEM)
    with pytest.raises(RegistrationRefused) as refused:
        register_team_lines(tournament, [TeamLine("Anne Roux", "Luc Martin", line=4)], by=SYSTEM)
    assert [p.line for p in refused.value.problems] == [4]
    assert "already plays in a team" in refused.value.problems[0].message


def test_a_melee_registers_players_by_name(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(format=Tournament.Format.INDIVIDUAL)
    tournament.refresh_from_db()
    [entrant] = register_entrant_names(tournament, ["Marie Dupont"], by=SYSTEM)
    assert entrant.player == Player.objects.get(first_name="Marie")
