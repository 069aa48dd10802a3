"""Validation reports every problem of an entry at once, each with its code and field path."""

import pytest

from scoring.engine import (
    Deal,
    InvalidDeal,
    Points,
    Problem,
    Seat,
    Suit,
    Team,
    codec,
    score_deal,
    validate_deal,
)

from .helpers import entry, four, seq


def problems_of(deal, rules=None):
    return [(p.code, p.path) for p in validate_deal(deal, rules)]


def test_a_valid_deal_has_no_problems():
    assert validate_deal(entry("N", "H", ns=98, belote="NS", NS=[seq(3, "K", "S")])) == []


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        ("a deal", [("not_an_object", "deal")]),
        (None, [("not_an_object", "deal")]),
        ({}, [("required", "taker"), ("points_required", "points")]),
        (
            {"taker": "X", "trump": "H", "points": {"team": "NS", "cards": 90}},
            [("unknown_seat", "taker")],
        ),
        (
            {"taker": "N", "trump": "Z", "points": {"team": "NS", "cards": 90}},
            [("unknown_suit", "trump")],
        ),
        (
            {"taker": "N", "trump": ["H"], "points": {"team": "NS", "cards": 90}},
            [("unknown_suit", "trump")],
        ),
        ({"taker": "N", "points": {"team": "NS", "cards": 90}}, [("trump_required", "trump")]),
        ({"taker": "N", "trump": "H"}, [("points_required", "points")]),
        ({"taker": "N", "trump": "H", "points": 90}, [("not_an_object", "points")]),
        ({"taker": "N", "trump": "H", "points": {"cards": 90}}, [("required", "points.team")]),
        ({"taker": "N", "trump": "H", "points": {"team": "NS"}}, [("required", "points.cards")]),
        (
            {"taker": "N", "trump": "H", "points": {"team": "N", "cards": 9}},
            [("unknown_team", "points.team")],
        ),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": "98"}},
            [("not_an_integer", "points.cards")],
        ),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98.0}},
            [("not_an_integer", "points.cards")],
        ),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": True}},
            [("not_an_integer", "points.cards")],
        ),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98, "x": 1}},
            [("unknown_field", "points.x")],
        ),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "tricks": 8},
            [("unknown_field", "tricks")],
        ),
        ({"taker": "N", "trump": "H", "capot": "XY"}, [("unknown_team", "capot")]),
        (
            {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "N"},
            [("unknown_team", "belote")],
        ),
    ],
)
def test_a_badly_shaped_entry_is_reported_at_its_path(deal, expected):
    assert problems_of(deal) == expected


@pytest.mark.parametrize("cards", [1, 161, 163, -2, 500])
def test_card_points_that_cannot_be_made_are_refused(cards):
    assert problems_of(entry(ns=cards)) == [("impossible_card_points", "points.cards")]


@pytest.mark.parametrize("cards", [0, 2, 81, 160, 162])
def test_card_points_that_can_be_made_are_accepted(cards):
    assert problems_of(entry(ew=cards)) == []


def test_points_given_with_a_capot_must_agree_with_it():
    assert problems_of(entry(capot="NS", ns=162)) == []
    assert problems_of(entry(capot="NS", ew=0)) == []
    assert problems_of(entry(capot="NS", ns=150)) == [
        ("points_disagree_with_capot", "points.cards")
    ]
    assert problems_of(entry(capot="EW", ns=162)) == [
        ("points_disagree_with_capot", "points.cards")
    ]


def test_a_thrown_in_deal_carries_nothing_else():
    deal = entry(None)
    deal.update(trump="H", points={"team": "NS", "cards": 90}, belote="NS")
    assert problems_of(deal) == [
        ("thrown_in_with_data", "trump"),
        ("thrown_in_with_data", "points"),
        ("thrown_in_with_data", "belote"),
    ]


def test_a_thrown_in_deal_is_refused_when_the_dealer_must_take():
    assert problems_of(entry(None), {"all_pass": "dealer_must_take"}) == [
        ("thrown_in_not_allowed", "taker")
    ]


