"""A team drawn in a round is withdrawn, never deleted: deleting it would take the round, its
draw edits and its referees from every table (issue 38). A round robin's schedule without
deals still goes with a deleted team, and the confirmation says so."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tournaments.errors import TeamInDraw
from tournaments.models import Match, Round, Team, Tournament
from tournaments.services.draws import draw_next_round
from tournaments.services.registration import register_teams
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import create_tournament
from tournaments.services.teams import delete_team

pytestmark = pytest.mark.django_db

FIVE = "\n".join(f"{name}: {name} One & {name} Two" for name in ("Ana", "Bob", "Cid", "Dom", "Eve"))


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def concours(club, director) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Concours",
        slug="concours",
        starts_on=datetime.date(2027, 1, 9),
        format=Tournament.Format.CONCOURS,
        round_count=3,
        draw_seed=99,
    )
    register_teams(tournament, FIVE, by=director)
    draw_next_round(tournament, by=director)
    return tournament


def test_a_team_whose_only_match_is_a_bye_is_not_deleted_and_the_round_stays(club, director):
    tournament = concours(club, director)
    bye = Match.objects.get(tournament=tournament, ew_team__isnull=True)
    with pytest.raises(TeamInDraw) as refused:
        delete_team(bye.ns_team, by=director)
    assert refused.value.code == "team_in_draw"
    assert "in the draw of Round 1: withdraw it instead" in refused.value.message
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Match.objects.filter(tournament=tournament).count() == 3
    assert Team.objects.filter(tournament=tournament).count() == 5


def test_a_team_registered_after_the_draw_may_still_be_deleted(club, director):
    tournament = concours(club, director)
    (late,) = register_teams(tournament, "Late: Guy One & Guy Two", by=director)
    assert delete_team(late, by=director) is False
    assert Match.objects.filter(tournament=tournament).count() == 3


def test_the_api_answers_409_team_in_draw(club, director):
    tournament = concours(club, director)
    team = Match.objects.get(tournament=tournament, ew_team__isnull=True).ns_team
    api = APIClient()
    api.force_authenticate(director)
    answer = api.delete(f"/api/v1/teams/{team.pk}/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "team_in_draw"
    assert Team.objects.filter(pk=team.pk).exists()


def test_the_teams_page_offers_withdraw_not_delete_for_a_drawn_team(client, club, director):
    tournament = concours(club, director)
    (late,) = register_teams(tournament, "Late: Guy One & Guy Two", by=director)
    client.force_login(director)
    html = client.get("/direct/lyon/concours/teams/").content.decode()
    assert f"/direct/lyon/concours/teams/{late.pk}/delete/" in html
    assert html.count("/delete/") == 1
    assert html.count("/withdraw/") == 6


def test_a_round_robin_schedule_goes_with_a_deleted_team_and_the_page_says_so(
    client, club, director
):
    tournament = create_tournament(
        club, by=director, name="Jeudi", slug="jeudi", starts_on=datetime.date(2027, 1, 9)
    )
    teams = register_teams(tournament, FIVE, by=director)
    generate_round_robin(tournament, by=director)
    client.force_login(director)
    html = client.get("/direct/lyon/jeudi/teams/").content.decode()
    assert "The schedule (5 rounds, their tables and referees) is removed for every team" in html
    assert delete_team(teams[0], by=director) is True
    assert not Round.objects.filter(tournament=tournament).exists()
