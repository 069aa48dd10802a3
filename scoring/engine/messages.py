"""Every message the engine shows a referee, keyed by problem code, so a UI can translate by code."""

from __future__ import annotations

from typing import Any

from .problems import Problem

MESSAGES: dict[str, str] = {
    # shape of the entry
    "not_an_object": "Expected an object, got {value}.",
    "not_a_list": "Expected a list, got {value}.",
    "unknown_field": "Unknown field {field!r}.",
    "required": "This field is required.",
    "malformed_json": "The body is not valid JSON: {error}.",
    # vocabulary
    "unknown_seat": "Unknown seat {value}: use N, E, S or W.",
    "unknown_team": "Unknown team {value}: use NS or EW.",
    "unknown_suit": "Unknown suit {value}: use S, H, D or C.",
    "unknown_rank": "Unknown rank {value}: use 7, 8, 9, T, J, Q, K or A.",
    "unknown_declaration_type": "Unknown declaration type {value}: use sequence or four.",
    "not_an_integer": "Expected a whole number, got {value}.",
    # the deal
    "trump_required": "Name the trump suit: someone took trump.",
    "points_required": "Enter the card points of one team (or mark a capot).",
    "impossible_card_points": "Card points {value} cannot be made: use 0, 2 to 160, or 162.",
    "points_disagree_with_capot": (
        "With a capot by {capot}, team {team} has {expected} card points, not {value}."
    ),
    "thrown_in_with_data": "Nobody took trump (thrown-in deal), so leave {field} out.",
    "thrown_in_not_allowed": (
        "This tournament plays 'the dealer must take': a deal cannot be thrown in."
    ),
    # declarations
    "declarations_off": (
        "This tournament plays without declarations (only belote counts); remove {value}."
    ),
    "sequence_length": "A sequence has 3 to 8 cards, not {value}.",
    "top_too_low": "A sequence of {length} cannot end at {value}: its top card is too low.",
    "four_worthless": "Four {rank}s count nothing; remove them.",
    "same_four_both_teams": "Both teams cannot hold four {rank}s.",
    "duplicate_four": "Four {rank}s are listed twice.",
    "overlapping_sequences": "This sequence shares {cards} with {other}.",
    "sequence_uses_other_four": "This sequence uses {cards}, part of the other team's four {rank}s.",
    "uses_belote_card": "This declaration uses {cards}, held by team {team} who declared belote.",
    "too_many_cards": "Team {team}'s declarations need at least {value} cards; a team holds 16.",
    "top_needed": (
        "Both teams hold a best sequence of {length} cards: give the top card of this one."
    ),
    "suit_needed": (
        "Both best sequences have {length} cards to the {top}: give the suit of this one."
    ),
    # house rules
    "unknown_rule": "Unknown house rule {field!r}.",
    "bad_rule_choice": "{value} is not a choice for this house rule: use {choices}.",
    "not_a_boolean": "Expected true or false, got {value}.",
    "rule_out_of_range": "{value} is out of range: use a whole number from {low} to {high}.",
    "match_has_no_end": "Set a target or a number of deals: otherwise the match never ends.",
    # two or three players, each for themselves (§9)
    "seat_not_in_game": "Seat {value} is not in this game of {players} players: use {seats}.",
    "card_points_total": "The card points add up to {value}; a deal has 162.",
    "card_points_missing": "Enter the card points of every player but one ({seats}).",
    "left_over_impossible": (
        "That leaves {value} card points for {seat}, which cannot be made: use 0, 2 to 160, or 162."
    ),
    "points_disagree_with_capot_seat": (
        "With a capot by {capot}, {seat} has {expected} card points, not {value}."
    ),
    "same_four_two_players": "Two players cannot both hold four {rank}s.",
    "sequence_uses_another_four": "This sequence uses {cards}, part of another player's four {rank}s.",
    "uses_belote_card_seat": "This declaration uses {cards}, held by {seat} who declared belote.",
    "top_needed_players": (
        "Two players hold a best sequence of {length} cards: give the top card of this one."
    ),
    "suit_needed_players": (
        "Two best sequences have {length} cards to the {top}: give the suit of this one."
    ),
    "not_four_players": (
        "A game of {value} players is scored each for themselves, not by teams of two."
    ),
    # the match
    "deal_after_end": "Deal {number} (index {index}) comes after the match ended.",
}


def shown(value: object) -> str:
    """A bad value quoted for a referee, cut short so garbage cannot flood a page."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def filled(problem: Problem, template: str | None) -> str:
    """The problem's message from `template` (its translation), filled with the values it quotes;
    its English message when there is no template or the template's placeholders do not fit.

    The server (scoring/translation.py) and the phone's engine (static/js/engine-worker.js) both
    fill translations here, so a message reads the same on either.
    """
    if template is None:
        return problem.message
    try:
        return template.format(**dict(problem.params))
    except (KeyError, IndexError, ValueError):
        # A translation with a broken placeholder must not hide the problem from the referee.
        return problem.message


def problem(code: str, path: str, **fields: Any) -> Problem:
    """The problem `code` at `path`, its message filled from MESSAGES."""
    if "value" in fields:
        fields["value"] = shown(fields["value"])
    params = tuple((name, str(value)) for name, value in fields.items())
    return Problem(code, path, MESSAGES[code].format(**fields), params)
