"""One engine: the engine's own test vectors, run by the engine on the phone (Pyodide in the
browser's worker, static/js/engine-worker.js), give exactly what the server's engine gives.

The vectors: the four-player deals, matches and refused deals of tests/scoring/data, every
example of the rule book (docs/rules.md, two and three players among them), 120 games of two
and three under house rules drawn at random, and a few refused games of two, three and five; each is asked of the browser as the pad asks it and compared with
`python -m scoring`'s own `run` on the server, messages and paths included.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.__main__ import run
from scoring.engine.rules import (
    AllPass,
    BothReachTarget,
    DeclarationComparison,
    Direction,
    Rounding,
)
from scoring.translation import engine_messages
from tests.e2e.conftest import engine_ready, requires_chromium
from tests.scoring.test_rule_book import EXAMPLES

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "scoring" / "data" / "four_player_cases.json"


SOLO_SEATS = {2: ["N", "S"], 3: ["N", "E", "S"]}


def solo_games(count: int, seed: int = 20261206) -> list[dict[str, Any]]:
    """Games of two and three under house rules drawn at random, their deals made mostly of
    what a table writes (card points of all but one, belote, a capot, all passed) and now and
    then declarations, which the engine may accept or refuse: both answers are compared."""
    rng = random.Random(seed)
    games = []
    for index in range(count):
        players = 2 + index % 2
        seats = SOLO_SEATS[players]
        rules: dict[str, Any] = {
            "players": players,
            "declarations": rng.random() < 0.8,
            "declaration_comparison": rng.choice(list(DeclarationComparison)).value,
            "rounding": rng.choice(list(Rounding)).value,
            "all_pass": rng.choice(list(AllPass)).value,
            "direction": rng.choice(list(Direction)).value,
            "capot_value": rng.choice([252, 250, 500]),
            "both_reach_target": rng.choice(list(BothReachTarget)).value,
        }
        if rng.random() < 0.5:
            rules["target"] = rng.choice([300, 500, 1000])
        else:
            rules["target"], rules["max_deals"] = None, rng.choice([4, 8])
        deals = []
        for _deal in range(rng.randint(1, 10)):
            roll = rng.random()
            taker = rng.choice(seats)
            deal: dict[str, Any] = {"taker": taker, "trump": rng.choice("SHDC")}
            if roll < 0.05:
                deal = {"taker": None}
            elif roll < 0.1:
                deal["capot"] = rng.choice(seats)
            else:
                left = 162
                points = {}
                for seat in seats[:-1]:
                    points[seat] = rng.choice([0, *range(2, max(left - 1, 3))])
                    left -= points[seat]
                deal["points"] = {"cards": points}
            if deal["taker"] and rng.random() < 0.3:
                deal["belote"] = rng.choice(seats)
            if deal["taker"] and rng.random() < 0.2:
                seat = rng.choice(seats)
                deal["declarations"] = {
                    seat: [
                        rng.choice(
                            [
                                {"type": "sequence", "length": rng.randint(3, 5)},
                                {"type": "four", "rank": rng.choice("J9AKQT")},
                            ]
                        )
                    ]
                }
            deals.append(deal)
        games.append({"rules": rules, "first_dealer": rng.choice(seats), "deals": deals})
    return games


def vectors() -> list[tuple[str, dict[str, Any]]]:
    cases = json.loads(DATA.read_text())
    found: list[tuple[str, dict[str, Any]]] = []
    found += [("deal", {"rules": c["rules"], "deal": c["deal"]}) for c in cases["deals"]]
    found += [
        (
            "match",
            {"rules": c.get("rules", {}), "first_dealer": c["first_dealer"], "deals": c["deals"]},
        )
        for c in cases["matches"]
    ]
    found += [("deal", {"rules": c["rules"], "deal": c["deal"]}) for c in cases["invalid"]]
    found += [("match" if "deals" in e.body else "deal", e.body) for e in EXAMPLES]
    found += [("match", game) for game in solo_games(120)]
    # Games of two and three the engine refuses: a seat not in the game, points not adding up.
    found += [
        (
            "match",
            {
                "rules": {"players": 3},
                "first_dealer": "N",
                "deals": [{"taker": "W", "trump": "H", "points": {"cards": {"N": 80, "E": 40}}}],
            },
        ),
        (
            "match",
            {
                "rules": {"players": 2},
                "first_dealer": "S",
                "deals": [{"taker": "N", "trump": "S", "points": {"cards": {"N": 100, "S": 70}}}],
            },
        ),
        ("match", {"rules": {"players": 5}, "first_dealer": "N", "deals": []}),
    ]
    return found


def ask_the_browser(page: Any, requests: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    return page.evaluate(
        """(requests) => Promise.all(requests.map(([command, body]) =>
             window.beloteEngine[command](body).then((r) => [r.status, r.answer])))""",
        requests,
    )


def test_the_engine_in_the_browser_answers_every_vector_as_the_server(
    page, live_server, engine_built
):
    requests = vectors()
    assert len(requests) > 600
    page.goto(live_server.url + reverse("pad:new"))
    engine_ready(page)
    answers = ask_the_browser(page, requests)
    with translation.override("en"):
        templates = engine_messages()
    for (command, body), (status, answer) in zip(requests, answers, strict=True):
        expected = run(command, json.dumps(body), templates)
        assert [status, answer] == list(expected), (command, body)
    statuses = [status for status, _answer in answers]
    # Not a vacuous comparison: both answers and refusals went through, for two and three too.
    assert statuses.count(0) > 450 and statuses.count(2) > 60
    solo = [
        s
        for (_c, b), s in zip(requests, statuses, strict=True)
        if b["rules"].get("players") in (2, 3)
    ]
    assert solo.count(0) > 40 and solo.count(2) > 20


def test_the_engines_messages_in_the_browser_are_the_pages_language(
    page, live_server, settings, engine_built, compiled_catalogues
):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "url": live_server.url}]
    )
    body = {
        "rules": {"players": 3},
        "first_dealer": "N",
        "deals": [{"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50, "S": 50}}}],
    }
    page.goto(live_server.url + reverse("pad:new"))
    engine_ready(page)
    status, answer = ask_the_browser(page, [("match", body)])[0]
    with translation.override("fr"):
        expected = run("match", json.dumps(body), engine_messages())
    assert [status, answer] == list(expected)
    assert answer == {
        "errors": {"deals.0.points.cards": ["Les points de cartes font 170 ; une donne en a 162."]}
    }
