"""Replaying a match (docs/rules.md §7): dealers, the litige pot, the end of the match and its winner."""

import pytest

from scoring.engine import InvalidMatch, Outcome, Seat, Team, codec, play_match

from .helpers import entry

NS, EW = Team.NS, Team.EW
THROWN_IN = entry(None)


def made_by_ns(ns=120):
    return entry("N", "H", ns=ns)


def test_the_dealer_moves_clockwise_thrown_in_deals_included():
    replay = play_match(None, "N", [made_by_ns(), THROWN_IN, made_by_ns(), THROWN_IN, made_by_ns()])
    assert [d.dealer for d in replay.deals] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
    assert replay.next_dealer is Seat.E
    assert replay.deals_played == 3


def test_the_dealer_moves_counterclockwise_when_the_table_plays_so():
    replay = play_match({"direction": "counterclockwise"}, Seat.E, [THROWN_IN] * 3)
    assert [d.dealer.value for d in replay.deals] == ["E", "N", "W"]
    assert replay.next_dealer is Seat.S
    assert replay.deals_played == 0


def test_a_thrown_in_deal_writes_nothing_and_keeps_the_pot_open():
    replay = play_match(None, "N", [entry("N", "H", ns=81), THROWN_IN])
    assert replay.deals[1].result.outcome is Outcome.THROWN_IN
    assert replay.pot == 81
    assert dict(replay.totals) == {NS: 0, EW: 81}


def test_a_pot_carried_over_a_thrown_in_deal_goes_to_the_defenders_of_a_dedans():
    replay = play_match(None, "N", [entry("N", "H", ns=81), THROWN_IN, entry("N", "H", ns=60)])
    third = replay.deals[2].result
    assert third.outcome is Outcome.DEDANS
    assert dict(third.pot_awarded) == {NS: 0, EW: 81}
    assert dict(third.score) == {NS: 0, EW: 162 + 81}
    assert replay.pot == 0
    assert [d.pot for d in replay.deals] == [81, 81, 0]


def test_the_pot_grows_on_two_litiges_and_goes_to_the_next_winner():
    deals = [entry("N", "H", ns=81), entry("E", "S", ew=71, belote="EW"), entry("S", "D", ns=100)]
    replay = play_match(None, "N", deals)
    assert [d.pot for d in replay.deals] == [81, 81 + 71, 0]
    third = replay.deals[2].result
    assert dict(third.pot_awarded) == {NS: 152, EW: 0}
    assert dict(third.score) == {NS: 252, EW: 62}
    assert dict(replay.totals) == {NS: 0 + 91 + 252, EW: 81 + 20 + 62}


def test_a_pot_still_open_at_the_end_is_awarded_to_nobody():
    deals = [made_by_ns(120), entry("N", "H", ns=81)]
    replay = play_match({"max_deals": 2}, "N", deals)
    assert replay.over
    assert replay.pot == 81
    assert dict(replay.totals) == {NS: 120, EW: 42 + 81}
    assert replay.winner is EW
    assert codec.replay_to_json(replay)["pot"] == 81


def test_the_match_ends_at_the_first_deal_a_team_reaches_the_target():
    replay = play_match({"target": 300}, "W", [made_by_ns(160), made_by_ns(160)])
    assert replay.over
    assert replay.winner is NS
    assert replay.next_dealer is None
    assert dict(replay.totals) == {NS: 320, EW: 4}


def test_max_deals_with_equal_totals_is_a_draw():
    replay = play_match(
        {"target": None, "max_deals": 2}, "N", [made_by_ns(100), entry("E", "H", ew=100)]
    )
    assert dict(replay.totals) == {NS: 162, EW: 162}
    assert replay.over
    assert replay.winner == "draw"


def test_max_deals_counts_only_deals_not_thrown_in():
    replay = play_match({"max_deals": 2}, "N", [made_by_ns(), THROWN_IN, THROWN_IN])
    assert not replay.over
    assert replay.accepts_more_deals
    assert replay.winner is None


