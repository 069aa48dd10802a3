"""The series' vocabulary: its rules (and their problems), an evening's results, a line of
the table, and the handicap formula."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

POINTS = ("score", "match_points", "place")
HANDICAPS = ("none", "rating")
# The handicap: a player HANDICAP_SPAN rating points or more below the evening's best rated
# player gets the cap, a quarter (1 / HANDICAP_SHARE) of the evening's best points.
HANDICAP_SPAN = 20
HANDICAP_SHARE = 4

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class Rules:
    """A series' rules; the defaults are the spec's."""

    points: str = "place"
    place_points: tuple[int, ...] = ()
    participation_points: int = 0
    best_of: int | None = None
    absent_points: int = 0
    min_evenings: int = 0
    handicap: str = "none"

    def evening_points(self, result: Result) -> int:
        """What one played evening is worth to a player under these rules."""
        if self.points == "score":
            return result.score
        if self.points == "match_points":
            return result.match_points
        if 1 <= result.place <= len(self.place_points):
            return self.place_points[result.place - 1]
        return self.participation_points

    def place_values(self) -> list[int]:
        """The points a `place` series can give at an evening, least first."""
        return sorted({*self.place_points, self.participation_points})


def rules_problems(
    *,
    points: str,
    place_points: Sequence[int],
    participation_points: int,
    best_of: int | None,
    min_evenings: int,
    handicap: str,
) -> dict[str, str]:
    """Every problem of a series' rules: a code by field name (empty: the rules are good).

    The codes: `unknown` (a choice not offered), `below_one`, `negative`, `not_decreasing`,
    `missing` (a place series without place points). Callers word them (club.services).
    Any `absent_points` is good: a club may count a missed evening against a player.
    """
    problems: dict[str, str] = {}
    if points not in POINTS:
        problems["points"] = "unknown"
    if handicap not in HANDICAPS:
        problems["handicap"] = "unknown"
    if best_of is not None and best_of < 1:
        problems["best_of"] = "below_one"
    if min_evenings < 0:
        problems["min_evenings"] = "negative"
    if any(value < 0 for value in place_points):
        problems["place_points"] = "negative"
    elif any(a <= b for a, b in pairwise(place_points)):
        problems["place_points"] = "not_decreasing"
    elif points == "place" and not place_points:
        problems["place_points"] = "missing"
    if participation_points < 0:
        problems["participation_points"] = "negative"
    return problems


@dataclass(frozen=True, slots=True)
class Result:
    """A player's result at one evening: their game points, match points and place."""

    player_id: int
    score: int = 0
    match_points: int = 0
    place: int = 0


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of the series with results: its tournament, whether its results are
    final, each player's result, and the players' club ratings before it (for the handicap)."""

    tournament_id: int
    results: tuple[Result, ...]
    final: bool = True
    ratings: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Cell:
    """What one evening is worth to a player: `points` (scratch) and `handicap_points`, and
    whether each counts in its table's total."""

    tournament_id: int
    points: int
    played: bool
    counted: bool = False
    handicap_points: int = 0
    handicap_counted: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line in the series table, in the table's order."""

    player_id: int
    rank: int | None
    shared_rank: bool
    played: int
    total: int
    cells: tuple[Cell, ...]
    handicap_total: int
    handicap_rank: int | None
    needs: int | None
    # The player's rank after each evening (None: not ranked then), for the chart.
    ranks: tuple[int | None, ...] = ()


def handicap_points(rating: float | None, best_rating: float | None, best_points: int) -> int:
    """The handicap a player gets at one evening (docs/seasons.md):

        floor(best_points × min(best_rating − rating, HANDICAP_SPAN) / (HANDICAP_SPAN × HANDICAP_SHARE))

    where `best_rating` is the highest club rating before the evening among its rated
    players and `best_points` the evening's highest points. So the best rated player gets
    0, and no one more than a quarter of the evening's best points. A player without a
    rating before the evening gets 0.
    """
    if rating is None or best_rating is None or best_points <= 0:
        return 0
    gap = min(max(best_rating - rating, 0.0), float(HANDICAP_SPAN))
    return int(best_points * gap // (HANDICAP_SPAN * HANDICAP_SHARE))
