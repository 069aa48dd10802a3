"""The referee's deal form: it builds the §8 entry, the engine judges it, problems land on fields."""

from __future__ import annotations

from scoring.engine import Problem, Rules
from scoring.forms import DealForm

SEATS = {"N": "Anne", "E": "Bob", "S": "Chloé", "W": "Dirk"}


def form(data, rules=None):
    return DealForm(data, rules=rules, seats=SEATS, team_names={"NS": "Aces", "EW": "Kings"})


def test_a_made_deal_builds_the_entry_of_the_contract():
    f = form({"taker": "N", "trump": "H", "points_team": "NS", "cards": "98", "belote": "NS"})
    assert f.is_valid(), f.errors
    assert f.entry == {
        "taker": "N",
        "trump": "H",
        "belote": "NS",
        "points": {"team": "NS", "cards": 98},
    }


def test_all_passed_is_a_thrown_in_deal():
    f = form({"taker": "pass", "points_team": "NS"})
    assert f.is_valid(), f.errors
    assert f.entry == {"taker": None}


def test_a_capot_needs_no_card_points_and_declarations_come_from_the_slots():
    f = form(
        {
            "taker": "E",
            "trump": "S",
            "capot": "EW",
            "decl_EW_0_kind": "seq4",
            "decl_NS_2_kind": "fourJ",
        }
    )
    assert f.is_valid(), f.errors
    assert f.entry["declarations"] == {
        "NS": [{"type": "four", "rank": "J"}],
        "EW": [{"type": "sequence", "length": 4, "top": None, "suit": None}],
    }


def test_each_engine_problem_is_shown_at_its_field():
    f = form({"taker": "N", "points_team": "NS", "cards": "161"})
    assert not f.is_valid()
    assert "trump" in f.errors
    assert "cards" in f.errors
    assert "161" in f.errors["cards"][0]


def test_a_declaration_problem_lands_on_the_slot_that_was_typed():
    # Both teams hold a best tierce: the engine asks for the top card of each.
    f = form(
        {
            "taker": "N",
            "trump": "H",
            "points_team": "NS",
            "cards": "90",
            "decl_NS_3_kind": "seq3",
            "decl_EW_1_kind": "seq3",
        }
    )
    assert not f.is_valid()
    assert "decl_NS_3_top" in f.errors
    assert "decl_EW_1_top" in f.errors


def test_declarations_in_a_tournament_without_them_are_refused_at_the_slot():
    f = form(
        {"taker": "N", "trump": "H", "points_team": "NS", "cards": "90", "decl_NS_0_kind": "seq3"},
        rules={"declarations": False},
    )
    assert not f.is_valid()
    assert "decl_NS_0_kind" in f.errors


def test_the_dealer_must_take_refuses_a_thrown_in_deal_at_the_taker():
    f = form({"taker": "pass"}, rules=Rules.parse({"all_pass": "dealer_must_take"}))
    assert not f.is_valid()
    assert "taker" in f.errors


def test_what_was_typed_is_kept_on_error():
    f = form({"taker": "W", "points_team": "EW", "cards": "161", "decl_EW_0_kind": "fourA"})
    assert not f.is_valid()
    assert f["cards"].value() == "161"
    assert f["taker"].value() == "W"
    assert f["decl_EW_0_kind"].value() == "fourA"


def test_letters_for_card_points_are_a_field_error_not_a_crash():
    f = form({"taker": "N", "trump": "H", "points_team": "NS", "cards": "abc"})
    assert not f.is_valid()
    assert "cards" in f.errors


def test_a_problem_without_a_field_is_a_form_error_naming_its_path():
    f = form({"taker": "N"})
    f.is_valid()
    f.attach([Problem("too_many_cards", "declarations.NS", "Too many cards.")])
    assert any("declarations.NS" in e for e in f.non_field_errors())


def test_a_forgotten_taker_is_not_read_as_all_passed():
    f = form({"trump": "H", "points_team": "NS", "cards": "90"})
    assert not f.is_valid()
    assert list(f.errors) == ["taker"]


def test_letters_for_points_and_an_engine_problem_elsewhere_are_both_shown():
    f = form({"taker": "N", "points_team": "NS", "cards": "abc"})
    assert not f.is_valid()
    assert set(f.errors) == {"cards", "trump"}
    assert len(f.errors["cards"]) == 1


def test_initial_from_entry_reads_a_stored_entry_back():
    entry = {
        "taker": "S",
        "trump": "C",
        "points": {"team": "EW", "cards": 70},
        "capot": None,
        "belote": "EW",
        "declarations": {
            "NS": [{"type": "sequence", "length": 3, "top": "K", "suit": "H"}],
            "EW": [],
        },
    }
    data = DealForm.initial_from_entry(entry)
    f = form(data)
    assert f.is_valid(), f.errors
    assert f.entry["declarations"]["NS"][0]["top"] == "K"
    assert f.entry["points"] == {"team": "EW", "cards": 70}
