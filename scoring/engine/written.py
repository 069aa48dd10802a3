"""What a deal writes (docs/rules.md §5): made, dedans, litige, capot, rounding, from a valid deal's numbers."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .cards import BELOTE_POINTS, DEAL_VALUE, EW, NS, SEAT_TEAM, Team
from .deal import ZERO, Deal, DealResult, Outcome
from .declarations import scored_declarations
from .rules import DeclarationComparison, LitigeRule, Rounding, Rules

_BELOTE_POINTS = {None: (0, 0), NS: (BELOTE_POINTS, 0), EW: (0, BELOTE_POINTS)}
# Shared read-only mappings: most deals write no declarations and one belote at most.
_BELOTE: dict[Team | None, Mapping[Team, int]] = {
    team: MappingProxyType({NS: ns, EW: ew}) for team, (ns, ew) in _BELOTE_POINTS.items()
}
THROWN_IN = DealResult(Outcome.THROWN_IN, None, ZERO, ZERO, ZERO, ZERO, 0, ZERO, None)
_MADE, _DEDANS, _LITIGE = Outcome.MADE, Outcome.DEDANS, Outcome.LITIGE  # see cards.NS
_HIGHEST = DeclarationComparison.HIGHEST
_NEAREST_TEN = Rounding.NEAREST_TEN
# How a litige writes under each house rule: as made, as dedans, or carried (as a litige).
_LITIGE_WRITTEN = {
    LitigeRule.MADE: Outcome.MADE,
    LitigeRule.DEDANS: Outcome.DEDANS,
    LitigeRule.CARRY: Outcome.LITIGE,
}


def nearest_ten(points: int) -> int:
    """FFB §10.3: to the nearest ten, a 5 going up."""
    return (points + 5) // 10 * 10


def capot_cards_ns(capot: Team, rules: Rules) -> int:
    """NS's card points in a capot: all of `capot_value` to the capot team, none to the other."""
    return rules.capot_value if capot is NS else 0


def deal_result(deal: Deal, rules: Rules) -> DealResult:
    """What a valid deal writes."""
    if deal.taker is None:
        return THROWN_IN
    capot = deal.capot
    if capot is not None:
        cards_ns = capot_cards_ns(capot, rules)
    else:
        points = deal.points
        assert points is not None  # checked: points are required without capot
        cards_ns = points.cards if points.team is NS else DEAL_VALUE - points.cards
    declarations = deal.declarations
    if declarations:
        decl_ns, decl_ew = scored_declarations(
            declarations.get(NS, ()),
            declarations.get(EW, ()),
            deal.trump,
            rules.declaration_comparison is _HIGHEST,
        )
    else:
        decl_ns = decl_ew = 0
    return written_result(
        SEAT_TEAM[deal.taker], capot, cards_ns, decl_ns, decl_ew, deal.belote, rules
    )


def written_result(
    taker: Team,
    capot: Team | None,
    cards_ns: int,
    decl_ns: int,
    decl_ew: int,
    belote: Team | None,
    rules: Rules,
) -> DealResult:
    """The §5 table for a deal taken by `taker`; the decision uses unrounded points."""
    value = DEAL_VALUE if capot is None else rules.capot_value
    cards_ew = value - cards_ns
    belote_ns, belote_ew = _BELOTE_POINTS[belote]
    if taker is NS:
        c_t, d_t, b_t, d_d, b_d = cards_ns, decl_ns, belote_ns, decl_ew, belote_ew
    else:
        c_t, d_t, b_t, d_d, b_d = cards_ew, decl_ew, belote_ew, decl_ns, belote_ns
    total_t = c_t + d_t + b_t
    total_d = value - c_t + d_d + b_d
    # Capot by the defenders is always dedans, whatever the declarations.
    if total_t < total_d or (capot is not None and capot is not taker):
        outcome = written_as = _DEDANS
    elif total_t > total_d:
        outcome = written_as = _MADE
    else:
        outcome, written_as = _LITIGE, _LITIGE_WRITTEN[rules.litige]
    pot_in = 0
    if written_as is _MADE:
        written_t, written_d = total_t, total_d
    elif written_as is _DEDANS:
        written_t, written_d = b_t, value + d_t + d_d + b_d
    else:  # litige carried: the taker's own points wait for the next deal's winner
        written_t, written_d = b_t, total_d
        pot_in = c_t + d_t
    if rules.rounding is _NEAREST_TEN:
        written_t, written_d, pot_in = (
            nearest_ten(written_t),
            nearest_ten(written_d),
            nearest_ten(pot_in),
        )
    score = {NS: written_t, EW: written_d} if taker is NS else {NS: written_d, EW: written_t}
    return DealResult(
        outcome,
        capot,
        {NS: cards_ns, EW: cards_ew},
        {NS: decl_ns, EW: decl_ew} if decl_ns or decl_ew else ZERO,
        _BELOTE[belote],
        score,
        pot_in,
        ZERO,
        taker,
    )
