"""The usual deal entry read, checked and scored in one pass, without building a `Deal`.

Most entries are well formed and valid: codes from their tables, card points that can be made,
declarations whose top card and suit are given and that need no card twice. Anything else gets
None here and goes through reading.py and checks.py, which say what is wrong, if anything. So
this module never reports a problem and accepts only what they accept; a property test holds
both ways to the same result.
"""

from __future__ import annotations

from typing import Any

from .cards import DEAL_VALUE, NS, POSSIBLE_CARD_POINTS, RANKS, SEAT_TEAM, SUITS, Suit, Team
from .checks import plainly_sound
from .deal import DealResult
from .declarations import (
    FOUR_POINTS,
    SEQUENCE_POINTS,
    Declaration,
    Four,
    Sequence,
    scored_declarations,
    top_high_enough,
)
from .reading import DEAL_KEYS, FOUR_KEYS, POINTS_KEYS, SEQUENCE_KEYS
from .rules import AllPass, DeclarationComparison, Rules
from .written import THROWN_IN, capot_cards_ns, written_result

# The codes as JSON spells them; an optional team may be null.
_TAKER_TEAM: dict[object, Team] = {seat.value: team for seat, team in SEAT_TEAM.items()}
_TRUMPS: dict[object, Suit] = {suit.value: suit for suit in SUITS}
_TEAMS: dict[object, Team] = {team.value: team for team in Team}
_TEAM_OR_NONE: dict[object, Team | None] = {None: None, **_TEAMS}
_TEAM_CODES = frozenset(_TEAMS)
# Every sequence with its top card and suit, and every four that counts, by their JSON fields.
# They are immutable values, so one of each serves every deal.
EXACT_SEQUENCES: dict[tuple[object, object, object], Sequence] = {
    (length, top.value, suit.value): Sequence(length, top, suit)
    for length in SEQUENCE_POINTS
    for top in RANKS
    if top_high_enough(length, top)
    for suit in SUITS
}
COUNTING_FOURS: dict[object, Four] = {rank.value: Four(rank) for rank in FOUR_POINTS}
_HIGHEST = DeclarationComparison.HIGHEST  # see cards.NS
_DEALER_MUST_TAKE = AllPass.DEALER_MUST_TAKE
Declared = tuple[Declaration, ...]


class _Unusual(KeyError):
    """Not the usual entry: the full reader will say what, if anything, is wrong with it."""


def usual_result(entry: object, rules: Rules) -> DealResult | None:
    """What a usual entry writes; None when the entry needs the full reader and checks."""
    if type(entry) is not dict or not DEAL_KEYS.issuperset(entry):
        return None
    try:
        return _result(entry, rules)
    except (KeyError, TypeError):
        # A code missing from its table or a field from the entry, a value that cannot even be
        # looked up (a list where a code belongs), or anything else _Unusual.
        return None


def _result(entry: dict[str, Any], rules: Rules) -> DealResult:
    seat = entry["taker"]
    if seat is None:
        if not _plainly_thrown_in(entry, rules):
            raise _Unusual
        return THROWN_IN
    taker = _TAKER_TEAM[seat]
    trump = _TRUMPS[entry.get("trump")]
    capot = _TEAM_OR_NONE[entry.get("capot")]
    belote = _TEAM_OR_NONE[entry.get("belote")]
    cards_ns = _cards_ns(entry.get("points"), capot, rules)
    decl_ns = decl_ew = 0
    declared = entry.get("declarations")
    if declared is not None:
        ns, ew = _declarations(declared)
        if ns or ew:
            if not rules.declarations or not plainly_sound(ns, ew, belote, trump):
                raise _Unusual
            highest = rules.declaration_comparison is _HIGHEST
            decl_ns, decl_ew = scored_declarations(ns, ew, trump, highest)
    return written_result(taker, capot, cards_ns, decl_ns, decl_ew, belote, rules)


def _cards_ns(points: object, capot: Team | None, rules: Rules) -> int:
    """NS's card points, from a capot or from the points entered for one team: points that can
    be made, and that agree with the capot if there is one."""
    if points is None:
        if capot is None:
            raise _Unusual
    else:
        if type(points) is not dict or not POINTS_KEYS.issuperset(points):
            raise _Unusual
        team = _TEAMS[points["team"]]
        cards = points["cards"]
        if type(cards) is not int or cards not in POSSIBLE_CARD_POINTS:
            raise _Unusual
        if capot is None:
            return cards if team is NS else DEAL_VALUE - cards
        if cards != (DEAL_VALUE if team is capot else 0):
            raise _Unusual
    return capot_cards_ns(capot, rules)


def _declarations(declared: object) -> tuple[Declared, Declared]:
    """Each team's declarations, when every one of them is exact."""
    if type(declared) is not dict or not _TEAM_CODES.issuperset(declared):
        raise _Unusual
    return _exact_declarations(declared.get("NS")), _exact_declarations(declared.get("EW"))


def _exact_declarations(items: object) -> Declared:
    """One team's list of declarations (null: none)."""
    if items is None:
        return ()
    if type(items) is not list and type(items) is not tuple:
        raise _Unusual
    return tuple(map(_exact_declaration, items)) if items else ()


def _exact_declaration(item: object) -> Declaration:
    """The shared value of a sequence with its top card and suit, or of a four that counts."""
    if type(item) is dict:
        kind = item["type"]
        if kind == "sequence":
            if SEQUENCE_KEYS.issuperset(item) and type(item["length"]) is int:
                return EXACT_SEQUENCES[item["length"], item["top"], item["suit"]]
        elif kind == "four" and FOUR_KEYS.issuperset(item):
            return COUNTING_FOURS[item["rank"]]
    raise _Unusual


def _plainly_thrown_in(entry: dict[str, Any], rules: Rules) -> bool:
    """Nobody took trump, nothing else is entered, and the table may throw a deal in."""
    if rules.all_pass is _DEALER_MUST_TAKE:
        return False
    for name in ("trump", "points", "capot", "belote"):
        if entry.get(name) is not None:
            return False
    declared = entry.get("declarations")
    if declared is None:
        return True
    return _declarations(declared) == ((), ())
