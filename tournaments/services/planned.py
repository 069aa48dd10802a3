"""A round about to be drawn: what `draws.next_round` shows and `draws.draw_next_round` stores
(the individual draw, `individual.py`, plans its rounds too)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..models import Entrant, Round, Team


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    """A match of a round about to be drawn; a bye when `ew` is None.

    In an individual tournament `ns` and `ew` are the round's partnerships, not saved yet.
    """

    table: int | None
    ns: Team
    ew: Team | None
    referee: Any = None
    third_place: bool = False

    @property
    def is_bye(self) -> bool:
        return self.ew is None


@dataclass(frozen=True, slots=True)
class PlannedRound:
    """The round `draw_next_round` would store now."""

    number: int
    stage: str
    matches: tuple[PlannedMatch, ...]
    # Matches between teams that had already met (individual: partnerships of players who
    # had already been partners): 0 unless no draw avoided it.
    repeats: int = 0
    # Individual: the players who sit the round out, and how many pairs of opponents at the
    # tables had already faced each other.
    sit_outs: tuple[Entrant, ...] = ()
    repeated_opponents: int = 0
    # With check-in on: the entries not drawn, each with why (not checked in, absent).
    left_out: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return str(Round(number=self.number, stage=self.stage))

    @property
    def fingerprint(self) -> str:
        """What identifies this draw: the round, its stage, every table and its teams (a
        partnership not stored yet by its players), who sits out."""
        tables = ";".join(f"{m.table}:{_key(m.ns)}-{_key(m.ew)}" for m in self.matches)
        sitting = ",".join(str(e.pk) for e in self.sit_outs)
        text = f"{self.number}|{self.stage}|{tables}|{sitting}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _key(team: Team | None) -> str:
    if team is None:
        return ""
    return str(team.pk) if team.pk else f"{team.first_player_id}&{team.second_player_id}"
