"""Every line in rank order: the tie-break criteria applied in turn to the teams still level."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .criteria import Criterion, buchholz, sonneborn_berger
from .lines import TeamInfo
from .tally import Tally

# A line as a plain tuple, in Line's field order.
Row = tuple[Any, ...]


def ranked(
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
