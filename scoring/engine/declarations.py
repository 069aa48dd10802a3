"""Declarations (sequences, fours) and the comparison that decides which team scores them."""

from __future__ import annotations

import itertools
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field

from .cards import RANKS, SEQUENCE_STRENGTH, SUITS, Rank, Suit, card_bit

SEQUENCE_POINTS: dict[int, int] = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}
FOUR_POINTS: dict[Rank, int] = {
    Rank.JACK: 200,
    Rank.NINE: 150,
    Rank.ACE: 100,
    Rank.TEN: 100,
    Rank.KING: 100,
    Rank.QUEEN: 100,
}
# Fours rank J, 9, A, T, K, Q whatever their points say.
FOUR_ORDER: dict[Rank, int] = {
    Rank.JACK: 6,
    Rank.NINE: 5,
    Rank.ACE: 4,
    Rank.TEN: 3,
    Rank.KING: 2,
    Rank.QUEEN: 1,
}


@dataclass(frozen=True, slots=True)
class Sequence:
    """Consecutive cards of one suit; top and suit may be unknown when nothing depends on them."""

    length: int
    top: Rank | None = None
    suit: Suit | None = None
    # The exact cards it uses, 0 when top or suit is unknown or the sequence cannot exist.
    cards: int = field(init=False, repr=False, compare=False)
    points: int = field(init=False, repr=False, compare=False)
    # What decides between two sequences before trump does: the longer, then the higher top
    # card (an unknown top is the lowest); one number, as it is compared for every deal.
    strength: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        masks = POSSIBLE_MASKS.get((self.length, self.top, self.suit), ())
        object.__setattr__(self, "cards", masks[0] if len(masks) == 1 and self.top else 0)
        object.__setattr__(self, "points", SEQUENCE_POINTS.get(self.length, 0))
        length = self.length if type(self.length) is int else 0
        top = SEQUENCE_STRENGTH.get(self.top, -1) if self.top is not None else -1
        object.__setattr__(self, "strength", length * 9 + top + 1)

    def __str__(self) -> str:
        top = self.top.value if self.top else "?"
        suit = self.suit.value if self.suit else "?"
        return f"{self.length}{top}{suit}"

    @classmethod
    def parse(cls, text: str) -> Sequence:
        """`Sequence.parse("3KH")` (`?` for an unknown top or suit) reads `str` back."""
        if len(text) != 3 or not text[0].isdigit():
            raise ValueError(f"not a sequence: {text!r}")
        top = None if text[1] == "?" else Rank.parse(text[1])
        suit = None if text[2] == "?" else Suit.parse(text[2])
        return cls(int(text[0]), top, suit)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Four:
    """Four cards of one rank."""

    rank: Rank
    # Its four cards, 0 for sevens and eights, which count nothing.
    cards: int = field(init=False, repr=False, compare=False)
    points: int = field(init=False, repr=False, compare=False)
    # Fours rank J, 9, A, T, K, Q (6 to 1), whatever their points say; 0 for sevens and eights.
    order: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        worth = self.rank in FOUR_POINTS
        object.__setattr__(self, "cards", FOUR_MASKS.get(self.rank, 0) if worth else 0)
        object.__setattr__(self, "points", FOUR_POINTS.get(self.rank, 0))
        object.__setattr__(self, "order", FOUR_ORDER.get(self.rank, 0))

    def __str__(self) -> str:
        return "4x" + self.rank.value

    @classmethod
    def parse(cls, text: str) -> Four:
        """`Four.parse("4xJ")` reads `str` back."""
        if len(text) != 3 or not text.startswith("4x"):
            raise ValueError(f"not a four: {text!r}")
        return cls(Rank.parse(text[2]))  # type: ignore[arg-type]


Declaration = Sequence | Four


def _possible_masks(length: int, top: Rank | None, suit: Suit | None) -> tuple[int, ...]:
    tops = [top] if top else RANKS
    suits = [suit] if suit else SUITS
    masks = []
    for t, s in itertools.product(tops, suits):
        high = SEQUENCE_STRENGTH[t]
        if high - length + 1 >= 0:
            masks.append(sum(card_bit(RANKS[i], s) for i in range(high - length + 1, high + 1)))
    return tuple(masks)


