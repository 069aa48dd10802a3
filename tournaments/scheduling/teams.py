"""The team draw of one round of a Swiss or a concours: who meets whom, at which table, on which side.

Pure data in, pure data out; teams are known by their ids. The caller leaves withdrawn
teams out and hands each team's past (:class:`TeamRecord`); :func:`draw_team_round`
returns the round as :class:`~tournaments.scheduling.round_robin.Pairing` rows, exactly as
a round-robin round: matches at tables 1..k, then the bye (no table, no EW team).

The rules (docs/formats.md), in the order they are applied:

1. **Bye** (odd number of teams): among the teams with the fewest byes, so nobody gets a
   second bye before everyone had one, the lowest-ranked sits out; equal ranks, and every
   team in round 1, are decided by lot.
2. **Pairing**: a minimum-cost perfect matching of the other teams over every pair of
   them. Costs, largest first: (a) how many times the two teams already met, so a repeat
   happens only when no pairing avoids it, and then as few as possible; (b) by
   :class:`PairBy`: the squared difference of match points (Swiss) or of ranks (concours
   ``draw: ranking``), nothing for ``draw: random`` and in round 1; (c) the side clash of
   :func:`~tournaments.scheduling.matching.side_clash`, so teams that both need EW are
   kept apart when nothing above minds; (d) the lot.
3. **Sides**: of two teams, the one that sat NS more often (NS seats minus EW seats) sits
   EW; equal balances by lot.
4. **Tables**: when pairing by match points or ranks (after round 1) table 1 holds the
   best-ranked team's match, then the next best team's, and so on, as a club lays out its
   room with the leaders at the top table. In round 1 and under ``draw: random`` tables
   go in draw order, which the lot makes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .matching import (
    LOT_RANGE,
    DrawError,
    check_draw,
    check_whole,
    lexicographic_costs,
    lot,
    min_cost_perfect_matching,
    seat_balance,
    side_clash,
)
from .round_robin import Pairing

__all__ = ["PairBy", "TeamRecord", "TeamRound", "draw_team_round"]


class PairBy(StrEnum):
    """What brings two teams together after round 1 (round 1 is always by lot).

    ``swiss`` pairs by match points, a concours with ``draw: ranking`` by rank, a concours
    with ``draw: random`` by lot.
    """

    MATCH_POINTS = "match_points"
    RANK = "rank"
    LOT = "lot"


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """A team's past in the tournament, as the draw of the next round needs it.

    ``rank`` is its place in the standings after the previous round (1 the leader; teams
    level share a place); ``opponents`` has one entry per match played, so a team met
    twice is listed twice; ``ns`` and ``ew`` count the seats it had (a bye is no seat).
    """

    team: int
    rank: int = 1
    match_points: int = 0
    opponents: tuple[int, ...] = ()
    byes: int = 0
    ns: int = 0
    ew: int = 0


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One drawn round: ``pairings`` as a round-robin round has them (the bye last)."""

    round: int
    pairings: tuple[Pairing, ...]
    # Matches between teams that had already met: 0 unless no pairing avoided it.
    repeats: int

    @property
    def matches(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if not p.is_bye)

    @property
    def bye(self) -> int | None:
        return next((p.ns for p in self.pairings if p.is_bye), None)


