"""The two entry points: `validate_deal` lists every problem, `score_deal` scores or raises them all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .checks import check_deal
from .deal import Deal, DealResult
from .messages import problem
from .problems import InvalidDeal, Problem
from .reading import read_entry
from .rules import Rules, rules_problems
from .usual import usual_result
from .written import deal_result

Entry = Deal | Mapping[str, Any]
RulesLike = Rules | Mapping[str, Any] | None


def _rules(rules: RulesLike) -> tuple[Rules, Sequence[Problem]]:
    found: Sequence[Problem]
    if type(rules) is Rules:
        parsed, found = rules, ()
    else:
        parsed, found = rules_problems(rules)
    if parsed.players != 4:
        # Two or three players are scored each for themselves: scoring.engine.solo.
        found = [*found, problem("not_four_players", "rules.players", value=parsed.players)]
    return parsed, found


def _read(entry: object, rules: Rules) -> tuple[Deal | None, list[Problem]]:
    if type(entry) is Deal:
        return entry, check_deal(entry, rules)
    reading = read_entry(entry)
    found = reading.problems
    if reading.deal is not None:
        found.extend(check_deal(reading.deal, rules, reading.broken, reading.positions))
    return reading.deal, found


def result_or_problems(entry: object, rules: Rules) -> tuple[DealResult | None, list[Problem]]:
    """What the deal writes, or every problem that stops it: the usual entry the fast way."""
    result = usual_result(entry, rules)
    if result is not None:
        return result, []
    return checked_result(entry, rules)


def checked_result(entry: object, rules: Rules) -> tuple[DealResult | None, list[Problem]]:
    """The full way: read every field, check every rule, then score."""
    deal, found = _read(entry, rules)
    if deal is None or found:
        return None, found
    return deal_result(deal, rules), []


def validate_deal(entry: Entry | object, rules: RulesLike = None) -> list[Problem]:
    """Every problem of `entry` (a raw §8 mapping or a `Deal`) and of `rules`; never raises."""
    parsed, found = _rules(rules)
    return [*found, *result_or_problems(entry, parsed)[1]]


def score_deal(entry: Entry | object, rules: RulesLike = None) -> DealResult:
    """The result of one deal; `InvalidDeal` carrying every problem when it cannot be scored."""
    parsed, found = _rules(rules)
    result = None if found else usual_result(entry, parsed)
    if result is None:
        result, deal_found = checked_result(entry, parsed)
        if found or result is None:
            raise InvalidDeal([*found, *deal_found])
    return result
