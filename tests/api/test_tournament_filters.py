"""The tournaments list filters by format under `tournament_format`; `?format=` stays REST
framework's choice of renderer (issue 27: the two shared one name)."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def formats(club):  # type: ignore[no-untyped-def]
    for name, format_ in (("swiss", "swiss"), ("melee", "individual"), ("league", "round_robin")):
        TournamentFactory(club=club, slug=name, format=format_, is_public=True)


def slugs(response) -> set[str]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.content
    return {t["slug"] for t in response.json()["results"]}


def test_the_list_filters_by_tournament_format(anonymous_client, formats):
    swiss = anonymous_client.get("/api/v1/tournaments/", {"tournament_format": "swiss"})
    assert slugs(swiss) == {"swiss"}
    melee = anonymous_client.get("/api/v1/tournaments/", {"tournament_format": "individual"})
    assert slugs(melee) == {"melee"}


def test_a_format_that_does_not_exist_is_refused_naming_the_filter(anonymous_client, formats):
    response = anonymous_client.get("/api/v1/tournaments/", {"tournament_format": "bridge"})
    assert response.status_code == 400
    assert "tournament_format" in response.json()["errors"]


def test_format_json_still_chooses_the_renderer_and_filters_nothing(anonymous_client, formats):
    response = anonymous_client.get("/api/v1/tournaments/?format=json")
    assert response["Content-Type"].startswith("application/json")
    assert slugs(response) == {"swiss", "melee", "league"}


def test_the_schema_names_the_filter_tournament_format(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    names = {p["name"] for p in schema["paths"]["/api/v1/tournaments/"]["get"]["parameters"]}
    assert "tournament_format" in names
    assert "format" not in names
    choices = next(
        p
        for p in schema["paths"]["/api/v1/tournaments/"]["get"]["parameters"]
        if p["name"] == "tournament_format"
    )["schema"]["enum"]
    assert set(choices) == set(Tournament.Format.values)
