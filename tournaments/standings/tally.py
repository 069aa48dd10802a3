"""A round's running figures, team by team: what the tie-break criteria read (`criteria.py`)
and the table adds each match to (`table.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import add

from .names import FIGURES

# The figures a match adds to; Sonneborn–Berger and Buchholz are computed from them each round.
COMPUTED = ("sonneborn_berger", "buchholz")
SUMMED = tuple(name for name in FIGURES if name not in COMPUTED)
_AT = {name: i for i, name in enumerate(SUMMED)}
_MATCH_POINTS = _AT["match_points"]


@dataclass(slots=True)
class Tally:
    """Every team's running figures after a round, by team number (seed order)."""

    size: int
    totals: list[tuple[int, ...]] = field(default_factory=list)
    # earned[i][j]: match points team i earned against team j (head-to-head reads it);
    # scored[i]: the same without the zeros, which is all Sonneborn–Berger needs.
    earned: list[list[int]] = field(default_factory=list)
    scored: list[dict[int, int]] = field(default_factory=list)
    match_points: list[int] = field(default_factory=list)
    # opponents[i]: every team i met in a counted match, once a meeting (Buchholz reads it).
    opponents: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.opponents = [[] for _ in range(self.size)]
        self.totals = [(0,) * len(SUMMED)] * self.size
        self.earned = [[0] * self.size for _ in range(self.size)]
        self.scored = [{} for _ in range(self.size)]
        self.match_points = [0] * self.size

    def column(self, name: str) -> list[int]:
        at = _AT[name]
        return [t[at] for t in self.totals]

    def add(self, i: int, across: tuple[int, ...], addition: tuple[int, ...]) -> None:
        """Add a match's figures to `i`, who met `across` (a team; two players; none: a bye)."""
        self.totals[i] = tuple(map(add, self.totals[i], addition))
        earned = addition[_MATCH_POINTS]
        for j in across:
            self.opponents[i].append(j)
            row = self.earned[i]
            row[j] += earned
            if earned:
                self.scored[i][j] = row[j]

    def close_round(self) -> None:
        self.match_points = self.column("match_points")
