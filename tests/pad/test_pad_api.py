"""The score pad's API (club.md §6): a game by its private key, any deal by number, 404 for a key
that does not exist, bad input refused naming the field and storing nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from pad.models import Pad

pytestmark = pytest.mark.django_db

THREE = ["Anna", "Bram", "Cato"]
MADE_BY_N = {"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50}}, "belote": "N"}
DEDANS_N = {"taker": "N", "trump": "H", "points": {"cards": {"N": 60, "E": 72}}}


@pytest.fixture
def api():
    return APIClient()


def start(api, players=THREE, rules=None, deals=None):
    body = {"players": players, "rules": rules or {}}
    if deals is not None:
        body["deals"] = deals
    return api.post("/api/v1/pads/", body, format="json")


def test_anyone_starts_a_game_and_gets_a_private_key(api):
    answer = start(api)
    assert answer.status_code == 201
    body = answer.json()
    assert len(body["key"]) >= 20 and body["key"] != body["view_key"]
    assert body["rules"]["players"] == 3
    assert body["totals"] == {"N": 0, "E": 0, "S": 0} and body["next_dealer"] == "N"
    assert Pad.objects.get().players == THREE


def test_the_game_is_read_back_replayed_in_the_match_shape(api):
    key = start(api, deals=[MADE_BY_N, DEDANS_N]).json()["key"]
    body = api.get(f"/api/v1/pads/{key}/").json()
    assert [d["result"]["score"] for d in body["deals"]] == [
        {"N": 90, "E": 50, "S": 42},
        {"N": 0, "E": 102, "S": 60},
    ]
    assert body["totals"] == {"N": 90, "E": 152, "S": 102}
    assert {"over", "winner", "pot", "next_dealer"} <= set(body)


def test_an_unknown_key_answers_404(api):
    assert api.get("/api/v1/pads/nosuchkeyatallhere/").status_code == 404
    assert (
        api.post("/api/v1/pads/nosuchkeyatallhere/deals/", MADE_BY_N, format="json").status_code
        == 404
    )
    assert api.delete("/api/v1/pads/nosuchkeyatallhere/deals/1/").status_code == 404


def test_five_players_are_refused_naming_the_field(api):
    answer = start(api, players=["A", "B", "C", "D", "E"])
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["players"]
    assert not Pad.objects.exists()


def test_a_deal_is_added_and_card_points_that_do_not_add_up_are_refused(api):
    key = start(api).json()["key"]
    answer = api.post(f"/api/v1/pads/{key}/deals/", MADE_BY_N, format="json")
    assert answer.status_code == 201 and answer.json()["totals"]["N"] == 90
    bad = {"taker": "E", "trump": "S", "points": {"cards": {"N": 70, "E": 50, "S": 50}}}
    answer = api.post(f"/api/v1/pads/{key}/deals/", bad, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {
        "points.cards": ["The card points add up to 170; a deal has 162."]
    }
    assert len(Pad.objects.get().deals) == 1


def test_a_seat_not_in_the_game_is_refused_naming_the_field(api):
    key = start(api).json()["key"]
    entry = {"taker": "W", "trump": "S", "points": {"cards": {"N": 70, "E": 50}}}
    answer = api.post(f"/api/v1/pads/{key}/deals/", entry, format="json")
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["taker"]


def test_any_deal_is_corrected_and_the_game_replayed(api):
    key = start(api, deals=[MADE_BY_N, DEDANS_N]).json()["key"]
    answer = api.put(f"/api/v1/pads/{key}/deals/1/", DEDANS_N, format="json")
    assert answer.status_code == 200
    assert answer.json()["totals"] == {"N": 0, "E": 204, "S": 120}


def test_any_deal_is_removed_and_the_later_ones_renumbered(api):
    key = start(api, deals=[MADE_BY_N, DEDANS_N]).json()["key"]
    answer = api.delete(f"/api/v1/pads/{key}/deals/1/")
    assert answer.status_code == 200
    assert [d["number"] for d in answer.json()["deals"]] == [1]
    assert answer.json()["totals"] == {"N": 0, "E": 102, "S": 60}
    assert api.delete(f"/api/v1/pads/{key}/deals/5/").status_code == 404


def test_four_players_are_two_partnerships(api):
    deal = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
    answer = start(api, players=["A", "B", "C", "D"], deals=[deal])
    assert answer.json()["totals"] == {"NS": 98, "EW": 64}


def test_the_game_ends_and_names_the_winner(api):
    capot = {"taker": "S", "trump": "C", "capot": "S"}
    answer = start(api, rules={"target": 200}, deals=[capot])
    assert answer.json()["over"] is True and answer.json()["winner"] == "S"
    key = answer.json()["key"]
    assert api.post(f"/api/v1/pads/{key}/deals/", MADE_BY_N, format="json").status_code == 400


def test_the_stateless_replay_scores_a_game_kept_on_the_phone(api):
    body = {"players": THREE, "rules": {}, "first_dealer": "E", "deals": [MADE_BY_N]}
    answer = api.post("/api/v1/pads/replay/", body, format="json")
    assert answer.status_code == 200 and answer.json()["deals"][0]["dealer"] == "E"
    assert not Pad.objects.exists()
    body["deals"] = ["garbage"]
    assert list(api.post("/api/v1/pads/replay/", body, format="json").json()["errors"]) == [
        "deals.0"
    ]
