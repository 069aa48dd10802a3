"""One engine: the engine's own test vectors, run by the engine on the phone (Pyodide in the
browser's worker, static/js/engine-worker.js), give exactly what the server's engine gives.

The vectors: the four-player deals, matches and refused deals of tests/scoring/data, every
example of the rule book (docs/rules.md, two and three players among them) and a few refused
games of two and three; each is asked of the browser as the pad asks it and compared with
`python -m scoring`'s own `run` on the server, messages and paths included.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.__main__ import run
from scoring.translation import engine_messages
from tests.e2e.conftest import engine_ready, requires_chromium
from tests.scoring.test_rule_book import EXAMPLES

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "scoring" / "data" / "four_player_cases.json"


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
    assert len(requests) > 480
    page.goto(live_server.url + reverse("pad:new"))
    engine_ready(page)
    answers = ask_the_browser(page, requests)
    with translation.override("en"):
        templates = engine_messages()
    for (command, body), (status, answer) in zip(requests, answers, strict=True):
        expected = run(command, json.dumps(body), templates)
        assert [status, answer] == list(expected), (command, body)
    statuses = [status for status, _answer in answers]
    # Not a vacuous comparison: both answers and refusals went through.
    assert statuses.count(0) > 400 and statuses.count(2) > 40


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
