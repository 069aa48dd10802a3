"""Properties over deals dealt from real shuffled hands, and over garbage entries."""

import copy
import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    InvalidDeal,
    Outcome,
    Team,
    codec,
    play_match,
    score_deal,
    validate_deal,
)
from scoring.engine.checks import four_problems, hand_size_problems, overlap_problems, plainly_sound

from .helpers import four, moved_one_seat, real_deal, swapped

NS, EW = Team.NS, Team.EW
randoms = st.randoms(use_true_random=False)
house_rules = st.fixed_dictionaries(
    {
        "declaration_comparison": st.sampled_from(["per_category", "highest"]),
        "litige": st.sampled_from(["carry", "made", "dedans"]),
        "capot_value": st.sampled_from([252, 250, 262]),
    }
)
few = settings(max_examples=150, deadline=None)


def dealt(rng: random.Random):
    return real_deal(rng)[0]


def deal_value(result, rules) -> int:
    if result.outcome is Outcome.THROWN_IN:
        return 0
    return rules.get("capot_value", 252) if result.capot else 162


@few
@given(randoms, house_rules)
def test_every_deal_of_real_hands_is_valid(rng, rules):
    assert validate_deal(dealt(rng), rules) == []


@few
@given(randoms, house_rules)
def test_written_points_and_pot_add_up_to_the_deal_and_its_declarations(rng, rules):
    result = score_deal(dealt(rng), rules)
    written = sum(result.score.values()) + result.pot_in - sum(result.pot_awarded.values())
    scored = sum(result.declarations.values()) + sum(result.belote.values())
    assert written == deal_value(result, rules) + scored


@few
@given(randoms, house_rules)
def test_moving_every_player_one_seat_on_mirrors_the_result(rng, rules):
    deal = dealt(rng)
    result = codec.result_to_json(score_deal(deal, rules))
    moved = codec.result_to_json(score_deal(moved_one_seat(deal), rules))
    assert moved["outcome"] == result["outcome"]
    assert moved["capot"] == {"NS": "EW", "EW": "NS", None: None}[result["capot"]]
    assert moved["pot_in"] == result["pot_in"]
    for name in ("cards", "declarations", "belote", "score", "pot_awarded"):
        assert moved[name] == swapped(result[name])


@few
@given(randoms, house_rules)
def test_the_order_of_declarations_changes_nothing(rng, rules):
    deal = dealt(rng)
    shuffled = copy.deepcopy(deal)
    for items in shuffled["declarations"].values():
        rng.shuffle(items)
    assert score_deal(shuffled, rules) == score_deal(deal, rules)


@few
@given(randoms)
def test_rounding_never_changes_the_outcome(rng):
    deal = dealt(rng)
    rounded = score_deal(deal, {"rounding": "nearest_ten"})
    assert rounded.outcome is score_deal(deal).outcome
    assert all(points % 10 == 0 for points in rounded.score.values())


@few
@given(randoms)
def test_a_typed_deal_scores_like_its_entry(rng):
    deal = dealt(rng)
    typed = codec.parse_deal(deal)
    assert score_deal(typed) == score_deal(deal)
    assert codec.parse_deal(codec.deal_to_json(typed)) == typed


@few
@given(randoms)
def test_a_declaration_shown_by_both_teams_is_always_refused(rng):
    deal = dealt(rng)
    declarations = deal["declarations"]
    team, other = ("NS", "EW") if declarations["NS"] else ("EW", "NS")
    if not declarations[team]:
        declarations[team] = [four("A")]
    declarations[other].append(rng.choice(declarations[team]))
    if deal["taker"] is None:
        deal.update(taker="N", trump="S", points={"team": "NS", "cards": 90})
    problems = validate_deal(deal)
    assert problems
    assert all(p.path.startswith("declarations.") for p in problems)


@few
@given(randoms)
def test_the_king_and_queen_of_trump_of_belote_are_refused_to_the_other_team(rng):
    deal = dealt(rng)
    if deal["taker"] is None:
        deal.update(taker="N", trump="S", points={"team": "NS", "cards": 90})
    deal["belote"] = belote = rng.choice(["NS", "EW"])
    other = "EW" if belote == "NS" else "NS"
    deal["declarations"][other].append(four(rng.choice("KQ")))
    assert validate_deal(deal)


