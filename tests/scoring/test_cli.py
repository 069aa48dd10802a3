"""`python -m scoring deal|match` end to end, in a subprocess, as docs/rules.md §8 describes it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import entry

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, body: object) -> tuple[int, dict]:
    text = body if isinstance(body, str) else json.dumps(body)
    done = subprocess.run(
        [sys.executable, "-m", "scoring", command],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_deal_prints_the_result_of_a_deal():
    status, answer = run("deal", {"rules": {}, "deal": entry("N", "H", ns=98, belote="NS")})
    assert status == 0
    assert answer == {
        "outcome": "made",
        "capot": None,
        "cards": {"NS": 98, "EW": 64},
        "declarations": {"NS": 0, "EW": 0},
        "belote": {"NS": 20, "EW": 0},
        "score": {"NS": 118, "EW": 64},
        "pot_in": 0,
        "pot_awarded": {"NS": 0, "EW": 0},
    }


def test_deal_uses_the_house_rules_given():
    status, answer = run("deal", {"rules": {"litige": "made"}, "deal": entry("N", "H", ns=81)})
    assert status == 0
    assert answer["score"] == {"NS": 81, "EW": 81}


def test_deal_exits_2_naming_every_bad_field():
    body = {
        "rules": {"rounding": "up"},
        "deal": {"taker": "N", "points": {"team": "NS", "cards": 1}},
    }
    status, answer = run("deal", body)
    assert status == 2
    assert set(answer["errors"]) == {"rules.rounding", "trump", "points.cards"}
    assert all(isinstance(m, str) for ms in answer["errors"].values() for m in ms)


@pytest.mark.parametrize(
    ("body", "path"),
    [("{not json", "body"), ("[]", "body"), ({"rules": {}}, "deal"), ({"deal": 3}, "deal")],
)
def test_deal_exits_2_on_a_malformed_body(body, path):
    status, answer = run("deal", body)
    assert status == 2
    assert path in answer["errors"]


def test_match_prints_the_replay():
    body = {
        "rules": {"target": 200},
        "first_dealer": "W",
        "deals": [entry("N", "H", ns=81), entry(None), entry("E", "S", ew=100)],
    }
    status, answer = run("match", body)
    assert status == 0
    assert [d["dealer"] for d in answer["deals"]] == ["W", "N", "E"]
    assert [d["pot"] for d in answer["deals"]] == [81, 81, 0]
    assert answer["totals"] == {"NS": 62, "EW": 262}
    assert (answer["over"], answer["winner"], answer["next_dealer"]) == (True, "EW", None)


def test_match_exits_2_with_prefixed_paths():
    body = {"first_dealer": "X", "deals": [entry("N", "H", ns=161)]}
    status, answer = run("match", body)
    assert status == 2
    assert set(answer["errors"]) == {"first_dealer", "deals.0.points.cards"}


def test_match_exits_2_when_required_keys_are_missing():
    status, answer = run("match", {"rules": {}})
    assert status == 2
    assert set(answer["errors"]) == {"first_dealer", "deals"}


def test_match_plays_on_past_max_deals_until_one_team_leads_when_draws_play_on():
    deals = [entry("N", "H", ns=100), entry("E", "H", ew=100), entry("S", "H", ns=90)]
    rules = {"target": None, "max_deals": 2, "draws": "play_on"}
    status, answer = run("match", {"rules": rules, "first_dealer": "N", "deals": deals[:2]})
    assert status == 0
    assert (answer["totals"], answer["over"], answer["winner"]) == (
        {"NS": 162, "EW": 162},
        False,
        None,
    )
    status, answer = run("match", {"rules": rules, "first_dealer": "N", "deals": deals})
    assert status == 0
    assert (answer["totals"], answer["winner"]) == ({"NS": 252, "EW": 234}, "NS")
    allowed = {**rules, "draws": "allowed"}
    status, answer = run("match", {"rules": allowed, "first_dealer": "N", "deals": deals})
    assert status == 2
    assert answer["errors"] == {"deals.2": ["Deal 3 (index 2) comes after the match ended."]}
