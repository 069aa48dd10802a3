"""Registering players and teams, one by one or pasted one a line."""

from __future__ import annotations

import pytest

from club.models import Membership, Player
from club.registration import RegistrationRefused, register_players, split_name
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
)
from tournaments.errors import ServiceError
from tournaments.models import Team
from tournaments.permissions import SYSTEM
from tournaments.services import register_team, register_teams

pytestmark = pytest.mark.django_db


def member(club, first, last=""):  # type: ignore[no-untyped-def]
    player = PlayerFactory(first_name=first, last_name=last)
    MembershipFactory(club=club, player=player)
    return player


class TestRegisterPlayers:
    def test_it_creates_one_member_per_line(self):
        club = ClubFactory()
        players = register_players(
            club, "Marie Dupont\n\n  Jean-Luc   d'Arcy \n# a comment\nÉlodie\n", by=SYSTEM
        )
        assert [(p.first_name, p.last_name) for p in players] == [
            ("Marie", "Dupont"),
            ("Jean-Luc", "d'Arcy"),
            ("Élodie", ""),
        ]
        assert Membership.objects.filter(club=club, role="member").count() == 3

    def test_it_finds_existing_members_instead_of_duplicating_them(self):
        club = ClubFactory()
        existing = member(club, "Marie", "Dupont")
        players = register_players(club, "marie dupont\nMARIE DUPONT\nLuc Martin", by=SYSTEM)
        assert players[0] == existing
        assert len(players) == 2
        assert Player.objects.filter(first_name__iexact="marie").count() == 1

    def test_a_member_of_another_club_is_a_different_player(self):
        club, other = ClubFactory(), ClubFactory()
        member(other, "Marie", "Dupont")
        register_players(club, "Marie Dupont", by=SYSTEM)
        assert Player.objects.filter(first_name="Marie", last_name="Dupont").count() == 2

    def test_last_name_first_with_a_comma(self):
        assert split_name("de la Fontaine, Marie") == ("Marie", "de la Fontaine")
        assert split_name("Marie de la Fontaine") == ("Marie", "de la Fontaine")

    def test_it_reports_every_bad_line_by_number_and_registers_nothing(self):
        club = ClubFactory()
        with pytest.raises(RegistrationRefused) as refused:
            register_players(
                club, "Marie Dupont\nR2D2\nLuc Martin\n" + "x" * 90 + " Long\n", by=SYSTEM
            )
        assert [p.line for p in refused.value.problems] == [2, 4]
        assert refused.value.field == "text"
        assert "line 2" in refused.value.message
        assert not Player.objects.exists()

    def test_an_empty_text_is_refused(self):
        with pytest.raises(ServiceError) as refused:
            register_players(ClubFactory(), " \n\n", by=SYSTEM)
        assert refused.value.field == "text"


class TestRegisterTeams:
    def test_it_reads_named_and_unnamed_teams_and_gives_the_next_seeds(self):
        tournament = TournamentFactory()
        TeamFactory(tournament=tournament, seed=4)
        teams = register_teams(
            tournament,
            "Les As: Marie Dupont & Luc Martin\nSophie Bernard / Jan de Vries\n",
            by=SYSTEM,
        )
        assert [(t.name, t.seed) for t in teams] == [
            ("Les As", 5),
            ("Bernard – de Vries", 6),
        ]
        assert teams[0].first_player.full_name == "Marie Dupont"
        assert teams[0].second_player.full_name == "Luc Martin"
        assert Membership.objects.filter(club=tournament.club).count() == 4

    def test_players_are_found_among_the_club_members(self):
        tournament = TournamentFactory()
        marie = member(tournament.club, "Marie", "Dupont")
        (team,) = register_teams(tournament, "marie dupont & Luc Martin", by=SYSTEM)
        assert team.first_player == marie

    def test_it_reports_each_bad_line_with_its_number(self):
        tournament = TournamentFactory()
        TeamFactory(tournament=tournament, name="Les As")
        text = "\n".join(
            [
                "Les Rois: Marie Dupont & Luc Martin",  # 1 fine
                "Only One Player",  # 2 no partner
                "Les As: Paul Petit & Anne Roux",  # 3 name taken
                "Luc Martin & Eva Janssen",  # 4 Luc is already in line 1
                "Jo Blanc & jo blanc",  # 5 the same player twice
                "Trio: A B & C D & E F",  # 6 three players
                "Kees 42 & Piet Bakker",  # 7 not a name
            ]
        )
        with pytest.raises(RegistrationRefused) as refused:
            register_teams(tournament, text, by=SYSTEM)
        assert [p.line for p in refused.value.problems] == [2, 3, 4, 5, 6, 7]
        assert "line 1" in refused.value.problems[2].message
        assert Team.objects.filter(tournament=tournament).count() == 1
        assert not Player.objects.filter(first_name="Marie").exists()

    def test_family_pairs_of_one_surname_get_names_of_their_own(self):
        tournament = TournamentFactory()
        TeamFactory(tournament=tournament, name="Dupont – Dupont", seed=1)
        teams = register_teams(
            tournament,
            "Marie Dupont & Luc Dupont\nAnne Dupont & Paul Dupont\nEva Roux & Jo Roux\n",
            by=SYSTEM,
        )
        assert [t.name for t in teams] == [
            "Marie & Luc Dupont",
            "Anne & Paul Dupont",
            "Roux – Roux",
        ]

    def test_a_name_taken_twice_over_gets_a_number(self):
        tournament = TournamentFactory()
        TeamFactory(tournament=tournament, name="Dupont – Martin", seed=1)
        TeamFactory(tournament=tournament, name="Marie Dupont – Luc Martin", seed=2)
        (team,) = register_teams(tournament, "Marie Dupont & Luc Martin", by=SYSTEM)
        assert team.name == "Marie Dupont – Luc Martin (2)"

    def test_a_player_already_in_a_team_of_the_tournament_is_refused(self):
        tournament = TournamentFactory()
        marie = member(tournament.club, "Marie", "Dupont")
        TeamFactory(tournament=tournament, first_player=marie)
        with pytest.raises(RegistrationRefused) as refused:
            register_teams(tournament, "Marie Dupont & Luc Martin", by=SYSTEM)
        assert refused.value.problems[0].line == 1


