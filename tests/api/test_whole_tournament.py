"""A whole tournament run through the API alone: from an empty database and one director
account to the final standings."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, make_staff

# Real commits: the standings are recomputed after each change commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_WINS = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 110}}


def ok(response, code=200):  # type: ignore[no-untyped-def]
    assert response.status_code == code, response.content
    return response.json() if response.content else None


def test_a_director_runs_a_whole_tournament_through_the_api():
    club = ClubFactory(name="Cercle de Nantes", slug="nantes")
    director = make_staff(club, Membership.Role.DIRECTOR, "directrice")
    session = APIClient()
    session.force_authenticate(director)

    tournament = ok(
        session.post(
            "/api/v1/tournaments/",
            {
                "club": club.pk,
                "name": "Open de Nantes",
                "slug": "open",
                "starts_on": "2027-01-09",
                "rules": {"max_deals": 2},
                "is_public": True,
            },
            format="json",
        ),
        201,
    )
    tid = tournament["id"]
    teams = ok(
        session.post(
            f"/api/v1/tournaments/{tid}/teams/",
            {
                "text": "Les As: Anne Petit & Paul Roux\n"
                "Les Rois: Jean Blanc & Lea Noir\n"
                "Les Valets: Marc Brun & Sara Vert\n"
                "Les Dames: Ines Gris & Tom Rose"
            },
            format="json",
        ),
        201,
    )
    assert [t["seed"] for t in teams] == [1, 2, 3, 4]
    ok(session.post(f"/api/v1/tournaments/{tid}/status/", {"status": "running"}, format="json"))
    schedule = ok(session.post(f"/api/v1/tournaments/{tid}/schedule/", {}, format="json"), 201)
    assert [len(r["matches"]) for r in schedule["rounds"]] == [2, 2, 2]

    # The director referees every table, from a device holding a token of her own.
    key = ok(session.post("/api/v1/me/tokens/", {"name": "tablet"}, format="json"), 201)["key"]
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    for round_ in schedule["rounds"]:
        for match in round_["matches"]:
            ok(
                session.post(
                    f"/api/v1/matches/{match['id']}/referee/",
                    {"referee": director.pk},
                    format="json",
                )
            )
            # The team with the lower seed wins every deal.
            lower_ns = match["ns_team"]["seed"] < match["ew_team"]["seed"]
            entry = NS_WINS if lower_ns else EW_WINS
            for deal in (1, 2):
                created = ok(
                    device.post(
                        f"/api/v1/matches/{match['id']}/deals/",
                        entry,
                        format="json",
                        HTTP_IDEMPOTENCY_KEY=f"m{match['id']}-d{deal}",
                    ),
                    201,
                )
                assert created["number"] == deal
            played = ok(device.get(f"/api/v1/matches/{match['id']}/"))
            assert played["status"] == "finished"
            assert played["winner"] == ("NS" if lower_ns else "EW")
            assert played["confirmed_by"] == [] and played["confirmed"] is False
        # A round with sheets unconfirmed is closed only when asked twice.
        waiting = session.post(f"/api/v1/rounds/{round_['id']}/close/")
        assert waiting.status_code == 409 and waiting.json()["code"] == "round_not_ready"
        assert waiting.json()["unconfirmed_tables"] == [1, 2]
        # Both teams confirm each sheet on the device; then the round closes at once.
        for match in round_["matches"]:
            for team in ("NS", "EW"):
                answered = ok(
                    device.post(
                        f"/api/v1/matches/{match['id']}/confirmations/",
                        {"team": team, "agree": True},
                        format="json",
                    ),
                    201,
                )
            assert answered["confirmed_by"] == ["NS", "EW"] and answered["confirmed"] is True
        ok(session.post(f"/api/v1/rounds/{round_['id']}/close/"))

    ok(session.post(f"/api/v1/tournaments/{tid}/status/", {"status": "finished"}, format="json"))
    standings = ok(APIClient().get(f"/api/v1/tournaments/{tid}/standings/"))
    assert standings["after_round"] == 3
    assert standings["up_to_date"] is True
    assert standings["computed_at"] is not None
    lines = standings["results"]
    assert [line["team"]["name"] for line in lines] == [
        "Les As",
        "Les Rois",
        "Les Valets",
        "Les Dames",
    ]
    assert [line["match_points"] for line in lines] == [6, 4, 2, 0]
    assert [line["played"] for line in lines] == [3, 3, 3, 3]
    after_first = ok(APIClient().get(f"/api/v1/tournaments/{tid}/standings/", {"after_round": 1}))
    assert after_first["after_round"] == 1
    assert sum(line["match_points"] for line in after_first["results"]) == 4
