"""The standings arithmetic: plain match results in, ranked lines per round out (no database).

Rules (docs/formats.md), and the choices made where it leaves room:

- Only *finished* matches count in the after-round tables. A match being played counts
  nothing there until its last deal finishes it; then it counts whole.
- The live table (`live=True`, stored under `names.LIVE_ROUND`) counts every finished match
  and, while matches are in play, each of them as if it ended now on its current totals:
  the team ahead wins, equal totals draw (docs/formats.md). Each line says how many of its
  matches it counts so (`in_play`). There is no live table while no match is in play.
- A bye gives nothing and counts as no match (not played, no points), except in the
  round-by-round formats (`bye_points` given, docs/formats.md): there a bye counts as a won
  match, the match points of a win and `bye_points` points for (none against), from the
  moment a match of its round counts (in the live table: while a match of its round is in
  play, without counting as in play). It is no opponent: head-to-head, Sonneborn–Berger
  and Buchholz see nothing of it.
- Match points: the tournament's win / draw / loss points. A finished match without a
  stored winner (a row made by hand) is decided by its totals (`winner_of`).
- Points for / against: the team's and its opponents' match totals (pot awarded included;
  a pot still open at the end goes to nobody, as the engine says).
- Deals: deals played, thrown-in ones not counted. Contracts taken = made + dedans +
  litiges, counted for the taking team; capots and belotes for the team that made them.
- Order: the tournament's tie-break list (`criteria.CRITERIA`), applied in turn to the
  teams still level. Head-to-head, when it separates some of a group but leaves a smaller
  group level, is applied again to that smaller group alone; only when it separates nobody
  does the next criterion apply (the UEFA reading). Teams level on every criterion share a
  rank (`3=`) and are listed by seed.
- Individual tournaments (a mêlée, `sides` given): the lines are the players', and each
  side of a match stands for its partnership's two players (`sides` maps the side's key to
  them). Each of the two gets the side's figures whole, as a team's line would, and has
  both players across the table as opponents (head-to-head, Sonneborn–Berger, Buchholz);
  a player sitting out is a bye of a side of one.
- Withdrawn teams keep the results they played. From the first round after their last
  match (all of them, if they never played) their line is marked withdrawn and listed
  after every other team, ranked among themselves by the same criteria.

Speed (a 64-team round robin: 63 rounds, 4,032 lines): teams are numbered in seed order
and every running figure is a list indexed by that number; a match adds one precomputed
tuple per side; consecutive criteria other than head-to-head sort as one tuple key. Ranking
is most of a round's cost, so `Tabulation.lines` ranks only the rounds asked for: the store
the latest one (when its digest, `digests.py`, moved), a page the past round it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .criteria import Criterion, known
from .digests import round_digests
from .lines import Line, MatchResult, TeamInfo
from .match_figures import add_byes, additions_of, members_of
from .names import LIVE_ROUND
from .ranking import Row, ranked
from .tally import Tally


def compute_standings(
    teams: Iterable[TeamInfo],
    matches: Iterable[MatchResult],
    *,
    tie_breaks: Sequence[str] | None = None,
    points: tuple[int, int, int] = (2, 1, 0),
    live: bool = False,
    bye_points: int | None = None,
    sides: Mapping[int, Sequence[int]] | None = None,
) -> dict[int, list[Line]]:
    """Lines per round number (1..the last round with a finished match), each in rank order.

    With `live`, and while a match is in play, also the live table under LIVE_ROUND: every
    finished match and every match in play on its current totals, ranked the same way.
    `bye_points`: a round-by-round format's byes count as won matches worth that many points.
    `sides`: an individual tournament's; `teams` are then its players (entrants), and each
    side key of `matches` (a partnership, a sit-out) maps to the players it stands for.
    """
    tabulation = Tabulation(
        teams, matches, tie_breaks=tie_breaks, points=points, bye_points=bye_points, sides=sides
    )
    return tabulation.lines(live=live)


class Tabulation:
    """A tournament's results made ready for the arithmetic: teams numbered in seed order,
    what each finished match (and each bye) adds, round by round, and what the matches in
    play would add. Gives the lines after each round and the live table, and a digest of
    what each round's lines are computed from (`digests`). `sides`: an individual
    tournament's (`compute_standings`)."""

    def __init__(
        self,
        teams: Iterable[TeamInfo],
        matches: Iterable[MatchResult],
        *,
        tie_breaks: Sequence[str] | None = None,
        points: tuple[int, int, int] = (2, 1, 0),
        bye_points: int | None = None,
        sides: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        self.teams = sorted(teams, key=lambda t: t.seed)
        self.matches = list(matches)
        self.tie_breaks = tie_breaks
        self.points = points
        self.bye_points = bye_points
        self.sides = sides
        self.index = {t.id: i for i, t in enumerate(self.teams)}
        members = members_of(self.index, sides)
        self.additions, last_match_round, self.provisional = additions_of(
            self.matches, members, points
        )
        if bye_points is not None:
            add_byes(self.additions, self.provisional, self.matches, members, points[0], bye_points)
        self.last_round = max(self.additions, default=0)
        self.withdrawn_after = [
            last_match_round.get(i, 0) if t.withdrawn else None for i, t in enumerate(self.teams)
        ]

    def lines(
        self, from_round: int = 1, to_round: int | None = None, *, live: bool = False
    ) -> dict[int, list[Line]]:
        """The lines after each round from `from_round` to `to_round` (default the last with
        a finished match); with `live`, and while a match is in play, the live table under
        LIVE_ROUND too."""
        return {
            number: [Line(*row) for row in rows]
            for number, rows in self.rows(from_round, to_round, live=live).items()
        }

    def rows(
        self, from_round: int = 1, to_round: int | None = None, *, live: bool = False
    ) -> dict[int, list[Row]]:
        """`lines` as plain rows, in Line's field order (what the store writes: a recompute
        of every round makes 4,000 of them, and an object each is a good part of its cost).

        The rounds before `from_round` are tallied all the same (the figures are running
        totals) but not ranked: that is most of a round's cost. The live table is ranked
        whatever `from_round` says: it moves with every deal of a match in play.
        """
        criteria = known(self.tie_breaks)
        tally = Tally(len(self.teams))
        by_round: dict[int, list[Row]] = {}
        last = self.last_round if live or to_round is None else min(to_round, self.last_round)
        for round_number in range(1, last + 1):
            for i, across, addition in self.additions.get(round_number, ()):
                tally.add(i, across, addition)
            if round_number < from_round or (to_round is not None and round_number > to_round):
                continue
            tally.close_round()
            withdrawn = [w is not None and round_number > w for w in self.withdrawn_after]
            by_round[round_number] = ranked(tally, self.teams, criteria, withdrawn)
        if live and self.provisional:
            by_round[LIVE_ROUND] = self._live(tally, criteria)
        return by_round

    def _live(self, tally: Tally, criteria: Sequence[Criterion]) -> list[Row]:
        """The live table: `tally` (every finished match) plus every match in play."""
        in_play = [0] * tally.size
        for _number, (i, across, addition) in self.provisional:
            tally.add(i, across, addition)
            in_play[i] += bool(across)  # a bye is not in play
        tally.close_round()
        # As after the round in play: a withdrawn team is marked once its last match is past.
        after = max(self.last_round, *(number for number, _addition in self.provisional))
        withdrawn = [w is not None and after > w for w in self.withdrawn_after]
        index = self.index
        return [
            (*row[:-1], in_play[index[row[0]]])
            for row in ranked(tally, self.teams, criteria, withdrawn)
        ]

    def digests(self) -> list[str]:
        """One digest per round of what its lines are computed from (`digests.round_digests`)."""
        return round_digests(self)