class TestRegisterTeam:
    def test_it_registers_two_members_with_the_next_seed(self, django_capture_on_commit_callbacks):
        tournament = TournamentFactory()
        a, b = member(tournament.club, "Marie", "Dupont"), member(tournament.club, "Luc", "Martin")
        with django_capture_on_commit_callbacks() as callbacks:
            team = register_team(tournament, name="", first_player=a, second_player=b, by=SYSTEM)
        assert (team.name, team.seed) == ("Dupont – Martin", 1)
        assert len(callbacks) == 1

    def test_an_automatic_name_already_taken_is_told_apart_by_first_names(self):
        tournament = TournamentFactory()
        TeamFactory(tournament=tournament, name="Dupont – Dupont", seed=1)
        a, b = member(tournament.club, "Marie", "Dupont"), member(tournament.club, "Luc", "Dupont")
        team = register_team(tournament, name=" ", first_player=a, second_player=b, by=SYSTEM)
        assert team.name == "Marie & Luc Dupont"

    @pytest.mark.parametrize(
        "case, field",
        [
            ("same player", "second_player"),
            ("not a member", "first_player"),
            ("name taken", "name"),
            ("seed taken", "seed"),
            ("bad seed", "seed"),
            ("already playing", "second_player"),
        ],
    )
    def test_it_refuses_with_the_field_named(self, case, field):
        tournament = TournamentFactory()
        club = tournament.club
        a, b = member(club, "Marie", "Dupont"), member(club, "Luc", "Martin")
        kwargs = {"name": "Les As", "first_player": a, "second_player": b, "seed": None}
        existing = TeamFactory(
            tournament=tournament,
            name="Taken",
            seed=3,
            first_player=member(club, "Anne", "Roux"),
            second_player=member(club, "Paul", "Petit"),
        )
        if case == "same player":
            kwargs["second_player"] = a
        elif case == "not a member":
            kwargs["first_player"] = PlayerFactory()
        elif case == "name taken":
            kwargs["name"] = "taken"
        elif case == "seed taken":
            kwargs["seed"] = 3
        elif case == "bad seed":
            kwargs["seed"] = 0
        else:
            kwargs["second_player"] = existing.second_player
        with pytest.raises(ServiceError) as refused:
            register_team(tournament, by=SYSTEM, **kwargs)
        assert refused.value.field == field
        assert tournament.teams.count() == 1

    def test_a_player_of_a_withdrawn_team_may_play_again(self):
        tournament = TournamentFactory()
        a, b = member(tournament.club, "Marie", "Dupont"), member(tournament.club, "Luc", "Martin")
        TeamFactory(tournament=tournament, first_player=a, withdrawn=True, name="Old", seed=1)
        team = register_team(tournament, name="New", first_player=a, second_player=b, by=SYSTEM)
        assert team.seed == 2


def test_a_name_two_members_share_is_reported_instead_of_guessed():
    tournament = TournamentFactory()
    member(tournament.club, "Jan", "Janssen")
    member(tournament.club, "Jan", "Janssen")
    with pytest.raises(RegistrationRefused) as refused:
        register_teams(tournament, "Anne Roux & Luc Martin\nJan Janssen & Eva Smit", by=SYSTEM)
    assert [p.line for p in refused.value.problems] == [2]
    with pytest.raises(RegistrationRefused):
        register_players(tournament.club, "Jan Janssen", by=SYSTEM)
    assert Player.objects.filter(first_name="Jan").count() == 2
