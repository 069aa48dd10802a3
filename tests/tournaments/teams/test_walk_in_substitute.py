"""A walk-in substitute (issue 38): the director types the person in on the substitute form
(a member found by name, or a new one; a close name asked about, never a silent duplicate);
the list offers only members free to play; a substitution is removed (audited) and the seats
follow; the teams list says who replaced whom. Three personas for the pages."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership, Player
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, TeamFactory, make_staff
from tournaments.errors import Conflict
from tournaments.models import Match, MatchEvent, MatchSeat, Substitution, Tournament
from tournaments.selectors import substitute_choices
from tournaments.services import generate_round_robin
from tournaments.services.lineup import remove_substitution, substitute
from tournaments.services.settings import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def tournament(club, director) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        rules={"target": None, "max_deals": 1},
        status=Tournament.Status.RUNNING,  # published: a referee may read it
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    generate_round_robin(tournament, by=director)
    return tournament


def url(name: str, *more: Any) -> str:
    return reverse(f"tournaments:{name}", args=["atouts", "jeudi", *more])


def member(club, first: str, last: str) -> Player:  # type: ignore[no-untyped-def]
    player = PlayerFactory(first_name=first, last_name=last)
    MembershipFactory(club=club, player=player)
    return player


def seat_of(team, number: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    seat = MatchSeat.objects.get(team=team, round__number=number)
    return seat.first_player_id, seat.second_player_id


# --- who is offered ----------------------------------------------------------------------------


def test_the_list_offers_only_members_free_to_play(club, director, tournament):
    free = member(club, "Anne", "Libre")
    referee = make_staff(club, Membership.Role.REFEREE, "ref")
    team = tournament.teams.get(seed=1)
    already_in = member(club, "Paul", "Remplaçant")
    substitute(
        tournament.teams.get(seed=2),
        out=tournament.teams.get(seed=2).first_player,
        into=already_in,
        from_round=1,
        by=director,
    )
    offered = list(substitute_choices(tournament))
    assert offered == [free]
    assert team.first_player not in offered and referee not in offered


# --- a person who walks in ---------------------------------------------------------------------


def test_a_new_person_typed_in_becomes_a_member_and_sits_from_the_round(
    client, club, director, tournament
):
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    body = {
        "out": team.first_player_id,
        "in": "",
        "in_first_name": "Jean Luc",
        "in_last_name": "Nouveau",
        "from_round": 2,
    }
    answer = client.post(url("director_substitute", team.pk), body)
    assert answer.status_code == 302
    person = Player.objects.get(last_name="Nouveau")
    assert person.first_name == "Jean Luc"
    assert Membership.objects.filter(club=club, player=person, role="member").exists()
    assert seat_of(team, 2) == (person.pk, team.second_player_id)
    assert seat_of(team, 1) == (team.first_player_id, team.second_player_id)


def test_a_member_typed_by_name_is_found_not_duplicated(client, club, director, tournament):
    marie = member(club, "Marie", "Dupont")
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    body = {"out": team.first_player_id, "in_first_name": "marie", "in_last_name": "DUPONT"}
    client.post(url("director_substitute", team.pk), {**body, "from_round": 1})
    assert Substitution.objects.get(team=team).player_in == marie
    assert Player.objects.filter(last_name__iexact="dupont").count() == 1


def test_a_close_name_is_asked_about_then_created_only_when_confirmed(
    client, club, director, tournament
):
    marie = member(club, "Marie", "Dupont")
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    body = {
        "out": team.first_player_id,
        "in_first_name": "Marie",
        "in_last_name": "Dupond",
        "from_round": 1,
    }
    asked = client.post(url("director_substitute", team.pk), body)
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "close to Marie Dupont, already a member" in html
    assert f'data-use-member="{marie.pk}"' in html and "data-create-member" in html
    assert not Substitution.objects.exists()
    assert not Player.objects.filter(last_name="Dupond").exists()
    client.post(url("director_substitute", team.pk), {**body, "confirm": "1"})
    dupond = Player.objects.get(last_name="Dupond")
    assert Substitution.objects.get(team=team).player_in == dupond


def test_a_refused_walk_in_creates_nobody(client, club, director, tournament):
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    body = {
        "out": tournament.teams.get(seed=2).first_player_id,  # not a player of this team
        "in_first_name": "Zoé",
        "in_last_name": "Inconnue",
        "from_round": 1,
    }
    page = client.post(url("director_substitute", team.pk), body, follow=True)
    assert "does not play for Team 1" in page.content.decode()
    assert not Player.objects.filter(last_name="Inconnue").exists()


# --- undoing -----------------------------------------------------------------------------------


def test_removing_a_substitution_puts_the_player_back_and_is_audited(
    client, club, director, tournament
):
    team = tournament.teams.get(seed=1)
    into = member(club, "Anne", "Libre")
    sub = substitute(team, out=team.first_player, into=into, from_round=2, by=director)
    assert seat_of(team, 3) == (into.pk, team.second_player_id)
    client.force_login(director)
    page = client.get(url("director_team", team.pk)).content.decode()
    remove = url("director_substitute_remove", team.pk, sub.pk)
    assert f'action="{remove}"' in page
    client.post(remove)
    assert not Substitution.objects.exists()
    assert seat_of(team, 2) == seat_of(team, 3) == (team.first_player_id, team.second_player_id)
    assert MatchEvent.objects.filter(
        action=MatchEvent.Action.SUBSTITUTE, detail__contains="no longer plays for"
    ).exists()
    assert list(substitute_choices(tournament)) == [into]


def test_a_substitution_built_upon_is_removed_last(club, director, tournament):
    team = tournament.teams.get(seed=1)
    anne, luc = member(club, "Anne", "Libre"), member(club, "Luc", "Libre")
    first = substitute(team, out=team.first_player, into=anne, from_round=1, by=director)
    substitute(team, out=anne, into=luc, from_round=2, by=director)
    with pytest.raises(Conflict, match="replaced again from round 2"):
        remove_substitution(first, by=director)
    assert Substitution.objects.count() == 2


def test_the_api_removes_a_substitution(club, director, tournament):
    team = tournament.teams.get(seed=1)
    into = member(club, "Anne", "Libre")
    sub = substitute(team, out=team.first_player, into=into, from_round=1, by=director)
    path = f"/api/v1/teams/{team.pk}/substitutes/{sub.pk}/"
    assert APIClient().delete(path).status_code in (401, 403)
    referee = make_staff(club, Membership.Role.REFEREE, "ref")
    as_referee = APIClient()
    as_referee.force_authenticate(referee)
    assert as_referee.delete(path).status_code == 403
    api = APIClient()
    api.force_authenticate(director)
    assert api.delete(path).status_code == 204
    assert api.delete(path).status_code == 404
    assert seat_of(team, 1) == (team.first_player_id, team.second_player_id)


def test_only_a_director_removes_a_substitution_on_the_page(client, club, director, tournament):
    team = tournament.teams.get(seed=1)
    sub = substitute(
        team, out=team.first_player, into=member(club, "Anne", "Libre"), from_round=1, by=director
    )
    remove = url("director_substitute_remove", team.pk, sub.pk)
    assert client.post(remove).status_code == 302  # anonymous: to the sign-in page
    client.force_login(make_staff(club, Membership.Role.REFEREE, "ref"))
    assert client.post(remove).status_code == 403
    assert Substitution.objects.filter(pk=sub.pk).exists()


# --- the teams list ----------------------------------------------------------------------------


def test_the_teams_list_says_who_replaced_whom_from_which_round(client, club, director, tournament):
    team = tournament.teams.get(seed=1)
    into = member(club, "Anne", "Libre")
    substitute(team, out=team.first_player, into=into, from_round=2, by=director)
    client.force_login(director)
    html = client.get(url("director_teams")).content.decode()
    assert f"From round 2: Anne Libre in place of {team.first_player}" in html
    assert Match.objects.filter(round__number=2, seats__team=team).exists()
