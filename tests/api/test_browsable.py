"""The browsable API (a browser's Accept header) renders every read without failing."""

from __future__ import annotations

import pytest

from .conftest import MADE, deals_url

pytestmark = pytest.mark.django_db


def test_a_director_browses_every_resource_in_html(director_client, referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    t = match.tournament
    urls = [
        "/api/v1/",
        "/api/v1/clubs/",
        f"/api/v1/clubs/{t.club_id}/",
        f"/api/v1/clubs/{t.club_id}/rankings/",
        "/api/v1/players/",
        f"/api/v1/players/{match.ns_team.first_player_id}/ratings/",
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{t.pk}/",
        f"/api/v1/tournaments/{t.pk}/standings/",
        f"/api/v1/tournaments/{t.pk}/schedule/",
        "/api/v1/teams/",
        "/api/v1/rounds/",
        "/api/v1/matches/",
        f"/api/v1/matches/{match.pk}/",
        f"/api/v1/matches/{match.pk}/audit/",
        deals_url(match),
        deals_url(match, 1),
        "/api/v1/ping/",
        "/api/v1/nowhere/",
    ]
    for url in urls:
        response = director_client.get(url, HTTP_ACCEPT="text/html")
        assert response.status_code in (200, 404), (url, response.status_code)
        assert response["Content-Type"].startswith("text/html"), url
