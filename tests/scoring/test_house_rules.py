"""Every house rule of docs/rules.md §8, with concrete numbers."""

import pytest

from scoring.engine import (
    DeclarationComparison,
    InvalidDeal,
    LitigeRule,
    Rules,
    codec,
    parse_rules,
    score_deal,
)

from .helpers import entry, four, seq


def written(deal, rules=None):
    return codec.result_to_json(score_deal(deal, rules))


def test_the_defaults_are_the_spec_defaults():
    assert Rules().to_json() == {
        "declarations": True,
        "declaration_comparison": "per_category",
        "litige": "carry",
        "rounding": "none",
        "all_pass": "redeal",
        "direction": "clockwise",
        "capot_value": 252,
        "target": 1000,
        "max_deals": None,
        "both_reach_target": "highest",
        "draws": "allowed",
        "players": 4,
    }


def test_rules_read_back_from_their_json_and_their_repr():
    rules = parse_rules({"litige": "made", "target": 501, "declarations": False})
    assert parse_rules(rules.to_json()) == rules
    assert eval(repr(rules), vars(__import__("scoring.engine.rules").engine.rules)) == rules
    assert rules.litige is LitigeRule.MADE


def test_without_declarations_belote_still_counts():
    result = written(entry("N", "H", ns=98, belote="NS"), {"declarations": False})
    assert result["score"] == {"NS": 118, "EW": 64}


def test_highest_lets_one_team_score_both_categories_only_if_it_holds_the_top_declaration():
    deal = entry("N", "H", ns=100, NS=[seq(4, "T", "S")], EW=[four("Q"), seq(3, "K", "D")])
    per_category = written(deal)
    assert per_category["declarations"] == {"NS": 50, "EW": 100}
    highest = written(deal, {"declaration_comparison": DeclarationComparison.HIGHEST.value})
    assert highest["declarations"] == {"NS": 0, "EW": 120}


def test_highest_with_equal_top_sequences_scores_no_sequence_or_four():
    deal = entry("N", "H", ns=100, NS=[seq(5, "A", "S")], EW=[seq(5, "A", "D"), seq(3, "A", "C")])
    assert written(deal, {"declaration_comparison": "highest"})["declarations"] == {
        "NS": 0,
        "EW": 0,
    }


def test_highest_a_longer_sequence_beats_a_shorter_one_of_the_same_points():
    deal = entry("N", "H", ns=100, NS=[seq(6, "A", "S")], EW=[seq(5, "A", "D")])
    assert written(deal, {"declaration_comparison": "highest"})["declarations"] == {
        "NS": 100,
        "EW": 0,
    }


def test_litige_made_writes_both_totals_and_keeps_the_outcome_litige():
    result = written(entry("N", "H", ns=81), {"litige": "made"})
    assert result["outcome"] == "litige"
    assert result["score"] == {"NS": 81, "EW": 81}
    assert result["pot_in"] == 0


def test_litige_dedans_gives_the_defenders_the_whole_deal():
    result = written(entry("N", "H", ns=71, belote="NS"), {"litige": "dedans"})
    assert result["outcome"] == "litige"
    assert result["score"] == {"NS": 20, "EW": 162}
    assert result["pot_in"] == 0


def test_nearest_ten_rounds_each_written_number_a_five_going_up():
    result = written(entry("N", "H", ns=85), {"rounding": "nearest_ten"})
    assert result["score"] == {"NS": 90, "EW": 80}
    result = written(entry("N", "H", ns=84), {"rounding": "nearest_ten"})
    assert result["score"] == {"NS": 80, "EW": 80}


def test_nearest_ten_decides_made_on_the_unrounded_points():
    result = written(entry("N", "H", ns=82), {"rounding": "nearest_ten"})
    assert result["outcome"] == "made"
    assert result["score"] == {"NS": 80, "EW": 80}


def test_nearest_ten_rounds_the_points_put_in_the_pot():
    result = written(entry("N", "H", ns=81), {"rounding": "nearest_ten"})
    assert result["score"] == {"NS": 0, "EW": 80}
    assert result["pot_in"] == 80


def test_nearest_ten_rounds_a_dedans_with_belote():
    result = written(
        entry("E", "H", ew=60, belote="EW", NS=[seq(3, "K", "S")]), {"rounding": "nearest_ten"}
    )
    assert result["score"] == {"NS": 180, "EW": 20}


def test_capot_value_sets_what_a_capot_is_worth():
    result = written(entry("N", "H", capot="NS", NS=[seq(4, "A", "S")]), {"capot_value": 250})
    assert result["score"] == {"NS": 300, "EW": 0}
    result = written(entry("N", "H", capot="EW", belote="EW"), {"capot_value": 250})
    assert result["score"] == {"NS": 0, "EW": 270}


def test_capot_value_is_also_what_a_dedans_with_capot_gives():
    result = written(entry("N", "H", capot="EW"), {"capot_value": 262})
    assert result["cards"] == {"NS": 0, "EW": 262}


def test_dealer_must_take_refuses_a_thrown_in_deal_and_redeal_accepts_it():
    assert written(entry(None))["outcome"] == "thrown_in"
    with pytest.raises(InvalidDeal) as error:
        score_deal(entry(None), {"all_pass": "dealer_must_take"})
    assert [p.path for p in error.value.problems] == ["taker"]


@pytest.mark.parametrize(
    ("rules", "path", "code"),
    [
        ({"litige": "maybe"}, "rules.litige", "bad_rule_choice"),
        ({"declarations": "yes"}, "rules.declarations", "not_a_boolean"),
        ({"capot_value": 100}, "rules.capot_value", "rule_out_of_range"),
        ({"target": "1000"}, "rules.target", "not_an_integer"),
        ({"max_deals": 0}, "rules.max_deals", "rule_out_of_range"),
        ({"target": None, "max_deals": None}, "rules.target", "match_has_no_end"),
        ({"colour": "red"}, "rules.colour", "unknown_rule"),
        ({"direction": ["clockwise"]}, "rules.direction", "bad_rule_choice"),
        ({"both_reach_target": None}, "rules.both_reach_target", "bad_rule_choice"),
        ({"draws": True}, "rules.draws", "bad_rule_choice"),
        ("strict", "rules", "not_an_object"),
    ],
)
def test_a_bad_house_rule_is_reported_at_its_path(rules, path, code):
    with pytest.raises(InvalidDeal) as error:
        parse_rules(rules)
    assert [(p.code, p.path) for p in error.value.problems] == [(code, path)]


def test_a_match_may_play_to_max_deals_alone():
    assert parse_rules({"target": None, "max_deals": 16}).target is None
