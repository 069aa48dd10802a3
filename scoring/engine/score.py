"""Scoring one deal (spec §5): made, dedans, litige, capot, rounding; and the two entry points."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .cards import BELOTE_POINTS, DEAL_VALUE, SEAT_TEAM, Team
from .checks import check_deal
from .deal import ZERO, Deal, DealResult, Outcome
from .declarations import scored_declarations
from .problems import InvalidDeal, Problem
from .reading import read_entry
from .rules import DeclarationComparison, LitigeRule, Rounding, Rules, rules_problems

Entry = Deal | Mapping[str, Any]
RulesLike = Rules | Mapping[str, Any] | None

_BELOTE_POINTS = {None: (0, 0), Team.NS: (BELOTE_POINTS, 0), Team.EW: (0, BELOTE_POINTS)}
# Shared read-only mappings: most deals write no declarations and one belote at most.
_BELOTE: dict[Team | None, Mapping[Team, int]] = {
    team: MappingProxyType({Team.NS: ns, Team.EW: ew}) for team, (ns, ew) in _BELOTE_POINTS.items()
}
THROWN_IN = DealResult(Outcome.THROWN_IN, None, ZERO, ZERO, ZERO, ZERO, 0, ZERO, None)


def _rules(rules: RulesLike) -> tuple[Rules, list[Problem]]:
    if type(rules) is Rules:
        return rules, []
    return rules_problems(rules)


def _read(entry: object, rules: Rules) -> tuple[Deal | None, list[Problem]]:
    if type(entry) is Deal:
        return entry, check_deal(entry, rules)
    reading = read_entry(entry)
    found = reading.problems
    if reading.deal is not None:
        found.extend(check_deal(reading.deal, rules, reading.broken, reading.positions))
    return reading.deal, found


def validate_deal(entry: Entry | object, rules: RulesLike = None) -> list[Problem]:
    """Every problem of `entry` (a raw §8 mapping or a `Deal`) and of `rules`; never raises."""
    parsed, found = _rules(rules)
    found = list(found)
    found.extend(_read(entry, parsed)[1])
    return found


def score_deal(entry: Entry | object, rules: RulesLike = None) -> DealResult:
    """The result of one deal; `InvalidDeal` carrying every problem when it cannot be scored."""
    parsed, found = _rules(rules)
    deal, deal_found = _read(entry, parsed)
    if found or deal_found or deal is None:
        raise InvalidDeal([*found, *deal_found])
    return deal_result(deal, parsed)


def nearest_ten(points: int) -> int:
    """FFB §10.3: to the nearest ten, a 5 going up."""
    return (points + 5) // 10 * 10


def deal_result(deal: Deal, rules: Rules) -> DealResult:
    """What a valid deal writes; the made/dedans/litige decision uses unrounded points."""
    if deal.taker is None:
        return THROWN_IN
    taker = SEAT_TEAM[deal.taker]
    capot = deal.capot
    if capot is not None:
        value = rules.capot_value
        cards_ns = value if capot is Team.NS else 0
    else:
        value = DEAL_VALUE
        points = deal.points
        assert points is not None  # checked: points are required without capot
        cards_ns = points.cards if points.team is Team.NS else DEAL_VALUE - points.cards
    cards_ew = value - cards_ns
    if deal.declarations:
        decl_ns, decl_ew = scored_declarations(
            deal.declarations.get(Team.NS, ()),
            deal.declarations.get(Team.EW, ()),
            deal.trump,
            rules.declaration_comparison is DeclarationComparison.HIGHEST,
        )
    else:
        decl_ns = decl_ew = 0
    belote_ns, belote_ew = _BELOTE_POINTS[deal.belote]
    if taker is Team.NS:
        c_t, d_t, b_t, d_d, b_d = cards_ns, decl_ns, belote_ns, decl_ew, belote_ew
    else:
        c_t, d_t, b_t, d_d, b_d = cards_ew, decl_ew, belote_ew, decl_ns, belote_ns
    total_t = c_t + d_t + b_t
    total_d = value - c_t + d_d + b_d
    outcome = _outcome(total_t, total_d, capot is not None and capot is not taker)
    pot_in = 0
    rule = rules.litige if outcome is Outcome.LITIGE else None
    if outcome is Outcome.MADE or rule is LitigeRule.MADE:
        written_t, written_d = total_t, total_d
    elif outcome is Outcome.DEDANS or rule is LitigeRule.DEDANS:
        written_t, written_d = b_t, value + d_t + d_d + b_d
    else:  # litige carried: the taker's own points wait for the next deal's winner
        written_t, written_d = b_t, total_d
        pot_in = c_t + d_t
    if rules.rounding is Rounding.NEAREST_TEN:
        written_t, written_d, pot_in = (
            nearest_ten(written_t),
            nearest_ten(written_d),
            nearest_ten(pot_in),
        )
    if taker is Team.NS:
        score = {Team.NS: written_t, Team.EW: written_d}
    else:
        score = {Team.NS: written_d, Team.EW: written_t}
    return DealResult(
        outcome,
        capot,
        {Team.NS: cards_ns, Team.EW: cards_ew},
        {Team.NS: decl_ns, Team.EW: decl_ew} if decl_ns or decl_ew else ZERO,
        _BELOTE[deal.belote],
        score,
        pot_in,
        ZERO,
        taker,
    )


def _outcome(total_t: int, total_d: int, defenders_capot: bool) -> Outcome:
    """Capot by the defenders is always dedans, whatever the declarations."""
    if defenders_capot or total_t < total_d:
        return Outcome.DEDANS
    if total_t > total_d:
        return Outcome.MADE
    return Outcome.LITIGE
