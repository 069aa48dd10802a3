"""The director's workflow through the API, and what referees and anonymous users may not do."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tournaments.models import Match, Tournament

from .conftest import MADE, client_for, deals_url

pytestmark = pytest.mark.django_db

NEW_TOURNAMENT = {
    "name": "Coupe de printemps",
    "slug": "printemps",
    "starts_on": "2027-03-20",
    "rules": {"target": 501},
    "points_win": 3,
    "points_draw": 1,
    "points_loss": 0,
    "tie_breaks": ["match_points", "point_difference"],
}


def test_a_director_creates_a_tournament_with_house_rules(director_client, club):
    response = director_client.post(
        "/api/v1/tournaments/", {**NEW_TOURNAMENT, "club": club.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["rules"]["target"] == 501
    assert body["status"] == "draft"
    assert body["tie_breaks"] == ["match_points", "point_difference"]


def test_bad_house_rules_answer_the_engines_rule_paths(director_client, club):
    body = {**NEW_TOURNAMENT, "club": club.pk, "rules": {"target": "lots", "colour": 1}}
    response = director_client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert "rules.target" in errors
    assert all(path.startswith("rules.") for path in errors)


def test_match_points_out_of_order_and_unknown_tie_breaks_are_refused(director_client, club):
    body = {**NEW_TOURNAMENT, "club": club.pk, "points_win": 0, "points_draw": 2}
    assert (
        "points_draw"
        in director_client.post("/api/v1/tournaments/", body, format="json").json()["errors"]
    )
    body = {**NEW_TOURNAMENT, "club": club.pk, "tie_breaks": ["coin_toss"]}
    assert (
        "tie_breaks.0"
        in director_client.post("/api/v1/tournaments/", body, format="json").json()["errors"]
    )


@pytest.mark.parametrize("user", ["referee", "other_referee"])
def test_a_referee_cannot_create_a_tournament(request, user, club):
    client = client_for(request.getfixturevalue(user))
    response = client.post(
        "/api/v1/tournaments/", {**NEW_TOURNAMENT, "club": club.pk}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["errors"]["detail"] == ["Only a director of this club may do this."]


def test_a_director_of_another_club_cannot_touch_this_one(club, tournament):
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    client = client_for(stranger)
    response = client.post(
        "/api/v1/tournaments/", {**NEW_TOURNAMENT, "club": club.pk}, format="json"
    )
    assert response.status_code == 403
    assert (
        client.patch(
            f"/api/v1/tournaments/{tournament.pk}/", {"name": "Mine"}, format="json"
        ).status_code
        == 403
    )


def test_anonymous_writes_answer_401_with_the_token_challenge(
    anonymous_client, club, tournament, match
):
    for response in (
        anonymous_client.post("/api/v1/tournaments/", NEW_TOURNAMENT, format="json"),
        anonymous_client.post(f"/api/v1/matches/{match.pk}/close/"),
        anonymous_client.post(f"/api/v1/clubs/{club.pk}/players/", {"text": "A B"}, format="json"),
        anonymous_client.patch(
            f"/api/v1/tournaments/{tournament.pk}/", {"name": "X"}, format="json"
        ),
        anonymous_client.post("/api/v1/tokens/", {"user": 1}, format="json"),
    ):
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Token realm="api"'
        assert response.json()["code"] == "not_authenticated"


def test_a_director_updates_house_rules_until_a_deal_is_entered(
    director_client, referee_client, tournament, match
):
    url = f"/api/v1/tournaments/{tournament.pk}/"
    assert (
        director_client.patch(url, {"rules": {"target": 701}}, format="json").json()["rules"][
            "target"
        ]
        == 701
    )
    referee_client.post(deals_url(match), MADE, format="json")
    refused = director_client.patch(url, {"rules": {"target": 501}}, format="json")
    assert refused.status_code == 409
    assert "rules" in refused.json()["errors"]
    assert director_client.patch(url, {"name": "Renamed"}, format="json").status_code == 200


def test_a_director_registers_players_teams_and_generates_the_schedule(director_client, club):
    tournament = director_client.post(
        "/api/v1/tournaments/", {**NEW_TOURNAMENT, "club": club.pk}, format="json"
    ).json()
    players = director_client.post(
        f"/api/v1/clubs/{club.pk}/players/", {"text": "Marie Dupont\nLuc Martin"}, format="json"
    )
    assert players.status_code == 201
    [marie, luc] = players.json()
    one = director_client.post(
        f"/api/v1/tournaments/{tournament['id']}/teams/",
        {"name": "Les As", "first_player": marie["id"], "second_player": luc["id"]},
        format="json",
    )
    assert one.status_code == 201, one.json()
    many = director_client.post(
        f"/api/v1/tournaments/{tournament['id']}/teams/",
        {"text": "Les Rois: Anne Petit & Paul Roux\nJean Blanc & Lea Noir"},
        format="json",
    )
    assert many.status_code == 201 and len(many.json()) == 2
    schedule = director_client.post(
        f"/api/v1/tournaments/{tournament['id']}/schedule/", {}, format="json"
    )
    assert schedule.status_code == 201, schedule.json()
    assert len(schedule.json()["rounds"]) == 3  # three teams: three rounds, a bye in each


def test_pasted_teams_with_mistakes_are_refused_line_by_line(director_client, tournament):
    response = director_client.post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {"text": "Only One Player\nA B & C D"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"]["text"][0].startswith("line 1")


def test_a_director_assigns_and_removes_a_referee(director_client, other_referee, match):
    url = f"/api/v1/matches/{match.pk}/referee/"
    assigned = director_client.post(url, {"referee": other_referee.pk}, format="json")
    assert assigned.status_code == 200
    assert assigned.json()["referee"]["username"] == "other"
    assert director_client.post(url, {"referee": None}, format="json").json()["referee"] is None
    assert director_client.post(url, {"referee": 987654}, format="json").status_code == 400


def test_a_referee_cannot_assign_referees_or_close_matches(referee_client, match, referee):
    assert (
        referee_client.post(
            f"/api/v1/matches/{match.pk}/referee/", {"referee": referee.pk}, format="json"
        ).status_code
        == 403
    )
    assert referee_client.post(f"/api/v1/matches/{match.pk}/close/").status_code == 403
    assert referee_client.post(f"/api/v1/rounds/{match.round_id}/close/").status_code == 403


def test_a_director_closes_and_reopens_a_round_with_its_matches(director_client, match):
    asked = director_client.post(f"/api/v1/rounds/{match.round_id}/close/")
    assert asked.status_code == 409
    assert asked.json() == {
        "errors": {
            "detail": [
                f"Round {match.round.number}: 1 match is not finished (table {match.table})."
            ]
        },
        "code": "round_not_ready",
        "unfinished_tables": [match.table],
        "unconfirmed_tables": [],
    }
    assert not Match.objects.get(pk=match.pk).is_closed
    closed = director_client.post(f"/api/v1/rounds/{match.round_id}/close/?force=true")
    assert closed.status_code == 200 and closed.json()["is_closed"] is True
    assert Match.objects.get(pk=match.pk).is_closed
    director_client.post(f"/api/v1/rounds/{match.round_id}/reopen/")
    assert not Match.objects.get(pk=match.pk).is_closed


def test_a_director_withdraws_a_team_and_its_match_becomes_a_bye(
    director_client, referee_client, match
):
    team = match.ew_team
    response = director_client.post(f"/api/v1/teams/{team.pk}/withdraw/")
    assert response.status_code == 200 and response.json()["withdrawn"] is True
    assert Match.objects.get(pk=match.pk).ew_team is None
    assert director_client.post(f"/api/v1/teams/{team.pk}/withdraw/").status_code == 409
    assert referee_client.post(f"/api/v1/teams/{match.ns_team_id}/withdraw/").status_code == 403


def test_a_director_moves_the_tournament_status(director_client, referee_client, tournament):
    url = f"/api/v1/tournaments/{tournament.pk}/status/"
    assert (
        director_client.post(url, {"status": "finished"}, format="json").json()["status"]
        == "finished"
    )
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert director_client.post(url, {"status": "paused"}, format="json").status_code == 400
    assert referee_client.post(url, {"status": "running"}, format="json").status_code == 403


def test_registering_players_through_the_api_reads_their_ratings_in_one_query(
    director_client, club
):
    """The answer lists each new player's ratings: a fixed number of queries for any count."""
    few = "\n".join(f"Anne{chr(97 + i)} Roux" for i in range(3))
    many = "\n".join(f"Luc{chr(97 + i)} Martin" for i in range(20))
    url = f"/api/v1/clubs/{club.pk}/players/"
    # The first request of a session reads what later ones find cached.
    assert director_client.post(url, {"text": "Paul Petit"}, format="json").status_code == 201
    with CaptureQueriesContext(connection) as for_few:
        assert director_client.post(url, {"text": few}, format="json").status_code == 201
    with CaptureQueriesContext(connection) as for_many:
        assert director_client.post(url, {"text": many}, format="json").status_code == 201
    assert len(for_many) == len(for_few)
