"""Two or three players, each for themselves (docs/rules.md §9): a deal read, checked and scored.

Every seat is its own side: where §4 and §5 say a team, a seat is meant. The made / dedans
decision needs the taker to beat each other player; there is no litige and no pot.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence as Seq
from typing import Any

from .cards import BELOTE_POINTS, DEAL_VALUE, Seat, Suit
from .deal import Outcome
from .declarations import Declaration, Four, Sequence, declaration_key, sequence_key
from .problems import Problem
from .rules import DeclarationComparison, Rounding, Rules
from .solo_checks import check_solo_deal
from .solo_deal import (
    SoloDeal,
    SoloResult,
    SoloScores,
    dealing_order,
    player_after,
    seats_in_game,
    zero,
)
from .solo_reading import read_solo_entry
from .written import nearest_ten

# Imported from here by the game, the codec and the tests.
__all__ = [
    "SoloDeal",
    "SoloResult",
    "check_solo_deal",
    "dealing_order",
    "dedans_shares",
    "read_solo_entry",
    "score_solo",
    "seats_in_game",
    "solo_result_or_problems",
]


def sole_best(keys: Mapping[Seat, Any]) -> Seat | None:
    """The one seat whose key is strictly the highest; None when two share it or none has one."""
    if not keys:
        return None
    ranked = sorted(keys.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def declarations_scored_by_each_player(
    declared: Mapping[Seat, Seq[Declaration]], seats: Seq[Seat], trump: Suit | None, highest: bool
) -> dict[Seat, int]:
    """§4 each for themselves: the holder of the best sequence scores their sequences, the holder
    of the best four their fours; with `highest`, the holder of the single best declaration scores
    all of theirs. Equal best: nobody scores that category."""
    scored = zero(seats)
    if highest:
        bests = {s: max(declaration_key(d, trump) for d in ds) for s, ds in declared.items() if ds}
        winner = sole_best(bests)
        if winner is not None:
            scored[winner] = sum(d.points for d in declared[winner])
        return scored
    sequences = {s: [d for d in ds if isinstance(d, Sequence)] for s, ds in declared.items()}
    fours = {s: [d for d in ds if isinstance(d, Four)] for s, ds in declared.items()}
    best_sequence = sole_best(
        {s: max(sequence_key(d, trump) for d in ds) for s, ds in sequences.items() if ds}
    )
    if best_sequence is not None:
        scored[best_sequence] += sum(d.points for d in sequences[best_sequence])
    best_four = sole_best({s: max(d.order for d in ds) for s, ds in fours.items() if ds})
    if best_four is not None:
        scored[best_four] += sum(d.points for d in fours[best_four])
    return scored


def card_points_of_each_player(deal: SoloDeal, seats: Seq[Seat], rules: Rules) -> dict[Seat, int]:
    """As entered, the player left out having 162 minus the others; a capot takes them all."""
    if deal.capot is not None:
        return {s: rules.capot_value if s is deal.capot else 0 for s in seats}
    cards = deal.cards or {}
    entered = sum(cards.get(s, 0) for s in seats)
    return {s: cards[s] if s in cards else DEAL_VALUE - entered for s in seats}


def taker_beats_each_player(taker: Seat, totals: Mapping[Seat, int]) -> bool:
    """Made only when the taker's deal points are strictly more than each other player's."""
    return all(totals[taker] > points for seat, points in totals.items() if seat is not taker)


def dedans_shares(taker: Seat, shared: int, rules: Rules) -> dict[Seat, int]:
    """The taker's card points and declarations, shared equally among the other players; the
    remainder to the player who follows the taker in dealing order."""
    others = [s for s in seats_in_game(rules) if s is not taker]
    each, remainder = divmod(shared, len(others))
    shares = dict.fromkeys(others, each)
    shares[player_after(taker, rules)] += remainder
    return shares


def capot_scores(
    capot: Seat, seats: Seq[Seat], value: int, declarations: int, belote: Mapping[Seat, int]
) -> dict[Seat, int]:
    """The player who wins every trick scores the capot with their declarations and belote; the
    others only their belote."""
    return {s: value + declarations + belote[s] if s is capot else belote[s] for s in seats}


def score_solo(deal: SoloDeal, rules: Rules) -> SoloResult:
    """What a valid deal of two or three players writes."""
    seats = seats_in_game(rules)
    if deal.taker is None:
        nothing = zero(seats)
        return SoloResult(Outcome.THROWN_IN, None, nothing, nothing, nothing, nothing, None)
    taker = deal.taker
    cards = card_points_of_each_player(deal, seats, rules)
    highest = rules.declaration_comparison is DeclarationComparison.HIGHEST
    declarations = declarations_scored_by_each_player(deal.declarations, seats, deal.trump, highest)
    belote = {s: BELOTE_POINTS if s is deal.belote else 0 for s in seats}
    if deal.capot is not None:
        capot = deal.capot
        counted = {s: declarations[s] if s is capot else 0 for s in seats}
        score = capot_scores(capot, seats, rules.capot_value, counted[capot], belote)
        outcome = Outcome.MADE if capot is taker else Outcome.DEDANS
        return _written(outcome, capot, cards, counted, belote, score, taker, rules)
    totals = {s: cards[s] + declarations[s] + belote[s] for s in seats}
    if taker_beats_each_player(taker, totals):
        return _written(Outcome.MADE, None, cards, declarations, belote, totals, taker, rules)
    shares = dedans_shares(taker, cards[taker] + declarations[taker], rules)
    score = {s: belote[s] if s is taker else totals[s] + shares[s] for s in seats}
    return _written(Outcome.DEDANS, None, cards, declarations, belote, score, taker, rules)


def _written(
    outcome: Outcome,
    capot: Seat | None,
    cards: SoloScores,
    declarations: SoloScores,
    belote: SoloScores,
    score: Mapping[Seat, int],
    taker: Seat,
    rules: Rules,
) -> SoloResult:
    """The result, each player's written points rounded when the table rounds."""
    if rules.rounding is Rounding.NEAREST_TEN:
        score = {s: nearest_ten(points) for s, points in score.items()}
    return SoloResult(outcome, capot, cards, declarations, belote, dict(score), taker)


def solo_result_or_problems(entry: object, rules: Rules) -> tuple[SoloResult | None, list[Problem]]:
    """What an entry writes in a game of two or three, or every problem that stops it."""
    deal, found = read_solo_entry(entry, rules)
    if deal is None or found:
        return None, found
    found = check_solo_deal(deal, rules)
    if found:
        return None, found
    return score_solo(deal, rules), []
