"""The engine's messages reach the referee in their language, filled with the quoted values."""

from django.utils import translation

from scoring import translation as engine_translation
from scoring.engine import validate_deal
from scoring.engine.messages import MESSAGES


def test_every_engine_message_is_listed_for_translation_word_for_word():
    assert engine_translation.MESSAGES == MESSAGES


def test_a_problem_is_shown_in_english_exactly_as_the_engine_wrote_it():
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 161}}
    (problem,) = validate_deal(entry, {})
    with translation.override("en"):
        assert engine_translation.problem_message(problem) == problem.message
    assert "161" in problem.message


def test_a_problem_is_translated_by_its_code_and_keeps_the_quoted_value():
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 161}}
    (problem,) = validate_deal(entry, {})
    with translation.override("fr"):
        shown = engine_translation.problem_message(problem)
    assert "161" in shown
    assert shown != problem.message
