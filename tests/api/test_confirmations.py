"""`POST /api/v1/matches/{id}/confirmations/`: a team confirms or disputes the finished sheet;
the match shows `confirmed_by`, `disputed_by` and `confirmed`."""

from __future__ import annotations

import pytest

from tournaments.services.deals import correct_deal, enter_deal

from .conftest import client_for

pytestmark = pytest.mark.django_db

NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_MAKES = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}


@pytest.fixture
def finished(match, referee):
    match.tournament.rules = {"target": None, "max_deals": 2}
    match.tournament.save(update_fields=["rules"])
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    return match


def url(match):
    return f"/api/v1/matches/{match.pk}/confirmations/"


def answer(client, match, team, agree, **more):
    return client.post(url(match), {"team": team, "agree": agree, **more}, format="json")


def test_the_referees_device_records_both_teams_confirming(finished, referee):
    device = client_for(referee)
    first = answer(device, finished, "NS", True)
    assert first.status_code == 201
    assert first.json()["confirmed_by"] == ["NS"] and first.json()["confirmed"] is False
    body = answer(device, finished, "EW", True).json()
    assert body["confirmed_by"] == ["NS", "EW"] and body["confirmed"] is True
    assert body["disputed_by"] == []
    assert [(c["team"], c["agree"], c["by"]["username"]) for c in body["confirmations"]] == [
        ("EW", True, "referee"),
        ("NS", True, "referee"),
    ]


def test_a_dispute_shows_in_disputed_by_with_its_remark(finished, referee):
    body = answer(client_for(referee), finished, "EW", False, remark="deal 2 was 130").json()
    assert body["disputed_by"] == ["EW"] and body["confirmed_by"] == []
    assert body["confirmations"][0]["remark"] == "deal 2 was 130"
    public = client_for(None).get(f"/api/v1/matches/{finished.pk}/").json()
    assert public["disputed_by"] == ["EW"] and public["confirmed"] is False


def test_a_director_answers_on_a_teams_behalf(finished, director_client):
    body = answer(director_client, finished, "NS", True).json()
    assert body["confirmations"][0]["by_director"] is True


def test_a_correction_forgets_the_answers(finished, referee, director):
    answer(client_for(referee), finished, "NS", True)
    correct_deal(finished, 2, {**EW_MAKES, "points": {"team": "EW", "cards": 110}}, by=director)
    body = client_for(referee).get(f"/api/v1/matches/{finished.pk}/").json()
    assert body["confirmed_by"] == [] and body["confirmations"] == []


def test_bad_answers_name_their_field(finished, referee):
    device = client_for(referee)
    bad_team = answer(device, finished, "N", True)
    assert bad_team.status_code == 400 and "team" in bad_team.json()["errors"]
    no_agree = device.post(url(finished), {"team": "NS"}, format="json")
    assert no_agree.status_code == 400 and "agree" in no_agree.json()["errors"]


def test_a_match_still_playing_answers_409(match, referee):
    enter_deal(match, NS_MAKES, by=referee)
    response = answer(client_for(referee), match, "NS", True)
    assert response.status_code == 409 and response.json()["code"] == "conflict"


def test_another_referee_and_anonymous_are_refused(finished, other_referee, anonymous_client):
    assert answer(client_for(other_referee), finished, "NS", True).status_code == 403
    assert answer(anonymous_client, finished, "NS", True).status_code in (401, 403)
    assert not finished.confirmations.exists()