@settings(max_examples=60, deadline=None)
@given(st.lists(randoms, min_size=1, max_size=20), house_rules)
def test_a_match_of_real_deals_adds_up_to_its_deals(rngs, rules):
    rules = {**rules, "target": None, "max_deals": 1000}
    deals = [dealt(rng) for rng in rngs]
    replay = play_match(rules, "N", deals)
    value = sum(
        deal_value(d.result, rules)
        + sum(d.result.declarations.values())
        + sum(d.result.belote.values())
        for d in replay.deals
    )
    assert sum(replay.totals.values()) + replay.pot == value
    assert replay.deals_played == sum(d["taker"] is not None for d in deals)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-300, 300)
    | st.floats()
    | st.text(max_size=4)
    | st.sampled_from(["N", "E", "NS", "EW", "H", "K", "sequence", "four", "7"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                ["taker", "trump", "points", "team", "cards", "type", "rank", "NS", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def assert_reported_or_scored(deal, rules=None):
    problems = validate_deal(deal, rules)
    assert all(p.path and p.code and p.message for p in problems)
    try:
        score_deal(deal, rules)
    except InvalidDeal as error:
        assert error.problems
        assert list(error.problems) == problems
    else:
        assert problems == []
    return problems


@settings(max_examples=200, deadline=None)
@given(json_values, st.one_of(st.none(), json_values))
def test_garbage_is_reported_with_a_path_and_nothing_else_escapes(deal, rules):
    assert_reported_or_scored(deal, rules)


@settings(max_examples=200, deadline=None)
@given(randoms, st.data())
def test_a_real_deal_with_one_field_garbled_is_reported_or_still_valid(rng, data):
    deal = dealt(rng)
    target = deal
    path = data.draw(
        st.sampled_from(
            [
                ("taker",),
                ("trump",),
                ("points",),
                ("points", "cards"),
                ("points", "team"),
                ("capot",),
                ("belote",),
                ("declarations",),
                ("declarations", "NS"),
                ("declarations", "EW"),
            ]
        )
    )
    for key in path[:-1]:
        target = target.get(key) or {}
        if not isinstance(target, dict):
            return
    target[path[-1]] = data.draw(json_values)
    assert_reported_or_scored(deal)


@settings(max_examples=200, deadline=None)
@given(randoms, st.data())
def test_a_real_deal_made_invalid_is_always_reported(rng, data):
    deal = dealt(rng)
    if deal["taker"] is None:
        deal.update(taker="N", trump="S", points={"team": "NS", "cards": 90})
    breakage = data.draw(st.sampled_from(["cards", "seat", "extra", "length", "no_trump", "four"]))
    if breakage == "cards":
        deal["points"] = {
            "team": "NS",
            "cards": data.draw(st.sampled_from([1, 161, -2, 163, "80"])),
        }
        deal["capot"] = None
    elif breakage == "seat":
        deal["taker"] = data.draw(st.sampled_from(["X", "n", 1, ["N"]]))
    elif breakage == "extra":
        deal["tricks"] = 8
    elif breakage == "length":
        deal["declarations"]["EW"].append({"type": "sequence", "length": 9})
    elif breakage == "no_trump":
        deal["trump"] = None
    else:
        deal["declarations"]["NS"].append(four(data.draw(st.sampled_from(["7", "8", "Z"]))))
    assert assert_reported_or_scored(deal)


@few
@given(randoms)
def test_the_fast_check_agrees_with_the_detailed_checks(rng):
    deal = codec.parse_deal(dealt(rng))
    placed = [
        (team, i, d) for team in (NS, EW) for i, d in enumerate(deal.declarations.get(team, ()))
    ]
    declared = deal.declarations
    assert plainly_sound(declared.get(NS, ()), declared.get(EW, ()), deal.belote, deal.trump)
    assert overlap_problems(placed) == []
    assert hand_size_problems(placed, deal) == []
    assert four_problems(placed) == []


# Four players score exactly as before the `players` rule: cases scored by the engine at commit
# d329f64, before the games of two and three (tests/scoring/make_four_player_cases.py wrote
# them with that engine; comparing today's engine with itself would guard nothing).
FOUR_PLAYER_CASES = json.loads(
    (Path(__file__).parent / "data" / "four_player_cases.json").read_text(encoding="utf-8")
)


def _both_ways(rules):
    """The rules as written before, and with the four players said outright."""
    return [("players left out", rules), ("players: 4", {**rules, "players": 4})]


def test_four_player_deals_score_as_before_the_players_rule():
    wrong = []
    for i, case in enumerate(FOUR_PLAYER_CASES["deals"]):
        for how, rules in _both_ways(case["rules"]):
            answer = codec.deal_answer(rules, copy.deepcopy(case["deal"]))
            if answer != case["result"]:
                wrong.append((i, how, case["deal"], case["result"], answer))
        if codec.result_to_json(score_deal(case["deal"], case["rules"])) != case["result"]:
            wrong.append((i, "score_deal", case["deal"], case["result"], None))
    assert not wrong, wrong[:3]


def test_four_player_matches_replay_as_before_the_players_rule():
    wrong = []
    for i, case in enumerate(FOUR_PLAYER_CASES["matches"]):
        for how, rules in _both_ways(case["rules"]):
            answer = codec.match_answer(rules, case["first_dealer"], copy.deepcopy(case["deals"]))
            if answer != case["result"]:
                wrong.append((i, how, case["rules"], case["result"], answer))
    assert not wrong, wrong[:2]


def test_four_player_deals_refused_before_are_refused_on_the_same_fields():
    wrong = []
    for i, case in enumerate(FOUR_PLAYER_CASES["invalid"]):
        for how, rules in _both_ways(case["rules"]):
            try:
                codec.deal_answer(rules, copy.deepcopy(case["deal"]))
            except InvalidDeal as error:
                paths = sorted({p.path for p in error.problems})
                if paths != case["error_paths"]:
                    wrong.append((i, how, case["deal"], case["error_paths"], paths))
            else:
                wrong.append((i, how, case["deal"], case["error_paths"], "scored"))
    assert not wrong, wrong[:3]


def test_the_four_player_cases_cover_the_game():
    """A regenerated fixture still reaches every outcome, declaration and house rule."""
    deals = FOUR_PLAYER_CASES["deals"]
    results = [c["result"] for c in deals]
    assert FOUR_PLAYER_CASES["engine"] == "d329f64"
    assert len(deals) >= 400 and len(FOUR_PLAYER_CASES["matches"]) >= 30
    assert {r["outcome"] for r in results} == {"made", "dedans", "litige", "thrown_in"}
    assert sum(1 for r in results if r["capot"]) >= 20
    assert sum(1 for r in results if any(r["belote"].values())) >= 20
    assert sum(1 for r in results if r["pot_in"]) >= 10
    declared = [
        d for c in deals for team in (c["deal"].get("declarations") or {}).values() for d in team
    ]
    assert {d["type"] for d in declared} == {"sequence", "four"}
    assert {d["length"] for d in declared if d["type"] == "sequence"} == set(range(3, 9))
    rules = {(k, json.dumps(v)) for c in deals for k, v in c["rules"].items()}
    for name, value in [
        ("declarations", False),
        ("declaration_comparison", "highest"),
        ("litige", "made"),
        ("litige", "dedans"),
        ("rounding", "nearest_ten"),
        ("capot_value", 500),
    ]:
        assert (name, json.dumps(value)) in rules, name
    matches = FOUR_PLAYER_CASES["matches"]
    assert {m["result"]["winner"] for m in matches} >= {"NS", "EW", "draw"}
    assert any(m["rules"].get("direction") == "counterclockwise" for m in matches)
    assert any(m["rules"].get("draws") == "play_on" for m in matches)
    assert any(
        sum(d["result"]["pot_awarded"].values()) for m in matches for d in m["result"]["deals"]
    )
