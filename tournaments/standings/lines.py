"""What the arithmetic reads and writes: a team, a match as stored, a line after a round."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from .names import ROW_FIELDS


@dataclass(frozen=True, slots=True)
class TeamInfo:
    id: int
    seed: int
    withdrawn: bool = False


class SideStats(NamedTuple):
    """One team's deal counts in one match (Match's stored per-side counts)."""

    deals: int = 0
    contracts_taken: int = 0
    contracts_made: int = 0
    contracts_dedans: int = 0
    capots: int = 0
    belotes: int = 0
    litiges: int = 0


NO_STATS = SideStats()


class MatchResult(NamedTuple):
    """A match as stored: `ew_team` None for a bye; `winner` "NS", "EW", "draw" or "".

    `playing`: deals entered and not over (the live table counts it on its totals).
    """

    id: int
    round_number: int
    ns_team: int
    ew_team: int | None
    finished: bool
    ns_total: int = 0
    ew_total: int = 0
    winner: str = ""
    ns_stats: SideStats = NO_STATS
    ew_stats: SideStats = NO_STATS
    playing: bool = False


@dataclass(slots=True)
class Line:
    """A team's line after one round: its figures (names.FIGURES), then where it stands.

    `team_id`: the id of whose line it is, a team's (or an individual tournament's entrant's).
    """

    team_id: int
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    point_difference: int = 0
    sonneborn_berger: int = 0
    buchholz: int = 0
    deals: int = 0
    contracts_taken: int = 0
    contracts_made: int = 0
    contracts_dedans: int = 0
    capots: int = 0
    belotes: int = 0
    litiges: int = 0
    withdrawn: bool = False
    rank: int = 0
    shared_rank: bool = False
    in_play: int = 0

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)

    def stored(self) -> tuple[Any, ...]:
        """The values of a Standing row, in ROW_FIELDS order."""
        return _stored(self)


_stored = attrgetter(*ROW_FIELDS)