def draw_team_round(
    teams: Sequence[TeamRecord], *, round_number: int, seed: int, pair_by: PairBy
) -> TeamRound:
    """Draw round ``round_number`` for ``teams`` (at least two); same inputs, same round.

    ``seed`` is the tournament's ``draw_seed``. A ``swiss`` passes
    ``PairBy.MATCH_POINTS`` with every team's match points and place in the standings; a
    ``concours`` passes ``PairBy.RANK`` (``draw: ranking``) or ``PairBy.LOT``
    (``draw: random``) with the places, which choose the bye (and, by ranking, the
    tables). Raises :class:`~tournaments.scheduling.matching.DrawError` naming the field
    of a wrong input.
    """
    _check(teams, round_number, seed, pair_by)
    by_id = {record.team: record for record in sorted(teams, key=lambda r: r.team)}
    ranked = round_number > 1 and pair_by is not PairBy.LOT

    bye = _choose_bye(list(by_id.values()), round_number, seed) if len(by_id) % 2 else None
    playing = [team for team in by_id if team != bye]
    met = {team: Counter(record.opponents) for team, record in by_id.items()}

    rng = lot(seed, round_number, "pairing")
    tiers: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            first, second = by_id[a], by_id[b]
            tiers[a, b] = (
                _meetings(met, a, b),
                _distance(first, second, pair_by) if ranked else 0,
                side_clash(_balance(first), _balance(second)),
                rng.randrange(LOT_RANGE),
            )
    costs = lexicographic_costs(tiers, len(playing) // 2)
    pairs = min_cost_perfect_matching(playing, costs)

    sides = lot(seed, round_number, "sides")
    seated = [_seat(by_id[a], by_id[b], sides) for a, b in pairs]
    order = lot(seed, round_number, "tables")
    if ranked:
        # The better rank first, then the other one; a match level on both by lot.
        tie = {pair: order.random() for pair in seated}
        seated.sort(key=lambda pair: (*sorted(by_id[t].rank for t in pair), tie[pair]))
    else:
        order.shuffle(seated)

    pairings = [
        Pairing(round_number, table, ns, ew) for table, (ns, ew) in enumerate(seated, start=1)
    ]
    if bye is not None:
        pairings.append(Pairing(round_number, None, bye, None))
    return TeamRound(
        round=round_number,
        pairings=tuple(pairings),
        repeats=sum(1 for a, b in pairs if _meetings(met, a, b)),
    )


def _choose_bye(teams: list[TeamRecord], round_number: int, seed: int) -> int:
    fewest = min(record.byes for record in teams)
    candidates = [record for record in teams if record.byes == fewest]
    if round_number > 1:
        lowest = max(record.rank for record in candidates)
        candidates = [record for record in candidates if record.rank == lowest]
    return lot(seed, round_number, "bye").choice(candidates).team


def _meetings(met: dict[int, Counter[int]], a: int, b: int) -> int:
    # Either side's record counts, should a caller's history be lopsided.
    return max(met[a][b], met[b][a])


def _distance(first: TeamRecord, second: TeamRecord, pair_by: PairBy) -> int:
    if pair_by is PairBy.MATCH_POINTS:
        return (first.match_points - second.match_points) ** 2
    if pair_by is PairBy.RANK:
        return (first.rank - second.rank) ** 2
    return 0


def _balance(record: TeamRecord) -> int:
    return seat_balance(record.ns, record.ew)


def _seat(first: TeamRecord, second: TeamRecord, sides: random.Random) -> tuple[int, int]:
    """(NS, EW): the team that sat NS more often goes EW; equal balances by lot."""
    a, b = _balance(first), _balance(second)
    if a > b or (a == b and sides.random() < 0.5):
        return second.team, first.team
    return first.team, second.team


def _check(teams: Sequence[TeamRecord], round_number: int, seed: int, pair_by: PairBy) -> None:
    check_draw(round_number, seed)
    if not isinstance(pair_by, PairBy):
        raise DrawError("pair_by", f"must be one of {[p.value for p in PairBy]}, not {pair_by!r}")
    if len(teams) < 2:
        raise DrawError("teams", f"a round needs at least two teams, not {len(teams)}")
    seen: set[int] = set()
    for index, record in enumerate(teams):
        where = f"teams[{index}]"
        check_whole(record.team, f"{where}.team")
        if record.team in seen:
            raise DrawError(f"{where}.team", f"team {record.team} is listed twice")
        seen.add(record.team)
        check_whole(record.rank, f"{where}.rank", least=1)
        check_whole(record.match_points, f"{where}.match_points")
        for name in ("byes", "ns", "ew"):
            check_whole(getattr(record, name), f"{where}.{name}", least=0)
        if record.team in record.opponents:
            raise DrawError(f"{where}.opponents", f"team {record.team} cannot meet itself")
