"""No input of any kind makes a 500: malformed JSON, wrong types, huge numbers, unknown ids."""

from __future__ import annotations

import pytest

from .conftest import MADE, deals_url

pytestmark = pytest.mark.django_db

HUGE = "9" * 40


def _shaped(response) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code < 500
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"errors", "code"}
        assert all(isinstance(v, list) and v for v in body["errors"].values())


@pytest.mark.parametrize("text", ["{", '{"taker": ', "\x00\xff", "[" * 5000])
def test_malformed_json_is_a_400_naming_the_body(referee_client, match, text):
    response = referee_client.post(deals_url(match), text, content_type="application/json")
    assert response.status_code == 400
    _shaped(response)


def test_a_body_in_another_media_type_is_a_415(referee_client, match):
    response = referee_client.post(
        deals_url(match), "taker=N", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    _shaped(response)


@pytest.mark.parametrize(
    "entry",
    [
        {"taker": 5},
        {"taker": "N", "trump": ["H"]},
        {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": int(HUGE)}},
        {"taker": "N", "trump": "H", "points": "many"},
        {
            "taker": "N",
            "trump": "H",
            "points": {"team": "NS", "cards": 98},
            "declarations": {"NS": [{"type": "sequence", "length": 10**20}]},
        },
        {**MADE, "unknown": True},
    ],
)
def test_wrong_types_and_huge_numbers_in_a_deal_are_400s(referee_client, match, entry):
    response = referee_client.post(deals_url(match), entry, format="json")
    assert response.status_code == 400
    _shaped(response)


@pytest.mark.parametrize(
    "url",
    [
        f"/api/v1/matches/{HUGE}/",
        f"/api/v1/matches/{HUGE}/deals/",
        f"/api/v1/tournaments/{HUGE}/standings/",
        "/api/v1/tournaments/-1/",
        "/api/v1/teams/abc/",
        f"/api/v1/players/{HUGE}/ratings/",
        "/api/v1/clubs/0/rankings/",
    ],
)
def test_unknown_or_absurd_ids_are_404s(director_client, url):
    response = director_client.get(url)
    assert response.status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        {"tournament": HUGE},
        {"round": "x"},
        {"referee": -4},
        {"status": "sleeping"},
        {"page": HUGE},
        {"page": "last-but-one"},
        {"ordering": "nonsense,-alsonot"},
        {"table": 10**10},
    ],
)
def test_bad_filters_pages_and_orderings_never_fail(
    director_client, anonymous_client, match, query
):
    for client in (director_client, anonymous_client):
        _shaped(client.get("/api/v1/matches/", query))


@pytest.mark.parametrize(
    "body",
    [
        {"club": HUGE, "name": "x", "slug": "x", "starts_on": "2027-01-01"},
        {"club": "lyon", "name": 5, "slug": "?", "starts_on": "yesterday"},
        {"points_win": 10**12},
        [],
        "text",
    ],
)
def test_tournament_bodies_of_the_wrong_shape_are_400s(director_client, club, body):
    response = director_client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    _shaped(response)


def test_huge_ids_in_write_bodies_are_400s(director_client, match):
    response = director_client.post(
        f"/api/v1/matches/{match.pk}/referee/", {"referee": int(HUGE)}, format="json"
    )
    assert response.status_code == 400
    _shaped(response)
    _shaped(director_client.post("/api/v1/tokens/", {"user": int(HUGE)}, format="json"))
    body = {"name": "X", "first_player": int(HUGE), "second_player": "me"}
    response = director_client.post(
        f"/api/v1/tournaments/{match.tournament_id}/teams/", body, format="json"
    )
    assert response.status_code == 400
    _shaped(response)


def test_an_empty_idempotency_key_is_refused_clearly(referee_client, match):
    response = referee_client.post(deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="")
    assert 400 <= response.status_code < 500
    _shaped(response)
    response = referee_client.post(
        deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="k" * 500
    )
    assert 400 <= response.status_code < 500
    assert "submission_key" in response.json()["errors"]


def test_a_method_the_resource_does_not_have_is_a_405(director_client, match):
    response = director_client.delete(f"/api/v1/matches/{match.pk}/")
    assert response.status_code == 405
    _shaped(response)
