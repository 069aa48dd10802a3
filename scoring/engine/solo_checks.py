"""The checks of a deal of two or three players: thrown in, card points and declarations, per seat."""

from __future__ import annotations

from .cards import (
    BELOTE_CARDS,
    DEAL_VALUE,
    POSSIBLE_CARD_POINTS,
    RANKS,
    SEQUENCE_STRENGTH,
    Seat,
    Suit,
    cards_in,
)
from .checks import four_problems, overlap_problems, shape_problem
from .declarations import FOUR_MASKS, Declaration, Four, Sequence
from .messages import problem
from .problems import Problem
from .rules import AllPass, DeclarationComparison, Rules
from .solo_deal import SoloDeal, seats_in_game


def check_solo_deal(deal: SoloDeal, rules: Rules) -> list[Problem]:
    """Every rule of §3, §4 and §9 that a read deal breaks."""
    if deal.taker is None:
        return thrown_in_problems(deal, rules)
    found: list[Problem] = []
    if deal.trump is None:
        found.append(problem("trump_required", "trump"))
    found.extend(card_points_problems(deal, rules))
    if any(deal.declarations.values()):
        found.extend(solo_declaration_problems(deal, rules))
    return found


def thrown_in_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    found = []
    if rules.all_pass is AllPass.DEALER_MUST_TAKE:
        found.append(problem("thrown_in_not_allowed", "taker"))
    for name, value in (
        ("trump", deal.trump),
        ("points", deal.cards),
        ("capot", deal.capot),
        ("belote", deal.belote),
    ):
        if value is not None:
            found.append(problem("thrown_in_with_data", name, field=name))
    if any(deal.declarations.values()):
        found.append(problem("thrown_in_with_data", "declarations", field="declarations"))
    return found


def card_points_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    """Each player's card points but one, together 162 (or the capot's, which says them)."""
    cards = deal.cards
    seats = seats_in_game(rules)
    if cards is None:
        return [] if deal.capot is not None else [problem("points_required", "points")]
    if deal.capot is not None:
        return [
            problem(
                "points_disagree_with_capot_seat",
                f"points.cards.{seat.value}",
                capot=deal.capot.value,
                seat=seat.value,
                expected=DEAL_VALUE if seat is deal.capot else 0,
                value=cards[seat],
            )
            for seat in seats
            if seat in cards and cards[seat] != (DEAL_VALUE if seat is deal.capot else 0)
        ]
    missing = [seat for seat in seats if seat not in cards]
    total = sum(cards.values())
    if len(missing) > 1:
        names = ", ".join(s.value for s in missing)
        return [problem("card_points_missing", "points.cards", seats=names)]
    if not missing:
        if total != DEAL_VALUE:
            return [problem("card_points_total", "points.cards", value=total)]
        return []
    left_over = DEAL_VALUE - total
    if left_over < 0:
        return [problem("card_points_total", "points.cards", value=total)]
    if left_over not in POSSIBLE_CARD_POINTS:
        return [
            problem("left_over_impossible", "points.cards", value=left_over, seat=missing[0].value)
        ]
    return []


Placed = tuple[Seat, int, Declaration]


def _path(seat: Seat, position: int, leaf: str = "") -> str:
    return f"declarations.{seat.value}.{position}{leaf}"


def solo_declaration_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    placed: list[Placed] = [
        (seat, pos, d) for seat, items in deal.declarations.items() for pos, d in enumerate(items)
    ]
    if not rules.declarations:
        return [
            problem("declarations_off", _path(seat, pos), value=str(d)) for seat, pos, d in placed
        ]
    found: list[Problem] = []
    sound = [p for p in placed if not shape_problem(p, found)]
    found.extend(four_problems(sound, two_holders="same_four_two_players"))
    found.extend(overlap_problems(sound, others_four="sequence_uses_another_four"))
    if deal.belote is not None and deal.trump is not None:
        found.extend(belote_cards_stay_with_their_holder(sound, deal.belote, deal.trump))
    if not found:
        highest = rules.declaration_comparison is DeclarationComparison.HIGHEST
        found.extend(tied_sequences_need_their_top(sound, highest))
    return found


def belote_cards_stay_with_their_holder(
    placed: list[Placed], belote: Seat, trump: Suit
) -> list[Problem]:
    king_queen = BELOTE_CARDS[trump]
    found = []
    for seat, pos, d in placed:
        if seat is belote:
            continue
        shared = (FOUR_MASKS[d.rank] if isinstance(d, Four) else d.cards) & king_queen
        if shared:
            cards = ", ".join(cards_in(shared))
            found.append(
                problem("uses_belote_card_seat", _path(seat, pos), cards=cards, seat=belote.value)
            )
    return found


def tied_sequences_need_their_top(placed: list[Placed], highest: bool) -> list[Problem]:
    """When the two best sequences have the same length, their top (then suit) decide."""
    best: dict[Seat, int] = {}
    for seat, _, d in placed:
        if isinstance(d, Sequence):
            best[seat] = max(best.get(seat, 0), d.length)
    if highest and any(isinstance(d, Four) for _, _, d in placed):
        return []
    lengths = sorted(best.values(), reverse=True)
    if len(lengths) < 2 or lengths[0] != lengths[1]:
        return []
    length = lengths[0]
    tied = [
        (s, p, d)
        for s, p, d in placed
        if isinstance(d, Sequence) and d.length == length and best[s] == length
    ]
    found = [
        problem("top_needed_players", _path(s, p, ".top"), length=length)
        for s, p, d in tied
        if d.top is None
    ]
    if found:
        return found
    tops: dict[Seat, int] = {}
    for s, _, d in tied:
        assert isinstance(d, Sequence) and d.top is not None
        tops[s] = max(tops.get(s, 0), SEQUENCE_STRENGTH[d.top])
    ranked = sorted(tops.values(), reverse=True)
    if len(ranked) < 2 or ranked[0] != ranked[1]:
        return []
    top = RANKS[ranked[0]]
    return [
        problem("suit_needed_players", _path(s, p, ".suit"), length=length, top=top.value)
        for s, p, d in tied
        if isinstance(d, Sequence) and d.top is top and d.suit is None
    ]
