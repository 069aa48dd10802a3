"""The engine's messages in the reader's language: the engine is pure, so its templates are listed here.

A test holds this table equal to scoring.engine.messages.MESSAGES, so a new or reworded
engine message cannot go untranslated unnoticed.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_noop as _

from scoring.engine import Problem, Suit
from scoring.engine.messages import filled

MESSAGES: dict[str, str] = {
    "not_an_object": _("Expected an object, got {value}."),
    "not_a_list": _("Expected a list, got {value}."),
    "unknown_field": _("Unknown field {field!r}."),
    "required": _("This field is required."),
    "malformed_json": _("The body is not valid JSON: {error}."),
    "unknown_seat": _("Unknown seat {value}: use N, E, S or W."),
    "unknown_team": _("Unknown team {value}: use NS or EW."),
    "unknown_suit": _("Unknown suit {value}: use S, H, D or C."),
    "unknown_rank": _("Unknown rank {value}: use 7, 8, 9, T, J, Q, K or A."),
    "unknown_declaration_type": _("Unknown declaration type {value}: use sequence or four."),
    "not_an_integer": _("Expected a whole number, got {value}."),
    "trump_required": _("Name the trump suit: someone took trump."),
    "points_required": _("Enter the card points of one team (or mark a capot)."),
    "impossible_card_points": _("Card points {value} cannot be made: use 0, 2 to 160, or 162."),
    "points_disagree_with_capot": _(
        "With a capot by {capot}, team {team} has {expected} card points, not {value}."
    ),
    "thrown_in_with_data": _("Nobody took trump (thrown-in deal), so leave {field} out."),
    "thrown_in_not_allowed": _(
        "This tournament plays 'the dealer must take': a deal cannot be thrown in."
    ),
    "declarations_off": _(
        "This tournament plays without declarations (only belote counts); remove {value}."
    ),
    "sequence_length": _("A sequence has 3 to 8 cards, not {value}."),
    "top_too_low": _("A sequence of {length} cannot end at {value}: its top card is too low."),
    "four_worthless": _("Four {rank}s count nothing; remove them."),
    "same_four_both_teams": _("Both teams cannot hold four {rank}s."),
    "duplicate_four": _("Four {rank}s are listed twice."),
    "overlapping_sequences": _("This sequence shares {cards} with {other}."),
    "sequence_uses_other_four": _(
        "This sequence uses {cards}, part of the other team's four {rank}s."
    ),
    "uses_belote_card": _(
        "This declaration uses {cards}, held by team {team} who declared belote."
    ),
    "too_many_cards": _("Team {team}'s declarations need at least {value} cards; a team holds 16."),
    "top_needed": _(
        "Both teams hold a best sequence of {length} cards: give the top card of this one."
    ),
    "suit_needed": _(
        "Both best sequences have {length} cards to the {top}: give the suit of this one."
    ),
    "unknown_rule": _("Unknown house rule {field!r}."),
    "bad_rule_choice": _("{value} is not a choice for this house rule: use {choices}."),
    "not_a_boolean": _("Expected true or false, got {value}."),
    "rule_out_of_range": _("{value} is out of range: use a whole number from {low} to {high}."),
    "match_has_no_end": _("Set a target or a number of deals: otherwise the match never ends."),
    "seat_not_in_game": _("Seat {value} is not in this game of {players} players: use {seats}."),
    "card_points_total": _("The card points add up to {value}; a deal has 162."),
    "card_points_missing": _("Enter the card points of every player but one ({seats})."),
    "left_over_impossible": _(
        "That leaves {value} card points for {seat}, which cannot be made: use 0, 2 to 160, or 162."
    ),
    "points_disagree_with_capot_seat": _(
        "With a capot by {capot}, {seat} has {expected} card points, not {value}."
    ),
    "same_four_two_players": _("Two players cannot both hold four {rank}s."),
    "sequence_uses_another_four": _(
        "This sequence uses {cards}, part of another player's four {rank}s."
    ),
    "uses_belote_card_seat": _(
        "This declaration uses {cards}, held by {seat} who declared belote."
    ),
    "top_needed_players": _(
        "Two players hold a best sequence of {length} cards: give the top card of this one."
    ),
    "suit_needed_players": _(
        "Two best sequences have {length} cards to the {top}: give the suit of this one."
    ),
    "not_four_players": _(
        "A game of {value} players is scored each for themselves, not by teams of two."
    ),
    "deal_after_end": _("Deal {number} (index {index}) comes after the match ended."),
}


def problem_message(problem: Problem) -> str:
    """The problem's message translated by its code, filled with the values it quotes."""
    template = MESSAGES.get(problem.code)
    return filled(problem, None if template is None else gettext(template))


def engine_messages() -> dict[str, str]:
    """Every engine message template in the active language, by code: the phone's engine fills
    them as problem_message does (static/js/engine.js, docs/offline.md)."""
    return {code: gettext(template) for code, template in MESSAGES.items()}


# Seat and side codes as a reader of each language writes them (N/E/S/O and NS/EO in French,
# N/O/Z/W and NZ/OW in Dutch); the engine and the stored entries keep N/E/S/W and NS/EW.
SEAT_ABBREVIATIONS = {
    "N": pgettext_lazy("seat", "N"),
    "E": pgettext_lazy("seat", "E"),
    "S": pgettext_lazy("seat", "S"),
    "W": pgettext_lazy("seat", "W"),
}
SIDE_ABBREVIATIONS = {"NS": gettext_lazy("NS"), "EW": gettext_lazy("EW")}


def seat_abbreviation(code: Any) -> Any:
    code = str(getattr(code, "value", code) or "")
    return SEAT_ABBREVIATIONS.get(code, code)


def side_abbreviation(code: Any) -> Any:
    code = str(getattr(code, "value", code) or "")
    return SIDE_ABBREVIATIONS.get(code, code)


# The suits as cards and sheets show them: a symbol everywhere, a name where there is room.
SUIT_SYMBOLS: dict[str, str] = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
SUIT_NAMES = {
    Suit.S: gettext_lazy("♠ spades"),
    Suit.H: gettext_lazy("♥ hearts"),
    Suit.D: gettext_lazy("♦ diamonds"),
    Suit.C: gettext_lazy("♣ clubs"),
}


def suit_symbol(code: Any) -> str:
    """♠ for "S" (or Suit.S, a str enum: the same key); empty for anything else."""
    return SUIT_SYMBOLS.get(code, "") if isinstance(code, str) else ""
