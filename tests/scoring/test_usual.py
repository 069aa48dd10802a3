"""The usual entry is scored in one pass; it must agree with the full reader and checks."""

import copy
import dataclasses
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Rank, Rules, Suit, Team, parse_rules, score_deal
from scoring.engine.score import checked_result
from scoring.engine.usual import usual_result

from .helpers import entry, four, real_deal, seq
from .test_properties import house_rules, json_values

randoms = st.randoms(use_true_random=False)
# Values a careless client might send where a valid one belongs.
near_misses = st.sampled_from(
    [
        *(98.0, 3.0, 0.0, True, False, 0, 3, 162, 161, "98", "3", ""),
        *("NS", "EW", "N", "H", "K", "7", "sequence", "four", None),
        *([], {}, [seq(3, "A", "S")], {"NS": []}),
    ]
)


def the_full_way(deal, rules):
    return checked_result(deal, parse_rules(rules))


@settings(max_examples=200, deadline=None)
@given(randoms, house_rules)
def test_every_deal_of_real_hands_takes_the_usual_way_to_the_same_result(rng, rules):
    deal = real_deal(rng)[0]
    parsed = parse_rules(rules)
    assert usual_result(deal, parsed) is not None
    assert usual_result(deal, parsed) == the_full_way(deal, rules)[0]


@settings(max_examples=600, deadline=None)
@given(randoms, st.data())
def test_a_garbled_entry_takes_the_usual_way_only_when_the_full_way_finds_nothing_wrong(rng, data):
    deal = real_deal(rng)[0]
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
                ("declarations", "NS", 0),
                ("declarations", "EW", 0, "length"),
                ("declarations", "EW", 0, "top"),
                ("declarations", "NS", 0, "suit"),
                ("declarations", "NS", 0, "rank"),
                ("declarations", "NS", 0, "type"),
                ("extra",),
            ]
        )
    )
    for key in path[:-1]:
        if isinstance(target, dict):
            target = target.get(key)
        elif isinstance(target, list) and len(target) > key:
            target = target[key]
        else:
            return
    if isinstance(target, dict) or (isinstance(target, list) and len(target) > path[-1]):
        target[path[-1]] = data.draw(st.one_of(near_misses, near_misses, json_values))
    rules = data.draw(
        st.sampled_from([{}, {"declarations": False}, {"all_pass": "dealer_must_take"}])
        | house_rules
    )
    usual = usual_result(deal, parse_rules(rules))
    result, problems = the_full_way(deal, rules)
    assert usual is None or (problems == [] and usual == result)


@settings(max_examples=200, deadline=None)
@given(randoms, house_rules)
def test_a_declaration_shown_by_both_teams_never_takes_the_usual_way(rng, rules):
    deal = real_deal(rng)[0]
    declared = deal["declarations"]
    if deal["taker"] is None or not (declared["NS"] or declared["EW"]):
        deal.update(taker="N", trump="S", points={"team": "NS", "cards": 90}, belote=None)
        declared["NS"].append(four("A"))
    team, other = ("NS", "EW") if declared["NS"] else ("EW", "NS")
    declared[other].append(rng.choice(declared[team]))
    assert usual_result(deal, parse_rules(rules)) is None


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_garbage_never_takes_the_usual_way_to_a_result_the_full_way_refuses(garbage):
    usual = usual_result(garbage, Rules())
    result, problems = the_full_way(garbage, {})
    assert usual is None or (problems == [] and usual == result)


@pytest.mark.parametrize(
    "unusual",
    [
        entry("N", "H", ns=98.0),
        entry("N", "H", ns=True),
        entry("N", "H", ns=98, NS=[seq(3.0, "K", "S")]),
        entry("N", "H", ns=98, NS=[seq(True, "K", "S")]),
        entry("N", "H", ns=98, NS=[seq(3, "K")]),
        entry("N", "H", ns=98, NS=[four("7")]),
        entry("N", "H", ns=98, NS=[{**seq(3, "K", "S"), "points": 20}]),
        entry("N", "H", ns=98, NS=[four("K")], EW=[seq(3, "A", "D")]),
        entry("N", "H", ns=98, belote="NS", EW=[seq(3, "A", "H")]),
        entry("N", ["H"], ns=98),
        entry("N", None, ns=98),
        entry("N", "H"),
        {**entry("N", "H", ns=98), "declarations": ""},
        {**entry("N", "H", ns=98), "tricks": 8},
        {"trump": "H", "points": {"team": "NS", "cards": 98}},
        {**entry(None), "belote": "NS"},
        {**entry(None), "declarations": {"SN": []}},
        OrderedDict(entry("N", "H", ns=98)),
    ],
)
def test_anything_unusual_takes_the_full_way(unusual):
    assert usual_result(unusual, Rules()) is None


def test_declarations_in_a_tuple_and_codes_as_enum_members_are_usual_too():
    deal = entry("N", Suit.H, ns=98, belote=Team.NS)
    deal["declarations"] = {"NS": (seq(3, Rank.KING, "S"),), "EW": None}
    assert usual_result(deal, Rules()) == score_deal(copy.deepcopy(deal), {})


def test_a_thrown_in_deal_is_usual_unless_the_dealer_must_take():
    assert usual_result(entry(None), Rules()) is not None
    assert usual_result(entry(None), parse_rules({"all_pass": "dealer_must_take"})) is None


def test_a_deal_result_stays_as_it_was_written():
    result = score_deal(entry("N", "H", ns=98))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.pot_in = 5  # type: ignore[misc]
    assert dataclasses.replace(result) == result
