"""House rule `draws` (docs/rules.md §7): a level match is a draw, or extra deals are played until one team leads."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Draws, InvalidDeal, InvalidMatch, Seat, Team, parse_rules, play_match

from .helpers import entry, moved_one_seat, real_deal, seq

NS, EW = Team.NS, Team.EW
THROWN_IN = entry(None)
PLAY_ON = {"target": None, "max_deals": 4, "draws": "play_on"}
# 252–0, 252–252, 400–266, 414–414: level when max_deals 4 ends the match.
LEVEL_AFTER_FOUR = [
    entry("N", "H", capot="NS"),
    entry("E", "H", capot="EW"),
    entry("N", "H", ns=148),
    entry("E", "H", ew=148),
]
# Three capots each (756–756), 876–798, 898–958, then 1009–1009: both pass 1000 in deal 9.
BOTH_PAST_1000_LEVEL = [
    *[entry("N", "H", capot="NS"), entry("E", "H", capot="EW")] * 3,
    entry("N", "H", ns=120),
    entry("E", "H", ew=140, belote="EW"),
    entry("N", "H", ns=111),
]


def totals(replay):
    return (replay.totals[NS], replay.totals[EW])


def test_draws_is_allowed_by_default_and_reads_back():
    assert parse_rules({}).draws is Draws.ALLOWED
    rules = parse_rules({"draws": "play_on"})
    assert rules.draws is Draws.PLAY_ON
    assert rules.to_json()["draws"] == "play_on"
    assert parse_rules(rules.to_json()) == rules


def test_an_unknown_draws_choice_is_refused_naming_the_choices():
    with pytest.raises(InvalidDeal) as error:
        parse_rules({"draws": "replay"})
    [problem] = error.value.problems
    assert (problem.code, problem.path) == ("bad_rule_choice", "rules.draws")
    assert problem.message == "'replay' is not a choice for this house rule: use allowed, play_on."


def test_max_deals_ending_414_to_414_is_a_draw_when_draws_are_allowed():
    replay = play_match({**PLAY_ON, "draws": "allowed"}, "N", LEVEL_AFTER_FOUR)
    assert totals(replay) == (414, 414)
    assert (replay.over, replay.winner) == (True, "draw")
    with pytest.raises(InvalidMatch) as error:
        play_match(
            {**PLAY_ON, "draws": "allowed"}, "N", [*LEVEL_AFTER_FOUR, entry("N", "H", ns=90)]
        )
    assert [p.code for p in error.value.problems] == ["deal_after_end"]


def test_max_deals_ending_414_to_414_plays_a_fifth_deal_that_decides():
    replay = play_match(PLAY_ON, "N", LEVEL_AFTER_FOUR)
    assert totals(replay) == (414, 414)
    assert (replay.over, replay.winner) == (False, None)
    assert replay.next_dealer is Seat.N
    replay = play_match(PLAY_ON, "N", [*LEVEL_AFTER_FOUR, entry("E", "S", ew=90)])
    assert totals(replay) == (414 + 72, 414 + 90)
    assert (replay.over, replay.winner, replay.deals_played) == (True, EW, 5)


def test_a_thrown_in_extra_deal_decides_nothing():
    deals = [*LEVEL_AFTER_FOUR, THROWN_IN]
    replay = play_match(PLAY_ON, "N", deals)
    assert (replay.over, replay.deals_played, replay.next_dealer) == (False, 4, Seat.E)
    replay = play_match(PLAY_ON, "N", [*deals, entry("S", "D", ns=100)])
    assert totals(replay) == (514, 476)
    assert (replay.over, replay.winner) == (True, NS)


def test_a_litige_in_an_extra_deal_keeps_the_match_level_until_the_pot_is_won():
    deals = [*LEVEL_AFTER_FOUR, entry("N", "H", ns=81)]
    replay = play_match(PLAY_ON, "N", deals)
    # The defenders write 81 and the taker's 81 wait in the pot: nobody leads yet.
    assert (totals(replay), replay.pot) == ((414, 495), 81)
    assert (replay.over, replay.winner) == (False, None)
    # EW take and go dedans: NS write 162 and win the pot.
    replay = play_match(PLAY_ON, "N", [*deals, entry("E", "H", ew=60)])
    assert replay.deals[-1].result.pot_awarded == {NS: 81, EW: 0}
    assert totals(replay) == (414 + 162 + 81, 495 + 0)
    assert (replay.over, replay.winner) == (True, NS)


def test_a_litige_in_an_extra_deal_does_not_end_the_match_even_past_the_target():
    rules = {**PLAY_ON, "target": 480}
    replay = play_match(rules, "N", [*LEVEL_AFTER_FOUR, entry("N", "H", ns=81)])
    assert totals(replay) == (414, 495)
    assert not replay.over


def test_a_pot_open_when_max_deals_ends_level_goes_into_the_extra_deals():
    # 33–129, then EW's litige with belote and a fifty: EW 20, NS 116, 96 in the pot: 149–149.
    deals = [entry("E", "H", ew=129), entry("E", "H", ew=46, belote="EW", EW=[seq(4, "A", "S")])]
    rules = {**PLAY_ON, "max_deals": 2}
    allowed = play_match({**rules, "draws": "allowed"}, "N", deals)
    assert (totals(allowed), allowed.pot, allowed.winner) == ((149, 149), 96, "draw")
    replay = play_match(rules, "N", [*deals, entry("S", "C", ns=100)])
    assert replay.deals[-1].result.pot_awarded == {NS: 96, EW: 0}
    assert (totals(replay), replay.pot) == ((149 + 100 + 96, 149 + 62), 0)
    assert (replay.over, replay.winner) == (True, NS)


def test_an_extra_deal_that_leaves_the_totals_level_plays_on():
    rules = {**PLAY_ON, "rounding": "nearest_ten"}
    replay = play_match(rules, "N", LEVEL_AFTER_FOUR)
    assert totals(replay) == (410, 410)
    # Made 82 to 80, written 80 to 80 once rounded: still level.
    deals = [*LEVEL_AFTER_FOUR, entry("N", "H", ns=82)]
    replay = play_match(rules, "N", deals)
    assert (totals(replay), replay.over) == ((490, 490), False)
    replay = play_match(rules, "N", [*deals, entry("S", "H", ns=100)])
    assert (totals(replay), replay.winner) == ((590, 550), NS)


def test_both_past_1000_level_play_on_whatever_draws_says():
    for draws in ("allowed", "play_on"):
        replay = play_match({"draws": draws}, "N", BOTH_PAST_1000_LEVEL)
        assert totals(replay) == (1009, 1009)
        assert (replay.over, replay.winner) == (False, None)


def test_both_past_1000_level_then_a_litige_decides_only_when_draws_are_allowed():
    deals = [*BOTH_PAST_1000_LEVEL, entry("E", "H", ew=81)]
    allowed = play_match({"draws": "allowed"}, "N", deals)
    assert (totals(allowed), allowed.winner) == ((1090, 1009), NS)
    playing_on = play_match({"draws": "play_on"}, "N", deals)
    assert (totals(playing_on), playing_on.pot, playing_on.over) == ((1090, 1009), 81, False)
    playing_on = play_match({"draws": "play_on"}, "N", [*deals, entry("N", "H", ns=70)])
    assert (totals(playing_on), playing_on.winner) == ((1090 + 0, 1009 + 162 + 81), EW)


def test_both_past_1000_level_at_max_deals_is_a_draw_only_when_draws_are_allowed():
    allowed = play_match({"max_deals": 9}, "N", BOTH_PAST_1000_LEVEL)
    assert (allowed.over, allowed.winner) == (True, "draw")
    rules = {"max_deals": 9, "draws": "play_on"}
    replay = play_match(rules, "N", [*BOTH_PAST_1000_LEVEL, entry("W", "C", ew=100)])
    assert (totals(replay), replay.winner) == ((1071, 1109), EW)


def test_under_taker_the_taker_wins_both_past_the_target_so_there_is_no_tie():
    replay = play_match(
        {"both_reach_target": "taker", "draws": "play_on"}, "N", BOTH_PAST_1000_LEVEL
    )
    assert totals(replay) == (1009, 1009)
    assert (replay.over, replay.winner) == (True, NS)


def test_the_match_can_still_end_before_max_deals_at_the_target():
    rules = {"target": 300, "max_deals": 4, "draws": "play_on"}
    replay = play_match(rules, "N", LEVEL_AFTER_FOUR[:3])
    assert (totals(replay), replay.winner) == ((400, 266), NS)


def replay_until_over(rules, deals):
    """The replay of `deals`, stopped at the deal that ends the match."""
    try:
        return play_match(rules, "N", deals)
    except InvalidMatch as error:
        [after_end] = error.problems
        assert after_end.code == "deal_after_end"
        return play_match(rules, "N", deals[: int(after_end.path.removeprefix("deals."))])


def deals_often_level(rngs):
    """Real deals, each followed now and then by its mirror, so that matches are often level."""
    deals = []
    for rng in rngs:
        deal = real_deal(rng)[0]
        deals.append(deal)
        if rng.random() < 0.6:
            deals.append(moved_one_seat(deal))
    return deals


knockout_rules = st.fixed_dictionaries(
    {
        "litige": st.sampled_from(["carry", "made", "dedans"]),
        "rounding": st.sampled_from(["none", "nearest_ten"]),
        "target": st.sampled_from([None, 501, 1000]),
        "max_deals": st.integers(1, 8),
        "both_reach_target": st.sampled_from(["highest", "taker"]),
        "draws": st.just("play_on"),
    }
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.randoms(use_true_random=False), min_size=1, max_size=14), knockout_rules)
def test_a_finished_knockout_match_is_never_a_draw_and_its_winner_leads(rngs, rules):
    replay = replay_until_over(rules, deals_often_level(rngs))
    if replay.over:
        winner = replay.winner
        assert winner in (NS, EW)
        leads = replay.totals[winner] > replay.totals[winner.other]
        # Under `taker`, both teams past the target: the last deal's taker wins, level or behind.
        taker_won = (
            rules["both_reach_target"] == "taker"
            and rules["target"] is not None
            and min(replay.totals.values()) >= rules["target"]
            and winner is replay.deals[-1].result.taker
        )
        assert leads or taker_won
    elif replay.deals_played >= rules["max_deals"]:
        assert replay.totals[NS] == replay.totals[EW] or replay.pot


@settings(max_examples=100, deadline=None)
@given(st.lists(st.randoms(use_true_random=False), min_size=1, max_size=14), knockout_rules)
def test_extra_deals_keep_the_points_of_the_match_adding_up(rngs, rules):
    rules = {**rules, "rounding": "none"}
    replay = replay_until_over(rules, deals_often_level(rngs))
    value = 0
    for played in replay.deals:
        result = played.result
        if result.outcome.value != "thrown_in":
            value += 252 if result.capot else 162
        value += sum(result.declarations.values()) + sum(result.belote.values())
    assert sum(replay.totals.values()) + replay.pot == value
