"""The standings arithmetic: plain match results in, ordered lines per round out (no database).

Rules (tournament.md), and the choices this module makes where the spec leaves room:

- Only *finished* matches count. A match being played counts nothing yet (no match
  points, no points, no deals) until its last deal finishes it; then it counts whole.
- A bye gives nothing and counts as no match (not played, no points).
- Match points: `points_win` / `points_draw` / `points_loss` of the tournament. A finished
  match without a stored winner (closed early by a director) is decided by its totals.
- Points for / against: the team's and its opponents' match totals (pot awarded included,
  an open pot at the end goes to nobody, as the engine says).
- Deals: deals played, thrown-in deals not counted (as the engine counts them). Contracts
  taken = made + dedans + litiges, all three counted for the taking team only; capots and
  belotes for the team that made them.
- Sonneborn–Berger: the sum, over the team's finished matches, of the match points it
  earned times its opponent's match points after the same round. With 2/1/0 that is twice
  the chess figure (wins count the opponent's score, draws half), so it orders the same
  and stays an integer.
- Order: the tournament's tie-break list, applied in turn to the teams still equal.
  `head_to_head` counts the match points each team earned in matches *between the tied
  teams only*; when it separates some of them but leaves a smaller group still equal, it
  is applied again to that smaller group alone, and only when it separates nobody does
  the next criterion apply (the UEFA reading). Teams equal on every criterion share a rank
  (`3=`) and are listed by seed.
- Withdrawn teams keep the results they played. From the first round after their last
  match (all of them, if they never played) their row is marked withdrawn and they are
  listed after every other team, ranked among themselves by the same criteria, their rank
  numbers following on.

Speed (a 64-team round robin: 63 rounds, 4,032 lines): the teams are numbered in seed
order and every per-round figure is a list indexed by that number; the running totals
grow by one precomputed tuple per match and side; the criteria before and between
head-to-heads are compared as one tuple key, so each round is one sort, and head-to-head
is computed only inside the groups still tied, from a dense matrix of match points.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import add, itemgetter, mul
from typing import Any, NamedTuple

from ..standings_names import DEFAULT_TIE_BREAKS, FIGURES, TIE_BREAKS

KNOWN_TIE_BREAKS = frozenset(TIE_BREAKS)

# A line's stored figures, in the order of the rows `standing_rows` gives.
ROW_FIELDS = (*FIGURES, "withdrawn", "rank", "shared_rank")


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
    """A match as stored: `ew_team` None for a bye; `winner` "NS", "EW", "draw" or ""."""

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


@dataclass(slots=True)
class Line:
    """A team's line after one round."""

    team_id: int
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    sonneborn_berger: int = 0
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

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def wins(self) -> int:
        return self.won


def _outcome(match: MatchResult) -> str:
    if match.winner in ("NS", "EW", "draw"):
        return match.winner
    if match.ns_total == match.ew_total:
        return "draw"
    return "NS" if match.ns_total > match.ew_total else "EW"


def compute_standings(
    teams: Iterable[TeamInfo],
    matches: Iterable[MatchResult],
    stats: Mapping[tuple[int, str], SideStats] | None = None,
    *,
    tie_breaks: Sequence[str] | None = None,
    points: tuple[int, int, int] = (2, 1, 0),
) -> dict[int, list[Line]]:
    """Lines per round number (1..last round with a finished match), each list in rank order.

    `stats` maps (match id, "NS" | "EW") to that side's deal counts, in place of the
    matches' own `ns_stats` / `ew_stats`.
    """
    team_list = sorted(teams, key=lambda t: t.seed)
    seeds = {t.id: t.seed for t in team_list}
    result: dict[int, list[Line]] = {}
    for round_number, rows in standing_rows(
        team_list, matches, stats, tie_breaks=tie_breaks, points=points
    ).items():
        result[round_number] = [_line(team_id, seeds[team_id], row) for team_id, row in rows]
    return result


def _line(team_id: int, seed: int, row: tuple[Any, ...]) -> Line:
    figures = dict(zip(ROW_FIELDS, row, strict=True))
    del figures["point_difference"]  # a property of Line
    return Line(team_id, seed, **figures)


