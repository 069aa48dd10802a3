"""The prizes through the API: the `prizes` setting, `category` on teams and entrants, and
`GET /api/v1/tournaments/{id}/prizes/` (docs/prizes.md), for the three personas."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from prizes.services import recompute_prize_list
from tests.api.conftest import client_for
from tests.factories import PlayerFactory
from tests.prizes.world import PRIZES, build_world
from tournaments.models import Entrant, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    return build_world(prizes=None)


def url(tournament: Tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/"


def test_a_director_sets_the_prize_table_and_reads_it_back(world):
    Team.objects.filter(name="Team E").update(category="Ladies")
    response = client_for(world.director).patch(
        url(world.tournament), {"prizes": PRIZES}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["prizes"] == PRIZES
    assert Tournament.objects.get().prizes == PRIZES


def test_a_bad_line_is_refused_naming_its_path(world):
    body = {"prizes": {"lines": [{"place": 1, "amount": 10}, {"place": 0, "percent": 140}]}}
    response = client_for(world.director).patch(url(world.tournament), body, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"prizes.lines[1].place", "prizes.lines[1].percent"}
    assert Tournament.objects.get().prizes is None


def test_percents_over_100_are_refused(world):
    body = {"prizes": {"lines": [{"place": 1, "percent": 70}, {"place": 2, "percent": 40}]}}
    response = client_for(world.director).patch(url(world.tournament), body, format="json")
    assert response.status_code == 400
    assert "110" in response.json()["errors"]["prizes.lines"][0]


def test_unknown_keys_are_refused(world):
    body = {"prizes": {"lines": [], "jackpot": 5}}
    response = client_for(world.director).patch(url(world.tournament), body, format="json")
    assert list(response.json()["errors"]) == ["prizes.jackpot"]


def test_a_category_no_entry_has_is_refused(world):
    response = client_for(world.director).patch(
        url(world.tournament), {"prizes": PRIZES}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["prizes.lines[3].category"]
    assert "Ladies" in response.json()["errors"]["prizes.lines[3].category"][0]


def test_a_referee_may_not_set_prizes(world):
    response = client_for(world.referee).patch(
        url(world.tournament), {"prizes": None}, format="json"
    )
    assert response.status_code == 403


def test_a_director_tags_a_teams_category(world):
    team = Team.objects.get(name="Team E")
    response = client_for(world.director).patch(
        f"/api/v1/teams/{team.pk}/", {"category": "  Ladies "}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["category"] == "Ladies"
    assert response.json()["name"] == "Team E"


def test_a_category_tag_too_long_is_refused_naming_it(world):
    team = Team.objects.get(name="Team E")
    response = client_for(world.director).patch(
        f"/api/v1/teams/{team.pk}/", {"category": "L" * 41}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["category"]


def test_a_referee_and_a_visitor_may_not_tag_a_team(world):
    team = Team.objects.get(name="Team E")
    body = {"category": "Ladies"}
    assert (
        client_for(world.referee)
        .patch(f"/api/v1/teams/{team.pk}/", body, format="json")
        .status_code
        == 403
    )
    assert APIClient().patch(f"/api/v1/teams/{team.pk}/", body, format="json").status_code == 401
    assert Team.objects.get(pk=team.pk).category == ""


def test_a_director_tags_an_entrants_category(world):
    tournament = world.tournament
    Tournament.objects.filter(pk=tournament.pk).update(format="individual")
    entrant = Entrant.objects.create(tournament=tournament, player=PlayerFactory(), seed=1)
    response = client_for(world.director).patch(
        f"/api/v1/entrants/{entrant.pk}/", {"category": "Youth"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["category"] == "Youth"
    assert (
        client_for(world.referee)
        .patch(f"/api/v1/entrants/{entrant.pk}/", {"category": ""}, format="json")
        .status_code
        == 403
    )


# --- the prize list --------------------------------------------------------------------------


def test_there_is_no_prize_list_without_prizes(world):
    response = APIClient().get(f"{url(world.tournament)}prizes/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_anyone_reads_the_prize_list_of_a_public_tournament():
    world = build_world()
    Team.objects.filter(name="Team E").update(category="Ladies")
    recompute_prize_list(world.tournament.pk)
    response = APIClient().get(f"{url(world.tournament)}prizes/")
    assert response.status_code == 200
    ids = {team.name: team.pk for team in Team.objects.all()}
    assert response.json() == {
        "currency": "EUR",
        "pool": "50.00",
        "awarded": "45.00",
        "retained": "5.00",
        "results": "provisional",
        "lines": [
            {
                "place": 1,
                "entry": {"id": ids["Team A"], "name": "Team A"},
                "amount": "25.00",
                "kind": "",
                "shared": False,
                "line": 0,
            },
            {
                "place": 2,
                "entry": {"id": ids["Team B"], "name": "Team B"},
                "amount": "15.00",
                "kind": "",
                "shared": False,
                "line": 1,
            },
            {
                "place": 5,
                "entry": {"id": ids["Team E"], "name": "Team E"},
                "amount": "5.00",
                "kind": "",
                "shared": False,
                "line": 3,
            },
            {
                "place": 6,
                "entry": {"id": ids["Team F"], "name": "Team F"},
                "amount": None,
                "kind": "Ham",
                "shared": False,
                "line": 2,
            },
        ],
    }


def test_a_private_tournaments_prize_list_is_its_clubs():
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    Tournament.objects.filter(pk=world.tournament.pk).update(is_public=False)
    assert APIClient().get(f"{url(world.tournament)}prizes/").status_code == 404
    assert client_for(world.director).get(f"{url(world.tournament)}prizes/").status_code == 200
