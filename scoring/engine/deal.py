"""A deal as the referee enters it, and what it writes: `Deal`, `DealResult`, `Outcome`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import Seat, Suit, Team, _Code
from .declarations import Declaration


class Outcome(_Code):
    MADE = "made"
    DEDANS = "dedans"
    LITIGE = "litige"
    THROWN_IN = "thrown_in"


@dataclass(frozen=True, slots=True)
class Points:
    """The card points the referee entered for one team (the other has 162 minus them)."""

    team: Team
    cards: int


def _no_declarations() -> Mapping[Team, tuple[Declaration, ...]]:
    return {}


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal as entered; `taker=None` is a thrown-in deal. Built by `codec.parse_deal`."""

    taker: Seat | None = None
    trump: Suit | None = None
    points: Points | None = None
    capot: Team | None = None
    belote: Team | None = None
    declarations: Mapping[Team, tuple[Declaration, ...]] = field(default_factory=_no_declarations)

    def declared(self, team: Team) -> tuple[Declaration, ...]:
        return tuple(self.declarations.get(team, ()))

    @property
    def thrown_in(self) -> bool:
        return self.taker is None


_MADE, _DEDANS = Outcome.MADE, Outcome.DEDANS  # read once: see cards.NS
Scores = Mapping[Team, int]
ZERO: Mapping[Team, int] = MappingProxyType({Team.NS: 0, Team.EW: 0})


@dataclass(frozen=True, slots=True, init=False)
class DealResult:
    """What a deal writes (docs/rules.md §5); `taker` is None for a thrown-in deal."""

    outcome: Outcome
    capot: Team | None
    cards: Scores
    declarations: Scores
    belote: Scores
    score: Scores
    pot_in: int
    pot_awarded: Scores
    taker: Team | None = None

    def __init__(
        self,
        outcome: Outcome,
        capot: Team | None,
        cards: Scores,
        declarations: Scores,
        belote: Scores,
        score: Scores,
        pot_in: int,
        pot_awarded: Scores,
        taker: Team | None = None,
    ) -> None:
        # One is built per deal scored: each slot is set once through its descriptor, as the
        # frozen dataclass's own __init__ would through object.__setattr__, at half the cost.
        _set_outcome(self, outcome)
        _set_capot(self, capot)
        _set_cards(self, cards)
        _set_declarations(self, declarations)
        _set_belote(self, belote)
        _set_score(self, score)
        _set_pot_in(self, pot_in)
        _set_pot_awarded(self, pot_awarded)
        _set_taker(self, taker)

    @property
    def winner(self) -> Team | None:
        """Who would take an open pot: the taker when made, the defenders when dedans."""
        if self.taker is None:
            return None
        if self.outcome is _MADE:
            return self.taker
        if self.outcome is _DEDANS:
            return self.taker.other
        return None

    def with_pot_awarded(self, team: Team, pot: int) -> DealResult:
        """This result with an open pot of the match added to `team`'s score."""
        awarded = {team: pot, team.other: 0}
        score = {t: self.score[t] + awarded[t] for t in self.score}
        return DealResult(
            self.outcome,
            self.capot,
            self.cards,
            self.declarations,
            self.belote,
            score,
            self.pot_in,
            awarded,
            self.taker,
        )


def _slot_setter(name: str) -> Callable[[DealResult, Any], None]:
    setter: Callable[[DealResult, Any], None] = getattr(DealResult, name).__set__
    return setter


_set_outcome = _slot_setter("outcome")
_set_capot = _slot_setter("capot")
_set_cards = _slot_setter("cards")
_set_declarations = _slot_setter("declarations")
_set_belote = _slot_setter("belote")
_set_score = _slot_setter("score")
_set_pot_in = _slot_setter("pot_in")
_set_pot_awarded = _slot_setter("pot_awarded")
_set_taker = _slot_setter("taker")