def standing_rows(
    teams: Iterable[TeamInfo],
    matches: Iterable[MatchResult],
    stats: Mapping[tuple[int, str], SideStats] | None = None,
    *,
    tie_breaks: Sequence[str] | None = None,
    points: tuple[int, int, int] = (2, 1, 0),
) -> dict[int, list[tuple[int, tuple[Any, ...]]]]:
    """Per round number, (team id, figures in ROW_FIELDS order) in rank order."""
    win, draw, loss = points
    team_list = sorted(teams, key=lambda t: t.seed)
    ids = [t.id for t in team_list]
    index = {team_id: i for i, team_id in enumerate(ids)}
    n = len(ids)
    # What each finished match adds to each side's running totals, per round: played,
    # won, drawn, lost, match points, points for, against, difference, then the deal counts
    # (the order of ROW_FIELDS, Sonneborn–Berger aside).
    additions: dict[int, list[tuple[int, int | None, int, tuple[int, ...]]]] = defaultdict(list)
    last_match_round: dict[int, int] = {}
    for match in matches:
        if match.ew_team is None:
            continue  # a bye: no match
        number = match.round_number
        for team in (match.ns_team, match.ew_team):
            if last_match_round.get(team, 0) < number:
                last_match_round[team] = number
        if not match.finished:
            continue
        if stats:
            ns_stats = stats.get((match.id, "NS"), NO_STATS)
            ew_stats = stats.get((match.id, "EW"), NO_STATS)
        else:
            ns_stats, ew_stats = match.ns_stats, match.ew_stats
        outcome = _outcome(match)
        if outcome == "draw":
            ns_won, ew_won = (0, 1, 0, draw), (0, 1, 0, draw)
        elif outcome == "NS":
            ns_won, ew_won = (1, 0, 0, win), (0, 0, 1, loss)
        else:
            ns_won, ew_won = (0, 0, 1, loss), (1, 0, 0, win)
        ns, ew = index.get(match.ns_team), index.get(match.ew_team)
        ns_diff = match.ns_total - match.ew_total
        bucket = additions[number]
        if ns is not None:
            bucket.append(
                (
                    ns,
                    ew,
                    ns_won[3],
                    (1, *ns_won, match.ns_total, match.ew_total, ns_diff, *ns_stats),
                )
            )
        if ew is not None:
            bucket.append(
                (
                    ew,
                    ns,
                    ew_won[3],
                    (1, *ew_won, match.ew_total, match.ns_total, -ns_diff, *ew_stats),
                )
            )
    last_round = max(additions, default=0)
    # An unknown name (the model's clean() refuses them, a raw write might not) is skipped.
    criteria = [name for name in tie_breaks or DEFAULT_TIE_BREAKS if name in KNOWN_TIE_BREAKS]
    withdrawn_after = [last_match_round.get(t.id, 0) if t.withdrawn else None for t in team_list]

    totals: list[tuple[int, ...]] = [(0,) * 15] * n
    # earned[i][j]: match points team i earned against team j so far (head-to-head reads
    # it); scored[i]: the same without the zeros, which is all Sonneborn–Berger needs.
    earned = [[0] * n for _ in range(n)]
    scored: list[dict[int, int]] = [{} for _ in range(n)]
    by_round: dict[int, list[tuple[int, tuple[Any, ...]]]] = {}
    for round_number in range(1, last_round + 1):
        for i, j, points_earned, addition in additions.get(round_number, ()):
            totals[i] = tuple(map(add, totals[i], addition))
            if j is not None:
                earned[i][j] += points_earned
                if points_earned:
                    scored[i][j] = earned[i][j]
        match_points = [t[4] for t in totals]
        points_of = match_points.__getitem__
        sonneborn = [sum(map(mul, s.values(), map(points_of, s))) for s in scored]
        figures = {
            "match_points": match_points,
            "points_for": [t[5] for t in totals],
            "point_difference": [t[7] for t in totals],
            "wins": [t[1] for t in totals],
            "sonneborn_berger": sonneborn,
        }
        withdrawn = [w is not None and round_number > w for w in withdrawn_after]
        steps = _steps(criteria, figures)
        rows: list[tuple[int, tuple[Any, ...]]] = []
        for gone in (False, True):
            members = [i for i in range(n) if withdrawn[i] is gone]
            for tied in _order(members, steps, 0, earned):
                rank = len(rows) + 1
                shared = len(tied) > 1
                for i in sorted(tied):  # in seed order
                    t = totals[i]
                    rows.append(
                        (
                            ids[i],
                            (*t[:8], sonneborn[i], *t[8:], gone, rank, shared),
                        )
                    )
        by_round[round_number] = rows
    return by_round


def _steps(criteria: Sequence[str], figures: Mapping[str, list[int]]) -> list[list[object] | None]:
    """The criteria as sort steps: None for head-to-head, else one key per team for a run
    of consecutive other criteria (sorting on the tuple applies them in turn)."""
    steps: list[list[object] | None] = []
    run: list[list[int]] = []
    for name in criteria:
        if name == "head_to_head":
            if run:
                steps.append(list(zip(*run, strict=True)))
                run = []
            steps.append(None)
        else:
            run.append(figures[name])
    if run:
        steps.append(list(zip(*run, strict=True)))
    return steps


def _order(
    group: list[int],
    steps: Sequence[list[object] | None],
    index: int,
    earned: list[list[int]],
) -> list[list[int]]:
    """Groups of team numbers equal on every criterion, best first."""
    if len(group) <= 1 or index >= len(steps):
        return [group] if group else []
    keys = steps[index]
    if keys is None:
        # Head-to-head: match points earned against the other tied teams only.
        among = itemgetter(*group)  # a tuple, the group having two teams or more
        scores = {i: sum(among(earned[i])) for i in group}
        key = scores.__getitem__
    else:
        key = keys.__getitem__
    if len(group) == 2:
        # The commonest tie by far: two teams, compared without a sort.
        first, second = group
        if key(first) != key(second):
            return [[first], [second]] if key(first) > key(second) else [[second], [first]]
        return _order(group, steps, index + 1, earned)
    ordered: list[list[int]] = []
    for _, tied_iter in itertools.groupby(sorted(group, key=key, reverse=True), key=key):
        tied = list(tied_iter)
        if len(tied) == 1:
            ordered.append(tied)
        elif keys is None and len(tied) < len(group):
            # Head-to-head split the group: apply it again among the teams still equal.
            ordered.extend(_order(tied, steps, index, earned))
        else:
            ordered.extend(_order(tied, steps, index + 1, earned))
    return ordered
