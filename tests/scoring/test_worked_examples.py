"""Every worked example of docs/rules.md §6, with the house rules at their defaults."""

from scoring.engine import Outcome, Team, codec, play_match, score_deal

from .helpers import entry, four, seq

NS, EW = Team.NS, Team.EW


def written(deal, rules=None):
    return codec.result_to_json(score_deal(deal, rules))


def test_1_ns_made_with_belote_write_118_to_64():
    result = written(entry("N", "H", ns=98, belote="NS"))
    assert result["outcome"] == "made"
    assert result["score"] == {"NS": 118, "EW": 64}


def test_2_equal_card_points_without_declarations_are_a_litige_carried():
    result = written(entry("N", "H", ns=81))
    assert result["outcome"] == "litige"
    assert result["score"] == {"NS": 0, "EW": 81}
    assert result["pot_in"] == 81


def test_3_a_litige_with_belote_keeps_the_belote_for_the_taker():
    result = written(entry("N", "H", ns=71, belote="NS"))
    assert result["outcome"] == "litige"
    assert result["score"] == {"NS": 20, "EW": 91}
    assert result["pot_in"] == 71


def test_4_ew_dedans_gives_ns_162():
    result = written(entry("E", "S", ew=70))
    assert result["outcome"] == "dedans"
    assert result["score"] == {"NS": 162, "EW": 0}


def test_5_dedans_with_belote_and_a_defenders_tierce():
    deal = entry("E", "H", ew=60, belote="EW", NS=[seq(3, "K", "S")])
    result = written(deal)
    assert result["outcome"] == "dedans"
    assert result["declarations"] == {"NS": 20, "EW": 0}
    assert result["score"] == {"NS": 182, "EW": 20}


def test_6_capot_by_the_taker_with_a_fifty_writes_302():
    result = written(entry("N", "H", capot="NS", NS=[seq(4, "A", "S")]))
    assert result["outcome"] == "made"
    assert result["capot"] == "NS"
    assert result["score"] == {"NS": 302, "EW": 0}


def test_7_capot_by_the_defenders_is_dedans_and_they_keep_their_belote():
    result = written(entry("N", "H", capot="EW", belote="EW"))
    assert result["outcome"] == "dedans"
    assert result["score"] == {"NS": 0, "EW": 272}


def test_8_made_only_thanks_to_belote():
    result = written(entry("N", "H", ns=80, belote="NS"))
    assert result["outcome"] == "made"
    assert result["score"] == {"NS": 100, "EW": 82}


def test_9_a_tierce_to_the_ace_beats_a_tierce_to_the_king():
    result = written(entry("N", "H", ns=100, NS=[seq(3, "K", "S")], EW=[seq(3, "A", "D")]))
    assert result["declarations"] == {"NS": 0, "EW": 20}


def test_10_a_fifty_in_trump_beats_the_same_fifty_in_a_plain_suit():
    deal = entry("N", "H", ns=80, NS=[seq(4, "Q", "H")], EW=[seq(4, "Q", "S")])
    result = written(deal)
    assert result["outcome"] == "made"
    assert result["declarations"] == {"NS": 50, "EW": 0}
    assert result["score"] == {"NS": 130, "EW": 82}


def test_11_equal_plain_sequences_score_for_neither_team():
    deal = entry("N", "H", ns=84, NS=[seq(3, "K", "S")], EW=[seq(3, "K", "D")])
    result = written(deal)
    assert result["declarations"] == {"NS": 0, "EW": 0}
    assert result["score"] == {"NS": 84, "EW": 78}


def test_12_four_kings_against_a_quint_in_trump_per_category_and_highest():
    deal = entry("N", "H", ns=90, NS=[four("K")], EW=[seq(5, "J", "H")])
    per_category = written(deal)
    assert per_category["outcome"] == "made"
    assert per_category["score"] == {"NS": 190, "EW": 172}
    highest = written(deal, {"declaration_comparison": "highest"})
    assert highest["outcome"] == "made"
    assert highest["score"] == {"NS": 190, "EW": 72}


def test_13_a_fifty_against_four_aces_dedans_gives_the_defenders_312():
    deal = entry("N", "H", ns=62, NS=[seq(4, "K", "S")], EW=[four("A")])
    result = written(deal)
    assert result["outcome"] == "dedans"
    assert result["score"] == {"NS": 0, "EW": 312}


def test_14_capot_against_four_tens_is_made_252_to_100():
    result = written(entry("N", "H", capot="NS", EW=[four("T")]))
    assert result["outcome"] == "made"
    assert result["score"] == {"NS": 252, "EW": 100}


def test_15_the_pot_of_a_litige_goes_to_the_winner_of_the_next_deal():
    replay = play_match(None, "N", [entry("N", "H", ns=81), entry("E", "S", ew=100)])
    second = replay.deals[1].result
    assert second.outcome is Outcome.MADE
    assert dict(second.score) == {NS: 62, EW: 181}
    assert dict(second.pot_awarded) == {NS: 0, EW: 81}
    assert replay.pot == 0
    assert dict(replay.totals) == {NS: 62, EW: 81 + 181}
