"""An individual tournament (mêlée) run through the API alone: players registered, three
rounds drawn and played, the standings of each player checked against tables worked out by
hand from the draws.

Nine players: two tables of four each round and one player sitting out. Every match is one
deal (`max_deals: 1`, no target). At table t the North–South partnership takes the deal
with 90 + 10t card points: 100 to 62 at table 1, 110 to 52 at table 2. A sit-out scores a
win's 2 match points and the default `bye_points`, 80 a deal. The draw seed is fixed, so
the draws are the ones below.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, make_staff

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = "Anne Petit\nPaul Roux\nJean Blanc\nLea Noir\nMarc Brun\nSara Vert\nInes Gris\nTom Rose\nLise Bleu"
SEED = 2027


def ok(response: Any, code: int = 200) -> Any:
    assert response.status_code == code, response.content
    return response.json() if response.content else None


@pytest.fixture
def director_session() -> tuple[APIClient, Any]:
    club = ClubFactory(name="Cercle de Nantes", slug="nantes")
    director = make_staff(club, Membership.Role.DIRECTOR, "directrice")
    session = APIClient()
    session.force_authenticate(director)
    return session, club


def seats(match: dict[str, Any]) -> str:
    """ "N Anne Petit, E Paul Roux, S …, W …": the table in the order of play."""
    return ", ".join(f"{p['seat']} {p['player']['name']}" for p in match["players"])


def draw(session: APIClient, tid: int) -> dict[str, Any]:
    return ok(session.post(f"/api/v1/tournaments/{tid}/rounds/"), 201)


def play(session: APIClient, drawn: dict[str, Any]) -> None:
    for match in drawn["matches"]:
        entry = {
            "taker": "N",
            "trump": "H",
            "points": {"team": "NS", "cards": 90 + 10 * match["table"]},
        }
        ok(session.post(f"/api/v1/matches/{match['id']}/deals/", entry, format="json"), 201)


def test_a_melee_of_nine_players_through_the_api(director_session):
    session, club = director_session
    created = ok(
        session.post(
            "/api/v1/tournaments/",
            {
                "club": club.pk,
                "name": "Mêlée du jeudi",
                "starts_on": "2027-01-14",
                "format": "individual",
                "rounds": 3,
                "rules": {"target": None, "max_deals": 1},
                "draw_seed": SEED,
            },
            format="json",
        ),
        201,
    )
    tid = created["id"]
    assert (created["format"], created["rounds"], created["bye_points"]) == ("individual", 3, 80)
    assert created["tie_breaks"] == ["points_for", "wins", "point_difference"]

    registered = ok(
        session.post(f"/api/v1/tournaments/{tid}/entrants/", {"text": PLAYERS}, format="json"),
        201,
    )
    assert [(e["seed"], e["player"]["name"]) for e in registered][:2] == [
        (1, "Anne Petit"),
        (2, "Paul Roux"),
    ]
    refused = session.post(
        f"/api/v1/tournaments/{tid}/teams/", {"text": "A: Anne Petit & Paul Roux"}, format="json"
    )
    assert refused.status_code == 409
    # Published: a draft's matches count in no rating (docs/director.md).
    ok(session.post(f"/api/v1/tournaments/{tid}/status/", {"status": "running"}, format="json"))

    first = draw(session, tid)
    assert [seats(m) for m in first["matches"]] == [
        "N Anne Petit, E Marc Brun, S Lea Noir, W Ines Gris",
        "N Tom Rose, E Sara Vert, S Lise Bleu, W Jean Blanc",
    ]
    assert [p["name"] for p in first["sit_outs"]] == ["Paul Roux"]
    # Each partnership is a team of this round only.
    north_south = first["matches"][0]["ns_team"]
    partnership = ok(session.get(f"/api/v1/teams/{north_south['id']}/"))
    assert (partnership["name"], partnership["round_number"]) == ("Anne Petit & Lea Noir", 1)

    # Table 1 finished, table 2 not started: round 1's table counts table 1 and the sit-out.
    table_1 = first["matches"][0]
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}
    ok(session.post(f"/api/v1/matches/{table_1['id']}/deals/", entry, format="json"), 201)
    so_far = ok(session.get(f"/api/v1/tournaments/{tid}/standings/"))
    assert (so_far["after_round"], so_far["provisional"]) == (1, False)
    assert lines(so_far)[:5] == [
        ("1=", "Anne Petit", 1, 1, 2, 100, 62, 38),
        ("1=", "Lea Noir", 1, 1, 2, 100, 62, 38),
        ("3", "Paul Roux", 1, 1, 2, 80, 0, 80),
        ("4=", "Marc Brun", 1, 0, 0, 62, 100, -38),
        ("4=", "Ines Gris", 1, 0, 0, 62, 100, -38),
    ]
    table_2 = first["matches"][1]
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 110}}
    ok(session.post(f"/api/v1/matches/{table_2['id']}/deals/", entry, format="json"), 201)

    second = draw(session, tid)
    assert [seats(m) for m in second["matches"]] == [
        "N Lise Bleu, E Anne Petit, S Sara Vert, W Marc Brun",
        "N Paul Roux, E Ines Gris, S Jean Blanc, W Lea Noir",
    ]
    assert [p["name"] for p in second["sit_outs"]] == ["Tom Rose"]
    play(session, second)
    third = draw(session, tid)
    assert [seats(m) for m in third["matches"]] == [
        "N Sara Vert, E Lea Noir, S Anne Petit, W Jean Blanc",
        "N Marc Brun, E Paul Roux, S Lise Bleu, W Tom Rose",
    ]
    assert [p["name"] for p in third["sit_outs"]] == ["Ines Gris"]
    play(session, third)
    refused = session.post(f"/api/v1/tournaments/{tid}/rounds/")
    assert refused.status_code == 409 and refused.json()["code"] == "all_rounds_drawn"

    # Worked out by hand from the three draws (NS wins 100–62 at table 1, 110–52 at table
    # 2; a sit-out is a win worth 80). Lise Bleu won all three: 110 + 100 + 110 = 320, against
    # 52 + 62 + 52. Paul Roux and Tom Rose each sat out once, won once at table 2 (110–52) and
    # lost once there (52–110): level on every criterion, they share 4th in seed order. Ines
    # Gris lost twice and sat out: 62 + 52 + 80 = 194, against 100 + 110.
    # rank, player, played, won, match points, points for, against, difference
    standings = ok(session.get(f"/api/v1/tournaments/{tid}/standings/?after_round=3"))
    assert standings["rounds"] == [1, 2, 3]
    assert lines(standings) == [
        ("1", "Lise Bleu", 3, 3, 6, 320, 166, 154),
        ("2", "Anne Petit", 3, 2, 4, 262, 224, 38),  # 100 + 62 + 100
        ("3", "Sara Vert", 3, 2, 4, 252, 234, 18),  # 52 + 100 + 100
        ("4=", "Paul Roux", 3, 2, 4, 242, 162, 80),  # 80 (sat out) + 110 + 52
        ("4=", "Tom Rose", 3, 2, 4, 242, 162, 80),  # 110 + 80 (sat out) + 52
        ("6", "Marc Brun", 3, 1, 2, 234, 252, -18),  # 62 + 62 + 110
        ("7", "Jean Blanc", 3, 1, 2, 224, 262, -38),  # 52 + 110 + 62
        ("8", "Lea Noir", 3, 1, 2, 214, 272, -58),  # 100 + 52 + 62
        ("9", "Ines Gris", 3, 1, 2, 194, 210, -16),  # 62 + 52 + 80 (sat out)
    ]
    assert all(line["team"] is None for line in standings["results"])
    after_one = ok(session.get(f"/api/v1/tournaments/{tid}/standings/?after_round=1"))
    assert lines(after_one)[:3] == [
        ("1=", "Tom Rose", 1, 1, 2, 110, 52, 58),
        ("1=", "Lise Bleu", 1, 1, 2, 110, 52, 58),
        ("3=", "Anne Petit", 1, 1, 2, 100, 62, 38),
    ]

    # The schedule names every seat and who sat out; a player's matches are found by player.
    schedule = ok(session.get(f"/api/v1/tournaments/{tid}/schedule/"))
    assert [[p["name"] for p in r["sit_outs"]] for r in schedule["rounds"]] == [
        ["Paul Roux"],
        ["Tom Rose"],
        ["Ines Gris"],
    ]
    paul = registered[1]["player"]["id"]
    his = ok(session.get(f"/api/v1/matches/?tournament={tid}&player={paul}"))
    assert [m["round_number"] for m in his["results"]] == [2, 3]

    # Every finished match moved its four players' club ratings: three matches each, two for
    # those who sat out a round.
    rankings = ok(session.get(f"/api/v1/clubs/{club.pk}/rankings/"))
    played = {line["player"]["name"]: line["matches_played"] for line in rankings["results"]}
    sat_out = {"Paul Roux", "Tom Rose", "Ines Gris"}
    assert played == {name: 2 if name in sat_out else 3 for name in PLAYERS.splitlines()}

    # Withdrawn, a player keeps their line; the API lists the tournament's players.
    anne = registered[0]
    ok(session.post(f"/api/v1/entrants/{anne['id']}/withdraw/"), 200)
    listed = ok(session.get(f"/api/v1/tournaments/{tid}/entrants/"))
    assert [(e["player"]["name"], e["withdrawn"]) for e in listed][:2] == [
        ("Anne Petit", True),
        ("Paul Roux", False),
    ]


def lines(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    columns = ("played", "won", "match_points", "points_for", "points_against", "point_difference")
    return [
        (line["rank_label"], line["player"]["name"], *(line[c] for c in columns))
        for line in body["results"]
    ]