@pytest.mark.parametrize(
    ("declarations", "expected"),
    [
        ({"NS": [{"type": "quint"}]}, [("unknown_declaration_type", "declarations.NS.0.type")]),
        ({"NS": [{"length": 3}]}, [("required", "declarations.NS.0.type")]),
        ({"NS": ["tierce"]}, [("not_an_object", "declarations.NS.0")]),
        ({"NS": {"type": "four"}}, [("not_a_list", "declarations.NS")]),
        ({"SN": []}, [("unknown_team", "declarations.SN")]),
        (
            {"NS": [seq(3, "K", "H"), {"type": "sequence"}]},
            [("required", "declarations.NS.1.length")],
        ),
        ({"EW": [seq("3", "K", "H")]}, [("not_an_integer", "declarations.EW.0.length")]),
        ({"EW": [seq(2, "K", "H")]}, [("sequence_length", "declarations.EW.0.length")]),
        ({"EW": [seq(9)]}, [("sequence_length", "declarations.EW.0.length")]),
        ({"EW": [seq(3, "X", "H")]}, [("unknown_rank", "declarations.EW.0.top")]),
        ({"EW": [seq(3, "K", "O")]}, [("unknown_suit", "declarations.EW.0.suit")]),
        ({"EW": [seq(3, "8", "S")]}, [("top_too_low", "declarations.EW.0.top")]),
        ({"EW": [seq(5, "T", "S")]}, [("top_too_low", "declarations.EW.0.top")]),
        (
            {"EW": [{**seq(3, "K", "S"), "points": 20}]},
            [("unknown_field", "declarations.EW.0.points")],
        ),
        ({"NS": [four("Z")]}, [("unknown_rank", "declarations.NS.0.rank")]),
        ({"NS": [{"type": "four"}]}, [("required", "declarations.NS.0.rank")]),
        ({"NS": [four("7")]}, [("four_worthless", "declarations.NS.0.rank")]),
        ({"NS": [four("8")]}, [("four_worthless", "declarations.NS.0.rank")]),
        (
            {"NS": [four("A")], "EW": [four("A")]},
            [("same_four_both_teams", "declarations.EW.0.rank")],
        ),
        ({"NS": [four("A"), four("A")]}, [("duplicate_four", "declarations.NS.1.rank")]),
    ],
)
def test_a_bad_declaration_is_reported_at_its_path(declarations, expected):
    deal = entry(ns=100)
    deal["declarations"] = declarations
    assert problems_of(deal) == expected


def test_two_sequences_of_one_team_cannot_share_a_card():
    deal = entry(ns=100, NS=[seq(3, "K", "S"), seq(4, "J", "S")])
    assert problems_of(deal) == [("overlapping_sequences", "declarations.NS.1")]
    assert "JS" in validate_deal(deal)[0].message


def test_sequences_of_opposing_teams_cannot_share_a_card():
    deal = entry(ns=100, NS=[seq(3, "K", "S")], EW=[seq(3, "A", "S")])
    assert problems_of(deal) == [("overlapping_sequences", "declarations.EW.0")]


def test_two_long_sequences_in_one_suit_overlap_even_without_their_top():
    deal = entry(ns=100, NS=[seq(5, None, "S")], EW=[seq(5, None, "S")])
    assert problems_of(deal) == [("overlapping_sequences", "declarations.EW.0")]


def test_a_sequence_cannot_use_a_card_of_the_other_teams_four():
    deal = entry(ns=100, NS=[four("K")], EW=[seq(3, "A", "D")])
    assert problems_of(deal) == [("sequence_uses_other_four", "declarations.EW.0")]


def test_a_sequence_may_use_a_card_of_its_own_teams_four():
    assert problems_of(entry(ns=100, NS=[four("K"), seq(3, "A", "D")])) == []


def test_the_other_team_cannot_declare_the_king_or_queen_of_trump_belote_holds():
    deal = entry("N", "H", ns=100, belote="NS", EW=[four("Q"), seq(3, "A", "H")])
    assert problems_of(deal) == [
        ("uses_belote_card", "declarations.EW.0"),
        ("uses_belote_card", "declarations.EW.1"),
    ]


def test_the_belote_team_may_declare_its_own_king_and_queen_of_trump():
    assert problems_of(entry("N", "H", ns=100, belote="NS", NS=[seq(3, "A", "H")])) == []


def test_a_team_cannot_show_more_than_sixteen_cards():
    deal = entry(ns=100, NS=[four("J"), four("9"), four("A"), four("T"), seq(3, "9", "S")])
    assert problems_of(deal) == [("too_many_cards", "declarations.NS")]
    assert "18" in validate_deal(deal)[0].message


