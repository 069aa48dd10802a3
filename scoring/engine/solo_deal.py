"""A deal of two or three players (docs/rules.md §9): who is in the game, the deal entered, what it writes."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field

from .cards import CLOCKWISE, Seat, Suit
from .deal import Outcome
from .declarations import Declaration
from .rules import Direction, Rules

SoloScores = Mapping[Seat, int]


def seats_in_game(rules: Rules) -> tuple[Seat, ...]:
    """N, E, S with three players; N and S with two; all four seats otherwise."""
    if rules.players == 3:
        return (Seat.N, Seat.E, Seat.S)
    if rules.players == 2:
        return (Seat.N, Seat.S)
    return CLOCKWISE


def dealing_order(rules: Rules) -> tuple[Seat, ...]:
    """The seats in play direction from N: N → E → S, or N → S → E counterclockwise."""
    seats = seats_in_game(rules)
    if rules.direction is Direction.COUNTERCLOCKWISE:
        return (seats[0], *reversed(seats[1:]))
    return seats


def player_after(seat: Seat, rules: Rules) -> Seat:
    """The player who follows `seat` in dealing order."""
    order = dealing_order(rules)
    return order[(order.index(seat) + 1) % len(order)]


@dataclass(frozen=True, slots=True)
class SoloDeal:
    """One deal of a game of two or three as entered; `cards` may leave one seat out."""

    taker: Seat | None = None
    trump: Suit | None = None
    cards: Mapping[Seat, int] | None = None
    capot: Seat | None = None
    belote: Seat | None = None
    declarations: Mapping[Seat, tuple[Declaration, ...]] = field(default_factory=dict)

    @property
    def thrown_in(self) -> bool:
        return self.taker is None


@dataclass(frozen=True, slots=True)
class SoloResult:
    """What a deal writes for each seat; `declarations` are the points that counted."""

    outcome: Outcome
    capot: Seat | None
    cards: SoloScores
    declarations: SoloScores
    belote: SoloScores
    score: SoloScores
    taker: Seat | None = None


def zero(seats: Seq[Seat]) -> dict[Seat, int]:
    return dict.fromkeys(seats, 0)