def test_both_teams_reaching_the_target_the_higher_total_wins():
    replay = play_match({"target": 150}, "N", [made_by_ns(90), entry("E", "H", ew=100)])
    assert dict(replay.totals) == {NS: 152, EW: 172}
    assert replay.winner is EW


def test_both_teams_reaching_the_target_the_taker_wins_when_the_table_plays_so():
    rules = {"target": 150, "both_reach_target": "taker"}
    replay = play_match(rules, "N", [made_by_ns(90), entry("N", "H", ns=82)])
    assert dict(replay.totals) == {NS: 172, EW: 152}
    assert replay.winner is NS
    replay = play_match(rules, "N", [made_by_ns(82), entry("N", "H", ns=90)])
    assert replay.winner is NS
    assert dict(replay.totals) == {NS: 172, EW: 152}


def test_the_taker_wins_under_taker_even_with_the_lower_total():
    rules = {"target": 150, "both_reach_target": "taker"}
    replay = play_match(rules, "N", [made_by_ns(140), entry("N", "H", ns=82)])
    assert dict(replay.totals) == {NS: 222, EW: 102}
    assert replay.winner is NS
    replay = play_match(rules, "N", [made_by_ns(140), entry("E", "H", ew=130)])
    assert dict(replay.totals) == {NS: 172, EW: 152}
    assert replay.winner is EW


def test_equal_totals_past_the_target_under_highest_play_another_deal():
    rules = {"target": 150}
    deals = [made_by_ns(90), entry("E", "H", ew=90)]
    replay = play_match(rules, "N", deals)
    assert dict(replay.totals) == {NS: 162, EW: 162}
    assert not replay.over
    assert replay.next_dealer is Seat.S
    replay = play_match(rules, "N", [*deals, made_by_ns(100)])
    assert replay.over
    assert replay.winner is NS


def test_a_deal_after_the_end_is_refused_naming_its_index():
    with pytest.raises(InvalidMatch) as error:
        play_match({"target": 100}, "N", [made_by_ns(120), THROWN_IN, made_by_ns()])
    [problem] = error.value.problems
    assert (problem.code, problem.path) == ("deal_after_end", "deals.1")
    assert "index 1" in problem.message


def test_an_invalid_deal_is_reported_with_its_index_and_every_other_problem():
    deals = [made_by_ns(), entry("N", "H", ns=1), "garbage", entry(None)]
    with pytest.raises(InvalidMatch) as error:
        play_match({"litige": "?"}, "Q", deals)
    assert [(p.code, p.path) for p in error.value.problems] == [
        ("bad_rule_choice", "rules.litige"),
        ("unknown_seat", "first_dealer"),
        ("impossible_card_points", "deals.1.points.cards"),
        ("not_an_object", "deals.2"),
    ]


def test_deals_must_be_a_list():
    with pytest.raises(InvalidMatch) as error:
        play_match(None, "N", {"0": made_by_ns()})
    assert [p.path for p in error.value.problems] == ["deals"]


def test_the_replay_json_follows_the_contract():
    replay = play_match(None, "N", [entry("N", "H", ns=81)])
    assert codec.replay_to_json(replay) == {
        "deals": [
            {
                "number": 1,
                "dealer": "N",
                "result": {
                    "outcome": "litige",
                    "capot": None,
                    "cards": {"NS": 81, "EW": 81},
                    "declarations": {"NS": 0, "EW": 0},
                    "belote": {"NS": 0, "EW": 0},
                    "score": {"NS": 0, "EW": 81},
                    "pot_in": 81,
                    "pot_awarded": {"NS": 0, "EW": 0},
                },
                "totals": {"NS": 0, "EW": 81},
                "pot": 81,
            }
        ],
        "totals": {"NS": 0, "EW": 81},
        "pot": 81,
        "over": False,
        "winner": None,
        "next_dealer": "E",
    }


def test_a_rounded_pot_is_awarded_rounded():
    rules = {"rounding": "nearest_ten"}
    replay = play_match(rules, "N", [entry("N", "H", ns=81), entry("E", "H", ew=100)])
    assert dict(replay.deals[1].result.score) == {NS: 60, EW: 100 + 80}
