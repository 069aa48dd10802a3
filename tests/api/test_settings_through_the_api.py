"""A tournament's settings changed through the API go through the settings service."""

from __future__ import annotations

import pytest

from tests.api.conftest import MADE
from tests.factories import MatchFactory
from tournaments.models import MatchEvent, Tournament

pytestmark = pytest.mark.django_db


def test_patching_match_points_records_a_change_and_the_standings_follow(
    director_client, tournament, referee, django_capture_on_commit_callbacks
):
    tournament.rules = {"target": None, "max_deals": 1}
    tournament.save()
    match = MatchFactory(round__tournament=tournament, referee=referee)
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(f"/api/v1/matches/{match.pk}/deals/", MADE, format="json")
    assert response.status_code == 201
    before = Tournament.objects.get(pk=tournament.pk).change_seq

    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.patch(
            f"/api/v1/tournaments/{tournament.pk}/",
            {"points_win": 3, "points_loss": 1},
            format="json",
        )

    assert response.status_code == 200
    assert (response.json()["points_win"], response.json()["points_loss"]) == (3, 1)
    assert response.json()["change_seq"] == before + 1
    assert MatchEvent.objects.filter(tournament=tournament, action="settings").exists()
    standings = director_client.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert standings["up_to_date"] is True
    points = {line["team"]["id"]: line["match_points"] for line in standings["results"]}
    assert points == {match.ns_team_id: 3, match.ew_team_id: 1}


def test_a_house_rule_change_after_deals_answers_409_naming_the_rules(
    director_client, tournament, referee
):
    match = MatchFactory(round__tournament=tournament, referee=referee)
    director_client.post(f"/api/v1/matches/{match.pk}/deals/", MADE, format="json")
    response = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"rules": {"target": 501}}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "settings_locked"
    assert list(response.json()["errors"]) == ["rules"]


def test_bad_settings_answer_400_with_every_path(director_client, tournament):
    response = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/",
        {"points_win": 0, "tie_breaks": ["wins", "wins"], "rules": {"capot_value": 9}},
        format="json",
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"rules.capot_value", "points_draw", "tie_breaks"}


def test_a_past_round_after_a_tie_break_change_is_ranked_by_the_new_order(client):
    """Only the latest round is stored: a table after an earlier round is computed when
    asked, from the tournament's settings of now, and says so as the latest does."""
    from django.db.models import F

    from bench.bigtournament import build_round_robin_tournament
    from tournaments.selectors.results import table_of
    from tournaments.services.standings import recompute_standings

    tournament = build_round_robin_tournament(4, 2, seed=5)
    recompute_standings(tournament.pk)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    before = client.get(url, {"after_round": 1}).json()
    Tournament.objects.filter(pk=tournament.pk).update(
        tie_breaks=["match_points", "points_for"], change_seq=F("change_seq") + 1
    )
    assert client.get(url, {"after_round": 1}).json()["up_to_date"] is False
    recompute_standings(tournament.pk)

    body = client.get(url, {"after_round": 1}).json()
    assert body["up_to_date"] is True and body["after_round"] == 1
    assert body["rounds"] == [1, 2, 3]
    expected = table_of(Tournament.objects.get(pk=tournament.pk))[1]
    assert [(r["team"]["id"], r["rank_label"]) for r in body["results"]] == [
        (line.team_id, line.rank_label) for line in expected
    ]
    assert body["results"][0].keys() == before["results"][0].keys()
    assert client.get(url, {"after_round": 4}).json()["results"] == []
