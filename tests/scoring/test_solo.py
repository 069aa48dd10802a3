"""Two or three players, each for themselves (docs/rules.md §10): every rule with its numbers."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import InvalidDeal, InvalidMatch, Outcome, Seat, codec, score_deal
from scoring.engine.rules import parse_rules
from scoring.engine.solo import dedans_shares, seats_in_game
from scoring.engine.solo_game import play_solo_game, score_solo_deal

from .helpers import four, seq

N, E, S = Seat.N, Seat.E, Seat.S
THREE = {"players": 3}
TWO = {"players": 2}


def deal(
    taker: str | None = "N",
    trump: str | None = "H",
    cards: dict[str, int] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    entry: dict[str, Any] = {"taker": taker, "trump": trump if taker else None}
    if cards is not None:
        entry["points"] = {"cards": cards}
    entry.update(fields)
    return entry


def scores(entry: dict[str, Any], rules: dict[str, Any] = THREE) -> dict[str, int]:
    return codec.solo_result_to_json(score_solo_deal(entry, rules))["score"]


def errors(entry: dict[str, Any], rules: dict[str, Any] = THREE) -> dict[str, list[str]]:
    with pytest.raises(InvalidDeal) as caught:
        score_solo_deal(entry, rules)
    return codec.errors_to_json(caught.value.problems)["errors"]


# Seats and dealing order


def test_three_players_sit_north_east_south_and_two_north_south():
    assert seats_in_game(parse_rules(THREE)) == (N, E, S)
    assert seats_in_game(parse_rules(TWO)) == (N, S)


def test_three_players_deal_north_east_south_and_counterclockwise_north_south_east():
    replay = play_solo_game(THREE, "N", [deal(None)] * 4)
    assert [p.dealer for p in replay.deals] == [N, E, S, N]
    replay = play_solo_game({**THREE, "direction": "counterclockwise"}, "N", [deal(None)] * 4)
    assert [p.dealer for p in replay.deals] == [N, S, E, N]


def test_two_players_deal_in_turn():
    replay = play_solo_game(TWO, "S", [deal(None)] * 3)
    assert [p.dealer for p in replay.deals] == [S, N, S]


# Card points


def test_the_player_left_out_has_162_minus_the_others():
    result = score_solo_deal(deal(cards={"N": 70, "E": 50}), THREE)
    assert result.cards == {N: 70, E: 50, S: 42}


def test_every_player_may_be_given_when_they_add_up_to_162():
    assert scores(deal(cards={"N": 70, "E": 50, "S": 42})) == {"N": 70, "E": 50, "S": 42}


def test_card_points_that_do_not_add_up_to_162_are_refused():
    assert errors(deal(cards={"N": 70, "E": 50, "S": 50})) == {
        "points.cards": ["The card points add up to 170; a deal has 162."]
    }
    assert errors(deal(cards={"N": 100, "E": 70})) == {
        "points.cards": ["The card points add up to 170; a deal has 162."]
    }


def test_two_players_left_out_of_three_is_refused():
    assert errors(deal(cards={"N": 70})) == {
        "points.cards": ["Enter the card points of every player but one (E, S)."]
    }


def test_nobody_makes_1_or_161_card_points():
    assert errors(deal(cards={"N": 1, "E": 100})) == {
        "points.cards.N": ["Card points 1 cannot be made: use 0, 2 to 160, or 162."]
    }
    assert "left over" not in str(errors(deal(cards={"N": 100, "E": 61})))
    assert errors(deal(cards={"N": 100, "E": 61})) == {
        "points.cards": [
            "That leaves 1 card points for S, which cannot be made: use 0, 2 to 160, or 162."
        ]
    }


def test_a_seat_not_in_the_game_is_refused_by_name():
    assert errors(deal("W", cards={"N": 70, "E": 50})) == {
        "taker": ["Seat 'W' is not in this game of 3 players: use N, E, S."]
    }
    assert errors(deal(cards={"N": 70, "E": 50}), TWO) == {
        "points.cards.E": ["Seat 'E' is not in this game of 2 players: use N, S."]
    }


def test_five_players_are_refused_naming_the_rule():
    with pytest.raises(InvalidDeal) as caught:
        codec.deal_answer({"players": 5}, deal(cards={"N": 70, "E": 50}))
    assert codec.errors_to_json(caught.value.problems)["errors"] == {
        "rules.players": ["5 is out of range: use a whole number from 2 to 4."]
    }


def test_the_four_player_scorer_refuses_a_game_of_three():
    with pytest.raises(InvalidDeal) as caught:
        score_deal(deal(cards={"N": 70}), THREE)
    assert caught.value.problems[0].path == "rules.players"


# Made or dedans


def test_made_when_the_taker_beats_each_other_player():
    # §9's first example: N 70 + belote 20 = 90 > 50 and > 42.
    assert scores(deal(cards={"N": 70, "E": 50}, belote="N")) == {"N": 90, "E": 50, "S": 42}


def test_dedans_when_another_player_has_as_many_or_more():
    # §9's second example: N 60 is not more than E 72; N's 60 shared, 30 each.
    assert scores(deal(cards={"N": 60, "E": 72, "S": 30})) == {"N": 0, "E": 102, "S": 60}
    assert scores(deal(cards={"N": 60, "E": 60, "S": 42})) == {"N": 0, "E": 90, "S": 72}


def test_declarations_count_toward_beating_each_player():
    # §9's third example: N 61 + tierce 20 = 81 > 72.
    entry = deal(cards={"N": 61, "E": 72}, declarations={"N": [seq(3, "K", "S")]})
    assert scores(entry) == {"N": 81, "E": 72, "S": 29}


def test_the_remainder_goes_to_the_player_after_the_taker():
    assert scores(deal(cards={"N": 61, "E": 72})) == {"N": 0, "E": 103, "S": 59}
    counter = {**THREE, "direction": "counterclockwise"}
    assert scores(deal(cards={"N": 61, "E": 72}), counter) == {"N": 0, "E": 102, "S": 60}
    assert dedans_shares(S, 61, parse_rules(THREE)) == {N: 31, E: 30}


def test_dedans_shares_the_takers_declarations_and_keeps_their_belote():
    entry = deal(cards={"N": 40, "E": 80}, declarations={"N": [seq(3, "A", "C")]}, belote="N")
    # N 40 + 20 + 20 = 80, not more than E's 80: N keeps belote, 40 + 20 shared.
    assert scores(entry) == {"N": 20, "E": 110, "S": 72}


def test_two_players_dedans_gives_the_other_everything():
    assert scores(deal("S", "C", {"S": 90}, belote="N"), TWO) == {"N": 182, "S": 0}


def test_there_is_no_litige_with_three():
    result = score_solo_deal(deal(cards={"N": 81, "E": 81}), THREE)
    assert result.outcome is Outcome.DEDANS


# Declarations each for themselves


def test_only_the_holder_of_the_best_sequence_scores_sequences():
    entry = deal(
        cards={"N": 60, "E": 52},
        declarations={"N": [seq(3, "K", "S")], "E": [seq(4, "J", "C")], "S": [seq(3, "A", "D")]},
    )
    assert score_solo_deal(entry, THREE).declarations == {N: 0, E: 50, S: 0}


def test_equal_best_plain_sequences_score_nothing_but_fours_still_do():
    entry = deal(
        "S",
        "D",
        {"N": 40, "E": 52},
        declarations={"N": [seq(3, "A", "C")], "E": [seq(3, "A", "H")], "S": [four("T")]},
    )
    assert score_solo_deal(entry, THREE).declarations == {N: 0, E: 0, S: 100}
    assert scores(entry) == {"N": 40, "E": 52, "S": 170}


def test_a_trump_sequence_beats_an_equal_plain_one():
    entry = deal(
        cards={"N": 60, "E": 52}, declarations={"N": [seq(3, "A", "C")], "E": [seq(3, "A", "H")]}
    )
    assert score_solo_deal(entry, THREE).declarations == {N: 0, E: 20, S: 0}


def test_highest_gives_everything_to_the_single_best_declaration():
    entry = deal(
        cards={"N": 60, "E": 52},
        # East's quinte to the jack: no king, which North's four holds.
        declarations={"N": [four("K"), seq(3, "A", "C")], "E": [seq(5, "J", "S")]},
    )
    assert score_solo_deal(entry, {**THREE, "declaration_comparison": "highest"}).declarations == {
        N: 120,
        E: 0,
        S: 0,
    }
    assert score_solo_deal(entry, THREE).declarations == {N: 100, E: 100, S: 0}


def test_two_players_cannot_both_hold_four_kings():
    entry = deal(cards={"N": 60, "E": 52}, declarations={"N": [four("K")], "E": [four("K")]})
    assert errors(entry) == {"declarations.E.0.rank": ["Two players cannot both hold four Ks."]}


def test_tied_sequences_without_their_top_are_asked_for_it():
    entry = deal(cards={"N": 60, "E": 52}, declarations={"N": [seq(3)], "E": [seq(3)]})
    message = "Two players hold a best sequence of 3 cards: give the top card of this one."
    assert errors(entry) == {"declarations.N.0.top": [message], "declarations.E.0.top": [message]}


def test_a_seats_sequence_cannot_use_a_card_of_another_players_four():
    # North's K-Q-J of spades and East's four jacks both want the jack of spades.
    entry = deal(
        cards={"N": 60, "E": 52},
        declarations={"N": [seq(3, "K", "S")], "E": [four("J")]},
    )
    assert errors(entry) == {
        "declarations.N.0": ["This sequence uses JS, part of another player's four Js."]
    }


def test_declarations_off_refuses_them():
    entry = deal(cards={"N": 60, "E": 52}, declarations={"N": [seq(3, "K", "S")]})
    assert list(errors(entry, {**THREE, "declarations": False})) == ["declarations.N.0"]


# Capot


def test_a_capot_by_the_taker_writes_its_value_declarations_and_belote():
    entry = deal(
        "E",
        "S",
        capot="E",
        belote="S",
        declarations={"E": [seq(4, "A", "C")], "N": [seq(3, "Q", "H")]},
    )
    result = score_solo_deal(entry, THREE)
    assert result.outcome is Outcome.MADE
    assert codec.solo_result_to_json(result)["score"] == {"N": 0, "E": 302, "S": 20}


def test_a_capot_by_another_player_is_dedans_with_nothing_to_share():
    entry = deal("E", "S", capot="N", belote="E", declarations={"N": [four("A")]})
    result = score_solo_deal(entry, THREE)
    assert result.outcome is Outcome.DEDANS
    assert codec.solo_result_to_json(result)["score"] == {"N": 352, "E": 20, "S": 0}


def test_capot_value_is_the_house_rules():
    entry = deal("N", "S", capot="N")
    assert scores(entry, {**THREE, "capot_value": 250}) == {"N": 250, "E": 0, "S": 0}


def test_points_given_with_a_capot_must_agree():
    assert errors(deal("N", "S", {"N": 100}, capot="N")) == {
        "points.cards.N": ["With a capot by N, N has 162 card points, not 100."]
    }


# Rounding


def test_rounding_applies_to_each_players_points():
    rounded = {**THREE, "rounding": "nearest_ten"}
    assert scores(deal(cards={"N": 61, "E": 72}), rounded) == {"N": 0, "E": 100, "S": 60}
    assert scores(deal(cards={"N": 76, "E": 44}), rounded) == {"N": 80, "E": 40, "S": 40}


# The game


def test_the_game_ends_when_a_total_reaches_the_target_and_the_highest_wins():
    deals = [
        deal("S", "C", {"S": 130}),
        deal(None),
        deal("S", "H", {"N": 100}),
        deal("N", "D", {"N": 140}),
    ]
    replay = play_solo_game({**TWO, "target": 300}, "N", deals)
    assert replay.over and replay.winner is N
    assert replay.totals == {N: 334, S: 152}


def test_equal_highest_totals_play_on():
    deals = [
        deal("E", "C", {"N": 50, "E": 70}),
        deal("N", "S", {"N": 70, "E": 50}),
        deal("S", "H", {"N": 40, "E": 40}),
    ]
    rules = {**THREE, "max_deals": 2}
    after_two = play_solo_game(rules, "N", deals[:2])
    assert not after_two.over and after_two.totals == {N: 120, E: 120, S: 84}
    replay = play_solo_game(rules, "N", deals)
    assert replay.over and replay.winner is S


def test_no_deal_after_the_game_ended():
    deals = [deal("N", "C", {"N": 162, "E": 0})] * 2
    with pytest.raises(InvalidMatch) as caught:
        play_solo_game({**THREE, "target": 100}, "N", deals)
    assert [p.path for p in caught.value.problems] == ["deals.1"]


def test_a_first_dealer_not_in_the_game_is_refused():
    with pytest.raises(InvalidMatch) as caught:
        play_solo_game(TWO, "E", [])
    assert caught.value.problems[0].path == "first_dealer"


def test_the_match_answer_names_a_bad_deal_by_its_index():
    with pytest.raises(InvalidMatch) as caught:
        codec.match_answer(THREE, "N", [deal(cards={"N": 70, "E": 50}), deal("W", cards={"N": 1})])
    assert {p.path for p in caught.value.problems} == {"deals.1.taker", "deals.1.points.cards.N"}


# Properties


def card_split(draw: Any, players: int) -> list[int]:
    """Card points of each player adding up to 162, none of them 1 or 161."""
    while True:
        cuts = sorted(draw(st.integers(0, 162)) for _ in range(players - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, 162], strict=True)]
        if all(p not in (1, 161) for p in parts):
            return parts


@st.composite
def solo_deals(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    players = draw(st.sampled_from([2, 3]))
    rules = {
        "players": players,
        "declaration_comparison": draw(st.sampled_from(["per_category", "highest"])),
        "direction": draw(st.sampled_from(["clockwise", "counterclockwise"])),
    }
    seats = ["N", "E", "S"] if players == 3 else ["N", "S"]
    taker = draw(st.sampled_from(seats))
    belote = draw(st.sampled_from([None, *seats]))
    capot = draw(st.sampled_from([None] * 3 + seats))
    # Declarations that need no card twice: each player a sequence in their own suit.
    suits = dict(zip(seats, ["C", "D", "S"], strict=False))
    declarations = {
        seat: [seq(draw(st.integers(3, 5)), "A", suits[seat])]
        for seat in seats
        if draw(st.booleans())
    }
    entry = deal(taker, "H", declarations=declarations, belote=belote)
    if capot is None:
        entry["points"] = {"cards": dict(zip(seats, card_split(draw, players), strict=True))}
    else:
        entry["capot"] = capot
    return entry, rules


@settings(max_examples=200, deadline=None)
@given(solo_deals())
def test_points_are_conserved(drawn):
    entry, rules = drawn
    result = score_solo_deal(entry, rules)
    value = 252 if result.capot else 162
    assert sum(result.score.values()) == (
        value + sum(result.declarations.values()) + sum(result.belote.values())
    )


@settings(max_examples=200, deadline=None)
@given(solo_deals())
def test_the_taker_scores_only_belote_or_beats_everyone(drawn):
    entry, rules = drawn
    result = score_solo_deal(entry, rules)
    taker = result.taker
    assert taker is not None
    if result.outcome is Outcome.MADE:
        assert all(result.score[taker] > p for s, p in result.score.items() if s is not taker)
    else:
        assert result.score[taker] == result.belote[taker]


@settings(max_examples=200, deadline=None)
@given(solo_deals())
def test_leaving_one_players_card_points_out_changes_nothing(drawn):
    entry, rules = drawn
    if "points" not in entry:
        return
    shorter = {**entry, "points": {"cards": dict(list(entry["points"]["cards"].items())[1:])}}
    assert score_solo_deal(shorter, rules) == score_solo_deal(entry, rules)
