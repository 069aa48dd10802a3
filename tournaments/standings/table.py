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

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from scoring.engine import DRAW, Team

from .criteria import Criterion, buchholz, known, sonneborn_berger
from .digests import round_digests
from .names import LIVE_ROUND, ROW_FIELDS
from .tally import Tally


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


# A match's winner as the engine's replay writes it: a team's code, or the engine's DRAW.
NS, EW = Team.NS.value, Team.EW.value


def winner_of(winner: str, ns_total: int, ew_total: int) -> str:
    """NS, EW or DRAW: the stored winner of a finished match, else the higher total.

    Only a row made by hand lacks its winner; the deal services always store the engine's.
    """
    if winner in (NS, EW, DRAW):
        return winner
    if ns_total == ew_total:
        return DRAW
    return NS if ns_total > ew_total else EW


# Who gets the figures, whom they met across the table, the figures.
Addition = tuple[int, tuple[int, ...], tuple[int, ...]]
# A side's key (a team's id, or in a mêlée a partnership's) → the line numbers it stands for.
Members = dict[int, tuple[int, ...]]


def _members(lines: dict[int, int], sides: Mapping[int, Sequence[int]] | None) -> Members:
    """Each side's line numbers: a team is its own line; a partnership, its players' lines."""
    if sides is None:
        return {key: (i,) for key, i in lines.items()}
    return {
        key: tuple(lines[member] for member in members if member in lines)
        for key, members in sides.items()
    }


def _additions(
    matches: Iterable[MatchResult], index: Members, points: tuple[int, int, int]
) -> tuple[dict[int, list[Addition]], dict[int, int], list[tuple[int, Addition]]]:
    """What each finished match adds to each side, per round; each line's last match round;
    what each match in play would add if it ended now (the live table's), with its round."""
    win, draw, loss = points
    outcomes = {
        DRAW: ((0, 1, 0, draw), (0, 1, 0, draw)),
        NS: ((1, 0, 0, win), (0, 0, 1, loss)),
        EW: ((0, 0, 1, loss), (1, 0, 0, win)),
    }
    additions: dict[int, list[Addition]] = defaultdict(list)
    provisional: list[tuple[int, Addition]] = []
    last_match_round: dict[int, int] = {}
    nobody: tuple[int, ...] = ()
    for match in matches:
        if match.ew_team is None:
            continue  # a bye: no match
        number = match.round_number
        ns, ew = index.get(match.ns_team, nobody), index.get(match.ew_team, nobody)
        for line in ns + ew:
            last_match_round[line] = max(last_match_round.get(line, 0), number)
        if match.finished:
            winner = winner_of(match.winner, match.ns_total, match.ew_total)
        elif match.playing:
            winner = winner_of("", match.ns_total, match.ew_total)  # the team ahead, now
        else:
            continue
        ns_won, ew_won = outcomes[winner]
        ns_diff = match.ns_total - match.ew_total
        sides: list[Addition] = []
        if ns:
            figures = (1, *ns_won, match.ns_total, match.ew_total, ns_diff, *match.ns_stats)
            for i in ns:
                sides.append((i, ew, figures))
        if ew:
            figures = (1, *ew_won, match.ew_total, match.ns_total, -ns_diff, *match.ew_stats)
            for i in ew:
                sides.append((i, ns, figures))
        if match.finished:
            additions[number].extend(sides)
        else:
            provisional.extend((number, side) for side in sides)
    return additions, last_match_round, provisional