# Every card set a (partly known) sequence may stand for; one entry when top and suit are known.
POSSIBLE_MASKS: dict[tuple[int, Rank | None, Suit | None], tuple[int, ...]] = {
    (length, top, suit): _possible_masks(length, top, suit)
    for length in SEQUENCE_POINTS
    for top in (None, *RANKS)
    for suit in (None, *SUITS)
}
FOUR_MASKS: dict[Rank, int] = {rank: sum(card_bit(rank, s) for s in SUITS) for rank in RANKS}


def top_high_enough(length: int, top: Rank) -> bool:
    """A sequence of `length` to `top` fits under the ace and above the seven."""
    return SEQUENCE_STRENGTH[top] >= length - 1


def certain_cards(seq: Sequence) -> int:
    """The cards `seq` uses whatever its unknown top or suit turns out to be."""
    masks = POSSIBLE_MASKS[(seq.length, seq.top, seq.suit)]
    if not masks:
        return 0
    common = masks[0]
    for m in masks[1:]:
        common &= m
    return common


def certainly_overlap(a: Sequence, b: Sequence) -> int:
    """Cards shared for sure (exact sequences), or -1 when any reading of both overlaps."""
    ma = POSSIBLE_MASKS[(a.length, a.top, a.suit)]
    mb = POSSIBLE_MASKS[(b.length, b.top, b.suit)]
    if len(ma) == 1 and len(mb) == 1:
        return ma[0] & mb[0]
    if ma and mb and all(x & y for x in ma for y in mb):
        return -1
    return 0


def sequence_key(seq: Sequence, trump: Suit | None) -> int:
    """Longer beats shorter, then the higher top card, then a sequence in trump."""
    return seq.strength * 2 + (seq.suit is not None and seq.suit == trump)


def declaration_key(d: Declaration, trump: Suit | None) -> tuple[int, int, int]:
    """Order for the `highest` house rule: points, then a four over a sequence, then as above."""
    if isinstance(d, Four):
        return (d.points, 1, d.order)
    return (d.points, 0, sequence_key(d, trump))


def _team_bests(decls: Seq[Declaration], trump: Suit | None) -> tuple[int, int, int, int]:
    """Best sequence key (-1: none), sequence points, best four (0: none), four points: one
    pass, as it runs for every deal."""
    best_seq = -1
    seq_points = four_best = four_points = 0
    for d in decls:
        if isinstance(d, Sequence):
            key = sequence_key(d, trump)
            if key > best_seq:
                best_seq = key
            seq_points += d.points
        else:
            if d.order > four_best:
                four_best = d.order
            four_points += d.points
    return best_seq, seq_points, four_best, four_points


def scored_declarations(
    ns: Seq[Declaration], ew: Seq[Declaration], trump: Suit | None, highest: bool
) -> tuple[int, int]:
    """Points each team scores for its declarations (§4), belote aside."""
    if highest:
        return _scored_by_highest(ns, ew, trump)
    ns_seq, ns_seq_points, ns_four, ns_four_points = _team_bests(ns, trump)
    ew_seq, ew_seq_points, ew_four, ew_four_points = _team_bests(ew, trump)
    # The better team scores all its sequences; equal best sequences score nothing.
    ns_total = ns_seq_points if ns_seq > ew_seq else 0
    ew_total = ew_seq_points if ew_seq > ns_seq else 0
    # Likewise the team holding the best four scores all its fours.
    if ns_four > ew_four:
        ns_total += ns_four_points
    elif ew_four > ns_four:
        ew_total += ew_four_points
    return ns_total, ew_total


def _winner(a: object, b: object) -> int | None:
    """0 when only `a` or the better is `a`, 1 likewise for `b`, None when equal or both absent."""
    if a is None:
        return None if b is None else 1
    if b is None or a > b:  # type: ignore[operator]
        return 0
    return 1 if b > a else None  # type: ignore[operator]


def _scored_by_highest(
    ns: Seq[Declaration], ew: Seq[Declaration], trump: Suit | None
) -> tuple[int, int]:
    ns_best = max((declaration_key(d, trump) for d in ns), default=None)
    ew_best = max((declaration_key(d, trump) for d in ew), default=None)
    winner = _winner(ns_best, ew_best)
    if winner == 0:
        return sum(d.points for d in ns), 0
    if winner == 1:
        return 0, sum(d.points for d in ew)
    return 0, 0
