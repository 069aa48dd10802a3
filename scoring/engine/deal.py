"""A deal as the referee enters it, and what it writes: `Deal`, `DealResult`, `Outcome`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

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


Scores = Mapping[Team, int]
ZERO: Mapping[Team, int] = MappingProxyType({Team.NS: 0, Team.EW: 0})


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a deal writes (spec §5); `taker` is None for a thrown-in deal."""

    outcome: Outcome
    capot: Team | None
    cards: Scores
    declarations: Scores
    belote: Scores
    score: Scores
    pot_in: int
    pot_awarded: Scores
    taker: Team | None = None

    @property
    def winner(self) -> Team | None:
        """Who would take an open pot: the taker when made, the defenders when dedans."""
        if self.taker is None:
            return None
        if self.outcome is Outcome.MADE:
            return self.taker
        if self.outcome is Outcome.DEDANS:
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