def _add_byes(
    additions: dict[int, list[Addition]],
    provisional: list[tuple[int, Addition]],
    matches: Iterable[MatchResult],
    index: Members,
    win: int,
    bye_points: int,
) -> None:
    """A bye as a won match, in each round where some match counts (or is in play, live)."""
    counted, in_play = set(additions), {number for number, _side in provisional}
    figures = (1, 1, 0, 0, win, bye_points, 0, bye_points, *NO_STATS)
    for match in matches:
        if match.ew_team is not None:
            continue
        for i in index.get(match.ns_team, ()):
            if match.round_number in counted:
                additions[match.round_number].append((i, (), figures))
            elif match.round_number in in_play:
                provisional.append((match.round_number, (i, (), figures)))


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
        members = _members(self.index, sides)
        self.additions, last_match_round, self.provisional = _additions(
            self.matches, members, points
        )
        if bye_points is not None:
            _add_byes(
                self.additions, self.provisional, self.matches, members, points[0], bye_points
            )
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
            by_round[round_number] = _ranked(tally, self.teams, criteria, withdrawn)
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
            for row in _ranked(tally, self.teams, criteria, withdrawn)
        ]

    def digests(self) -> list[str]:
        """One digest per round of what its lines are computed from (`digests.round_digests`)."""
        return round_digests(self)


# A line as a plain tuple, in Line's field order.
Row = tuple[Any, ...]


def _ranked(
    tally: Tally, team_list: list[TeamInfo], criteria: Sequence[Criterion], withdrawn: list[bool]
) -> list[Row]:
    """Every team's line from the tally, in rank order (withdrawn teams last)."""
    sonneborn = sonneborn_berger(tally)
    opponents_points = buchholz(tally)
    steps = _steps(criteria, tally)
    totals = tally.totals
    rows: list[Row] = []
    for gone in (False, True):
        members = [i for i in range(tally.size) if withdrawn[i] is gone]
        for tied in _order(members, steps, 0, tally):
            rank, shared = len(rows) + 1, len(tied) > 1
            for i in sorted(tied) if shared else tied:  # in seed order
                t, team = totals[i], team_list[i]
                # In Line's field order: the summed figures around S–B and Buchholz; in play 0.
                rows.append(
                    (
                        *(team.id, team.seed, *t[:8], sonneborn[i], opponents_points[i]),
                        *(*t[8:], gone, rank, shared, 0),
                    )
                )
    return rows


# A sort step: one key per team for a run of criteria, or a criterion applied among the tied.
Step = list[Any] | Criterion


def _steps(criteria: Sequence[Criterion], tally: Tally) -> list[Step]:
    """Consecutive criteria that read every team's figures sort as one tuple key."""
    steps: list[Step] = []
    run: list[Sequence[int]] = []
    for criterion in criteria:
        if criterion.values is None:
            if run:
                steps.append(_one_key(run))
                run = []
            steps.append(criterion)
        else:
            run.append(criterion.values(tally))
    if run:
        steps.append(_one_key(run))
    return steps


def _one_key(run: list[Sequence[int]]) -> list[Any]:
    # A run of one criterion sorts on its numbers as they are: cheaper than 1-tuples.
    return list(run[0]) if len(run) == 1 else list(zip(*run, strict=True))


def _order(group: list[int], steps: Sequence[Step], at: int, tally: Tally) -> list[list[int]]:
    """Groups of team numbers level on every criterion, best first."""
    if len(group) <= 1 or at >= len(steps):
        return [group] if group else []
    step = steps[at]
    among_tied = isinstance(step, Criterion)
    if isinstance(step, Criterion):
        assert step.among_tied is not None
        key = step.among_tied(tally, group).__getitem__
    else:
        key = step.__getitem__
    if len(group) == 2:
        # The commonest tie by far: two teams, compared without a sort.
        first, second = group
        if key(first) != key(second):
            return [[first], [second]] if key(first) > key(second) else [[second], [first]]
        return _order(group, steps, at + 1, tally)
    ordered: list[list[int]] = []
    for _, tied_iter in itertools.groupby(sorted(group, key=key, reverse=True), key=key):
        tied = list(tied_iter)
        if len(tied) == 1:
            ordered.append(tied)
        elif among_tied and len(tied) < len(group):
            # It split the group: apply it again among the teams still level.
            ordered.extend(_order(tied, steps, at, tally))
        else:
            ordered.extend(_order(tied, steps, at + 1, tally))
    return ordered
