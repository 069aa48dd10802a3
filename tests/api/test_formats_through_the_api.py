"""A Swiss, a concours and a knockout final run through the API alone, from an empty database
and one director account to the final ranking, against tables computed by hand.

Every match is two deals (`max_deals: 2`, no target). At table t the better seed takes
both deals with 98 + 2t card points, so a match is won 2 × (98 + 2t) to 2 × (64 - 2t): 200
to 124 at table 1, 204 to 120 at table 2. A bye scores a win's 2 match points and the
default `bye_points`, 80 a deal: 160. The draw seed is fixed, so the draws are the ones
below; round 1 is by lot, the rounds after it follow from the results as written in each
test.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, make_staff

# Real commits: the standings are recomputed after each change commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = "Ana: Anne Petit & Paul Roux\nBob: Jean Blanc & Lea Noir\nCid: Marc Brun & Sara Vert\nDom: Ines Gris & Tom Rose\nEve: Lise Bleu & Luc Jaune"
SEED = 2027


def ok(response: Any, code: int = 200) -> Any:
    assert response.status_code == code, response.content
    return response.json() if response.content else None


def deal(side: str, cards: int) -> dict[str, Any]:
    taker = "N" if side == "NS" else "E"
    return {"taker": taker, "trump": "H", "points": {"team": side, "cards": cards}}


@pytest.fixture
def director_session() -> tuple[APIClient, Any]:
    club = ClubFactory(name="Cercle de Nantes", slug="nantes")
    director = make_staff(club, Membership.Role.DIRECTOR, "directrice")
    session = APIClient()
    session.force_authenticate(director)
    return session, club


def new_tournament(session: APIClient, club: Any, **settings: Any) -> dict[str, Any]:
    body = {
        "club": club.pk,
        "name": "Soirée",
        "starts_on": "2027-01-09",
        "rules": {"target": None, "max_deals": 2},
        "draw_seed": SEED,
        **settings,
    }
    tournament = ok(session.post("/api/v1/tournaments/", body, format="json"), 201)
    teams = f"/api/v1/tournaments/{tournament['id']}/teams/"
    ok(session.post(teams, {"text": TEAMS}, format="json"), 201)
    return tournament


def draw(session: APIClient, tid: int) -> dict[str, Any]:
    return ok(session.post(f"/api/v1/tournaments/{tid}/rounds/"), 201)


def tables(drawn: dict[str, Any]) -> list[tuple[int | None, str, str | None]]:
    return [
        (m["table"], m["ns_team"]["name"], m["ew_team"]["name"] if m["ew_team"] else None)
        for m in drawn["matches"]
    ]


def play(session: APIClient, match: dict[str, Any], *deals: dict[str, Any]) -> dict[str, Any]:
    for entry in deals:
        ok(session.post(f"/api/v1/matches/{match['id']}/deals/", entry, format="json"), 201)
    return ok(session.get(f"/api/v1/matches/{match['id']}/"))


def better_seed_wins(session: APIClient, drawn: dict[str, Any]) -> None:
    for match in drawn["matches"]:
        if match["is_bye"]:
            continue
        side = "NS" if match["ns_team"]["seed"] < match["ew_team"]["seed"] else "EW"
        entry = deal(side, 98 + 2 * match["table"])
        play(session, match, entry, entry)


COLUMNS = ("played", "won", "match_points", "points_for", "points_against", "buchholz")


def standings(session: APIClient, tid: int, after: int) -> list[tuple[Any, ...]]:
    body = ok(session.get(f"/api/v1/tournaments/{tid}/standings/?after_round={after}"))
    return [
        (line["rank_label"], line["team"]["name"], *(line[c] for c in COLUMNS))
        for line in body["results"]
    ]


def test_a_swiss_of_five_teams_drawn_and_played_round_by_round(director_session):
    session, club = director_session
    tournament = new_tournament(session, club, format="swiss", rounds=3)
    tid = tournament["id"]
    assert (tournament["format"], tournament["rounds"], tournament["draw"]) == ("swiss", 3, None)
    assert (tournament["bye_points"], tournament["draw_seed"]) == (160, SEED)
    assert tournament["tie_breaks"] == [
        "match_points",
        "buchholz",
        "point_difference",
        "points_for",
    ]

    first = draw(session, tid)
    assert (first["number"], first["stage"], first["label"]) == (1, "qualifying", "Round 1")
    # By lot; the bye last, without a table.
    assert tables(first) == [(1, "Ana", "Eve"), (2, "Bob", "Cid"), (None, "Dom", None)]
    refused = session.post(f"/api/v1/tournaments/{tid}/rounds/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "round_not_finished"
    assert "tables 1, 2" in refused.json()["errors"]["detail"][0]
    better_seed_wins(session, first)
    # rank, team, played, won, match points, for, against, Buchholz
    assert standings(session, tid, 1) == [
        ("1", "Dom", 1, 1, 2, 160, 0, 0),  # the bye: a won match worth 160
        ("2", "Bob", 1, 1, 2, 204, 120, 0),
        ("3", "Ana", 1, 1, 2, 200, 124, 0),
        ("4", "Eve", 1, 0, 0, 124, 200, 2),  # lost to Ana: Buchholz 2
        ("5", "Cid", 1, 0, 0, 120, 204, 2),
    ]

    second = draw(session, tid)
    # The bye goes to the last team without one; winners meet winners, Eve a winner she has
    # not met. Ana sat NS in round 1, so she sits EW now; Bob too.
    assert tables(second) == [(1, "Dom", "Ana"), (2, "Eve", "Bob"), (None, "Cid", None)]
    better_seed_wins(session, second)
    assert standings(session, tid, 2) == [
        ("1", "Bob", 2, 2, 4, 408, 240, 2),  # met Cid (2, his bye) and Eve (0)
        ("2", "Ana", 2, 2, 4, 400, 248, 2),  # met Eve (0) and Dom (2)
        ("3", "Dom", 2, 1, 2, 284, 200, 4),
        ("4", "Cid", 2, 1, 2, 280, 204, 4),
        ("5", "Eve", 2, 0, 0, 244, 404, 8),
    ]

    third = draw(session, tid)
    # The only pairing without a repeat; Dom sat NS more often than Cid, so Cid sits NS.
    assert tables(third) == [(1, "Ana", "Bob"), (2, "Cid", "Dom"), (None, "Eve", None)]
    better_seed_wins(session, third)
    assert standings(session, tid, 3) == [
        ("1", "Ana", 3, 3, 6, 600, 372, 8),
        ("2", "Bob", 3, 2, 4, 532, 440, 12),  # Buchholz 4 + 2 + 6 puts Bob before Cid
        ("3", "Cid", 3, 2, 4, 484, 324, 6),
        ("4=", "Dom", 3, 1, 2, 404, 404, 10),  # level with Eve on every criterion
        ("4=", "Eve", 3, 1, 2, 404, 404, 10),
    ]

    refused = session.post(f"/api/v1/tournaments/{tid}/rounds/")
    assert refused.status_code == 409
    assert refused.json() == {
        "errors": {"detail": ["All 3 rounds of the tournament are drawn."]},
        "code": "all_rounds_drawn",
    }


def test_a_concours_drawn_by_ranking_ranks_by_points_scored(director_session):
    session, club = director_session
    tournament = new_tournament(session, club, format="concours", rounds=3, draw="ranking")
    tid = tournament["id"]
    assert (tournament["format"], tournament["draw"]) == ("concours", "ranking")
    assert tournament["tie_breaks"] == ["points_for", "wins", "point_difference"]

    first = draw(session, tid)
    assert tables(first) == [(1, "Ana", "Eve"), (2, "Bob", "Cid"), (None, "Dom", None)]
    better_seed_wins(session, first)
    assert [row[1] for row in standings(session, tid, 1)] == ["Bob", "Ana", "Dom", "Eve", "Cid"]

    second = draw(session, tid)
    # By places: 1 v 2 and 3 v 4, better place at table 1; Cid (5th) sits out.
    assert tables(second) == [(1, "Bob", "Ana"), (2, "Eve", "Dom"), (None, "Cid", None)]
    better_seed_wins(session, second)
    # rank, team, played, won, match points, for, against (points for first)
    assert [row[:7] for row in standings(session, tid, 2)] == [
        ("1", "Ana", 2, 2, 4, 400, 248),
        ("2", "Dom", 2, 2, 4, 364, 120),
        ("3", "Bob", 2, 1, 2, 328, 320),
        ("4", "Cid", 2, 1, 2, 280, 204),
        ("5", "Eve", 2, 0, 0, 244, 404),
    ]

    third = draw(session, tid)
    # Ana v Dom and Bob v Cid would be closest, but Bob met Cid: the next best pairing.
    assert tables(third) == [(1, "Cid", "Ana"), (2, "Dom", "Bob"), (None, "Eve", None)]
    better_seed_wins(session, third)
    assert [row[:7] for row in standings(session, tid, 3)] == [
        ("1", "Ana", 3, 3, 6, 600, 372),
        ("2", "Bob", 3, 2, 4, 532, 440),
        ("3", "Dom", 3, 2, 4, 484, 324),
        ("4=", "Cid", 3, 1, 2, 404, 404),  # level on points for, wins and difference
        ("4=", "Eve", 3, 1, 2, 404, 404),
    ]
    assert session.post(f"/api/v1/tournaments/{tid}/rounds/").status_code == 409


def test_a_knockout_final_after_the_swiss_ends_with_the_final_ranking(director_session):
    session, club = director_session
    tid = new_tournament(session, club, format="swiss", rounds=3)["id"]
    for _round in range(3):
        better_seed_wins(session, draw(session, tid))

    bracket = ok(
        session.post(
            f"/api/v1/tournaments/{tid}/finals/", {"size": 4, "third_place": True}, format="json"
        ),
        201,
    )
    # The top four after round 3; Dom and Eve share 4th, Dom has the better seed.
    assert [team["name"] for team in bracket["seeds"]] == ["Ana", "Bob", "Cid", "Dom"]
    assert (bracket["size"], bracket["third_place"], bracket["after_round"]) == (4, True, 3)
    assert (bracket["rounds"], bracket["finished"], bracket["ranking"]) == ([], False, [])

    semis = draw(session, tid)
    assert (semis["number"], semis["stage"], semis["label"]) == (4, "semi_finals", "Semi-finals")
    assert tables(semis) == [(1, "Ana", "Dom"), (2, "Bob", "Cid")]
    top, bottom = semis["matches"]
    # Level after its two deals, the knockout match plays on: a third deal decides it.
    level = play(session, top, deal("NS", 90), deal("EW", 90))
    assert (level["ns_total"], level["ew_total"], level["status"]) == (162, 162, "playing")
    refused = session.post(f"/api/v1/tournaments/{tid}/rounds/")
    assert (refused.status_code, refused.json()["code"]) == (409, "round_not_finished")
    decided = play(session, top, deal("NS", 100))
    assert (decided["ns_total"], decided["ew_total"], decided["winner"]) == (262, 224, "NS")
    play(session, bottom, deal("NS", 100), deal("NS", 100))  # Bob
    deleted = session.delete(f"/api/v1/tournaments/{tid}/rounds/4/")
    assert deleted.status_code == 409  # its deals are entered

    final = draw(session, tid)
    assert (final["number"], final["label"]) == (5, "Final")
    assert tables(final) == [(1, "Ana", "Bob"), (2, "Cid", "Dom")]
    assert [m["is_third_place"] for m in final["matches"]] == [False, True]
    play(session, final["matches"][0], deal("EW", 110), deal("EW", 110))  # Bob wins the final
    play(session, final["matches"][1], deal("EW", 120), deal("EW", 120))  # Dom takes third

    done = ok(session.get(f"/api/v1/tournaments/{tid}/finals/"))
    assert done["finished"] is True
    assert [(p["place"], p["team"]["name"]) for p in done["ranking"]] == [
        (1, "Bob"),
        (2, "Ana"),
        (3, "Dom"),
        (4, "Cid"),
        (5, "Eve"),  # outside the bracket, by the qualifying standings
    ]
    # The knockout rounds leave the qualifying standings as they were after round 3.
    body = ok(session.get(f"/api/v1/tournaments/{tid}/standings/"))
    assert (body["after_round"], body["rounds"]) == (3, [1, 2, 3])
    refused = session.post(f"/api/v1/tournaments/{tid}/rounds/")
    assert (refused.status_code, refused.json()["code"]) == (409, "all_rounds_drawn")