def test_the_king_and_queen_of_belote_count_in_the_sixteen_cards():
    fours = [four("J"), four("9"), four("A"), four("T")]
    assert problems_of(entry("N", "H", ns=100, NS=fours)) == []
    deal = entry("N", "H", ns=100, belote="NS", NS=fours)
    assert problems_of(deal) == [("too_many_cards", "declarations.NS")]


def test_declarations_are_refused_when_the_tournament_plays_without_them():
    deal = entry(ns=100, belote="NS", NS=[seq(3, "K", "S")], EW=[four("J")])
    assert problems_of(deal, {"declarations": False}) == [
        ("declarations_off", "declarations.NS.0"),
        ("declarations_off", "declarations.EW.0"),
    ]


def test_the_top_card_is_asked_for_when_both_best_sequences_have_the_same_length():
    deal = entry(ns=100, NS=[seq(3)], EW=[seq(3, "K", "S")])
    assert problems_of(deal) == [("top_needed", "declarations.NS.0.top")]
    assert "top card" in validate_deal(deal)[0].message


def test_the_suit_is_asked_for_when_both_best_sequences_end_at_the_same_card():
    deal = entry(ns=100, NS=[seq(3, "K")], EW=[seq(3, "K", "S")])
    assert problems_of(deal) == [("suit_needed", "declarations.NS.0.suit")]


def test_top_and_suit_may_be_left_out_when_nothing_depends_on_them():
    assert problems_of(entry(ns=100, NS=[seq(4)], EW=[seq(3)])) == []
    assert problems_of(entry(ns=100, NS=[seq(3, "K")], EW=[seq(3, "A")])) == []


def test_under_highest_a_four_above_the_sequences_makes_their_tops_unneeded():
    deal = entry(ns=100, NS=[seq(5), four("K")], EW=[seq(5, "J", "H")])
    assert problems_of(deal, {"declaration_comparison": "highest"}) == []
    assert problems_of(deal) == [("top_needed", "declarations.NS.0.top")]


def test_every_problem_is_reported_at_once():
    deal = {
        "taker": "N",
        "trump": "H",
        "points": {"team": "NS", "cards": 1},
        "capot": "X",
        "declarations": {"EW": [seq(9), four("7")]},
        "extra": True,
    }
    assert problems_of(deal, {"litige": "x"}) == [
        ("bad_rule_choice", "rules.litige"),
        ("unknown_field", "extra"),
        ("unknown_team", "capot"),
        ("impossible_card_points", "points.cards"),
        ("sequence_length", "declarations.EW.0.length"),
        ("four_worthless", "declarations.EW.1.rank"),
    ]


def test_messages_quote_the_bad_value():
    [problem] = validate_deal(entry(ns=161))
    assert "161" in problem.message
    [problem] = validate_deal({"taker": "Q", "trump": "H", "points": {"team": "NS", "cards": 90}})
    assert "'Q'" in problem.message


def test_score_deal_raises_one_error_carrying_every_problem():
    with pytest.raises(InvalidDeal) as error:
        score_deal({"taker": "N", "points": {"team": "NS", "cards": 1}})
    assert isinstance(error.value, ValueError)
    assert [p.path for p in error.value.problems] == ["trump", "points.cards"]
    assert codec.errors_to_json(error.value.problems) == {
        "errors": {
            "trump": ["Name the trump suit: someone took trump."],
            "points.cards": ["Card points 1 cannot be made: use 0, 2 to 160, or 162."],
        }
    }


def test_a_typed_deal_is_validated_too():
    deal = Deal(Seat.N, Suit.H, Points(Team.NS, 161))
    assert validate_deal(deal, None) == [
        Problem("impossible_card_points", "points.cards", validate_deal(deal)[0].message)
    ]
    with pytest.raises(InvalidDeal):
        score_deal(deal)


def test_parse_deal_gives_a_typed_deal_that_writes_back_the_same_entry():
    raw = entry("N", "H", ns=98, belote="NS", NS=[seq(3, "A", "S")], EW=[four("J")])
    deal = codec.parse_deal(raw)
    assert codec.deal_to_json(deal) == raw
    assert score_deal(deal) == score_deal(raw)
    with pytest.raises(InvalidDeal):
        codec.parse_deal({"taker": 3})
