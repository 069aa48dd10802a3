"""The draw of one round of an individual tournament (mêlée): partnerships and tables of four.

Pure data in, pure data out; players are known by their ids. The caller leaves withdrawn
players out and hands each player's past (:class:`PlayerRecord`);
:func:`draw_individual_round` returns the tables and who sits out.

The rules (docs/formats.md):

1. **Sit-outs**: when the number of players is not a multiple of 4, 1 to 3 players sit
   out, among those who sat out least, so nobody sits out twice before everyone did once
   (a mêlée is a draw; the standings play no part). This is a rule, not a cost; which of
   those who sat out least sit out is the costs' to decide, then the lot's.
2. **Costs**, compared in this order: how many times partners of the round were already
   partners (summed over the partnerships); then how many times opponents of the round
   already faced each other (summed over the four pairs across each table); then, among
   draws equal on both, seat needs that clash least and the lot.
3. **Sides**: the partnership whose players sat NS more often (NS seats minus EW seats,
   summed) sits EW; equal balances by lot. Who of a partnership takes North (East) and who
   South (West) is drawn by lot; tables are numbered in draw order, also the lot's.

**The search.** The fewest repeated partners alone is a matching, solved exactly: a
minimum-cost perfect matching over every pair of players (costs: partners before; then
players who faced each other make partners by preference, as partners they cannot face
each other again; then seat needs; then the lot). Its total is the floor no draw goes
below. Tables of four are not pairs, so the fewest repeated opponents on top is a harder
problem; the draw goes in steps, each keeping only what costs less:

- a start: the tables are a second matching, of the partnerships, on their opponents'
  repeats;
- a local search (:func:`_improve`): any two tables whose eight players can be seated at
  two tables for less (35 ways, each split into its best partnerships) are, until no two
  tables can be bettered; then the tables' matching over the partnerships found so far is
  tried again (a move across any number of tables);
- an iterated local search (:func:`_perturbed`): up to ``KICK_PLAYERS // players`` times,
  three tables (one of them costing something) are shaken by lot and searched again; a
  draw costing no more than the current one is walked to, the cheapest is kept;
- with at most :data:`EXHAUSTIVE_PLAYERS` players in play, a complete branch-and-bound
  search (:func:`_exhaustive`) over every way to seat them, within
  :data:`SEARCH_NODES` nodes.

Each fair choice of who sits out (up to ``SIT_OUT_PLAYERS // players`` of them, the lot's
first) gets the matchings and the local search; the ``SEARCHED_SIT_OUTS`` cheapest then get
the searches above, and a choice whose partners' floor cannot beat the best is passed over.

Every step stops at once when the draw costs the floor: no repeated partner beyond the
matching's and no repeated opponent, which is then the optimum. So the draw is **exact**
(proven) whenever it repeats no opponent; with two tables in play (the local search tries
every seating of eight) over every fair choice of who sits out; and with at most 16
players in play for the choices searched in full (every choice when there are at most
three), unless the complete search runs out of nodes (never in our checks). Otherwise
(17 to about 31 players, from about round 6 on, when every draw repeats opponents) it is
the best the searches found. Budgets are counts, never a clock, so the same inputs give
the same round on every machine. ``bench/melee_quality.py`` counts the rounds proven and
times the draws (figures in ``bench/NOTES.md``).
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice

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

__all__ = ["IndividualRound", "IndividualTable", "PlayerRecord", "draw_individual_round"]

Partnership = tuple[int, int]
Table = tuple[int, int, int, int]

# Fields of up to this many players in play are searched through (within SEARCH_NODES).
EXHAUSTIVE_PLAYERS = 16
# The nodes the complete search may visit: a few seconds at worst, never a wall clock
# (the same inputs must give the same round on every machine).
SEARCH_NODES = 20_000
# The local search starts again from a shaken draw up to KICK_PLAYERS // players times.
KICK_PLAYERS = 4000
# Fair choices of who sits out compared, at most SIT_OUT_PLAYERS // players of them; the
# SEARCHED_SIT_OUTS cheapest of them are searched in full.
SIT_OUT_PLAYERS = 2000
SEARCHED_SIT_OUTS = 3


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's past in the tournament, as the draw of the next round needs it.

    ``partners`` has one entry per round played, ``opponents`` two (a player faced twice
    is listed as often); ``ns`` and ``ew`` count the seats they had.
    """

    player: int
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    sit_outs: int = 0
    ns: int = 0
    ew: int = 0


@dataclass(frozen=True, slots=True)
class IndividualTable:
    """One table of four: ``ns`` is (North, South), ``ew`` is (East, West)."""

    table: int
    ns: Partnership
    ew: Partnership

    @property
    def players(self) -> tuple[int, int, int, int]:
        """North, East, South, West: the order of play."""
        return (self.ns[0], self.ew[0], self.ns[1], self.ew[1])


@dataclass(frozen=True, slots=True)
class IndividualRound:
    """One drawn round: its tables (1..k) and the players who sit it out."""

    round: int
    tables: tuple[IndividualTable, ...]
    sit_outs: tuple[int, ...]
    # Partnerships of players already partners before: 0 unless no draw avoided it.
    repeated_partners: int
    # Pairs of opponents at a table who had already faced each other.
    repeated_opponents: int


def draw_individual_round(
    players: Sequence[PlayerRecord], *, round_number: int, seed: int
) -> IndividualRound:
    """Draw round ``round_number`` for ``players`` (at least four); same inputs, same round.

    ``seed`` is the tournament's ``draw_seed``. Raises
    :class:`~tournaments.scheduling.matching.DrawError` naming the field of a wrong input.
    """
    _check(players, round_number, seed)
    past = _Past(players)
    # Each fair choice of who sits out is seated quickly (the matchings and the local
    # search); the few that came out cheapest are then searched in full.
    screened: list[tuple[tuple[int, int], int, _Seating, _TableCosts, int]] = []
    for order, sit_outs in enumerate(
        _fair_sit_outs(list(past.records.values()), round_number, seed)
    ):
        playing = [player for player in past.records if player not in sit_outs]
        costs = _TableCosts(past, playing, lot(seed, round_number, "partners"))
        partnerships = past.partnerships(playing, costs)
        # No draw repeats fewer partners than this matching: the floor of every draw's cost.
        floor = costs.weight * sum(costs.partnered[a][b] for a, b in partnerships)
        tables = [
            costs.sorted_table(x, y)
            for x, y in past.tables(partnerships, lot(seed, round_number, "tables"))
        ]
        if sum(map(costs.cost, tables)) > floor:
            tables = _improve(tables, costs, past)
        quick = _Seating.of(sit_outs, tables, costs)
        screened.append((quick.repeats, order, quick, costs, floor))
        if quick.repeats == (0, 0):
            break  # nothing repeats: no choice does better
    screened.sort(key=lambda entry: entry[:2])
    best = screened[0][2]
    for _repeats, _order, quick, costs, floor in screened[:SEARCHED_SIT_OUTS]:
        if (floor // costs.weight, 0) >= best.repeats:
            continue  # no seating of these players beats the best one found
        tables = [_as_table(x + y) for x, y in quick.split]
        tables = _perturbed(tables, costs, past, floor, lot(seed, round_number, "search"))
        if len(costs.bit) <= EXHAUSTIVE_PLAYERS and sum(map(costs.cost, tables)) > floor:
            tables = _exhaustive(tables, costs)
        searched = _Seating.of(quick.sit_outs, tables, costs)
        if searched.repeats < best.repeats:
            best = searched
    split = best.split

    seats = lot(seed, round_number, "sides")
    seated = [_seat(x, y, past.balance, seats) for x, y in split]
    lot(seed, round_number, "table numbers").shuffle(seated)
    return IndividualRound(
        round=round_number,
        tables=tuple(
            IndividualTable(number, ns, ew) for number, (ns, ew) in enumerate(seated, start=1)
        ),
        sit_outs=tuple(sorted(best.sit_outs)),
        repeated_partners=sum(1 for x, y in split for a, b in (x, y) if past.partnered(a, b)),
        repeated_opponents=sum(1 for x, y in split for a in x for b in y if past.faced(a, b)),
    )


@dataclass(frozen=True, slots=True)
class _Seating:
    """Tables found for one choice of who sits out, split into partnerships."""

    sit_outs: frozenset[int]
    split: list[tuple[Partnership, Partnership]]
    # (times partners partnered before, times opponents faced before): compared in order.
    repeats: tuple[int, int]

    @classmethod
    def of(cls, sit_outs: frozenset[int], tables: list[Table], costs: _TableCosts) -> _Seating:
        split = [costs.split(table) for table in tables]
        partnered, faced = costs.partnered, costs.faced
        return cls(
            sit_outs,
            split,
            (
                sum(partnered[a][b] for x, y in split for a, b in (x, y)),
                sum(faced[a][b] for x, y in split for a in x for b in y),
            ),
        )


class _Past:
    """The players' records, with the counts the matchings and the search ask for over and over."""

    def __init__(self, players: Sequence[PlayerRecord]) -> None:
        self.records = {record.player: record for record in sorted(players, key=lambda r: r.player)}
        self.partners = {p: Counter(record.partners) for p, record in self.records.items()}
        self.opponents = {p: Counter(record.opponents) for p, record in self.records.items()}
        self._balance = {p: seat_balance(r.ns, r.ew) for p, r in self.records.items()}

    def partnered(self, a: int, b: int) -> int:
        # Either side's record counts, should a caller's history be lopsided.
        return max(self.partners[a][b], self.partners[b][a])

    def faced(self, a: int, b: int) -> int:
        return max(self.opponents[a][b], self.opponents[b][a])

    def balance(self, players: Partnership) -> int:
        return self._balance[players[0]] + self._balance[players[1]]

    def partnerships(self, playing: list[int], costs: _TableCosts) -> list[Partnership]:
        partnered, faced, balance = costs.partnered, costs.faced, self._balance
        tiers = {
            (a, b): (
                partnered[a][b],
                0 if faced[a][b] else 1,
                side_clash(balance[a], -balance[b]),
                lot,
            )
            for (a, b), lot in costs.partner_lot.items()
        }
        return min_cost_perfect_matching(playing, lexicographic_costs(tiers, len(playing) // 2))

    def tables(
        self, partnerships: list[Partnership], rng: random.Random
    ) -> list[tuple[Partnership, Partnership]]:
        tiers = {
            (x, y): (
                sum(self.faced(a, b) for a in x for b in y),
                side_clash(self.balance(x), self.balance(y)),
                rng.randrange(LOT_RANGE),
            )
            for i, x in enumerate(partnerships)
            for y in partnerships[i + 1 :]
        }
        return min_cost_perfect_matching(
            partnerships, lexicographic_costs(tiers, len(partnerships) // 2)
        )


def _as_table(players: Sequence[int]) -> Table:
    a, b, c, d = sorted(players)
    return (a, b, c, d)


class _TableCosts:
    """The cost of a table of four, split into its best two partnerships, one integer each.

    A table costs ``weight`` for each time its partners already partnered, plus one for each
    time two of its opponents already faced each other; ``weight`` is more than all the
    opponents of a round can repeat, so summed over the tables the partners decide first.
    Of the three ways to split four players, the cheapest is kept, then the one whose
    partnerships' seat needs clash least, then the lot of its partnerships.
    """

    def __init__(self, past: _Past, playing: list[int], rng: random.Random) -> None:
        self.past = past
        self.partner_lot = {
            (a, b): rng.randrange(LOT_RANGE)
            for i, a in enumerate(playing)
            for b in playing[i + 1 :]
        }
        # The counts as plain lookups: the search asks for them millions of times.
        self.partnered = {a: dict.fromkeys(playing, 0) for a in playing}
        self.faced = {a: dict.fromkeys(playing, 0) for a in playing}
        for counts, history in ((self.partnered, past.partners), (self.faced, past.opponents)):
            for a in playing:
                for b, times in history[a].items():
                    # Either side's record counts, as in _Past.
                    if b in counts and times > counts[a][b]:
                        counts[a][b] = counts[b][a] = times
        most = max((self.faced[a][b] for a, b in self.partner_lot), default=0)
        self.weight = 4 * most * (len(playing) // 4) + 1
        # A table is known by the set of its players, one bit each.
        self.bit = {player: 1 << index for index, player in enumerate(playing)}
        self.cache: dict[int, tuple[int, tuple[Partnership, Partnership]]] = {}

    def sorted_table(self, x: Partnership, y: Partnership) -> Table:
        return _as_table(x + y)

    def key(self, table: Sequence[int]) -> int:
        bit = self.bit
        return bit[table[0]] | bit[table[1]] | bit[table[2]] | bit[table[3]]

    def cost(self, table: Sequence[int]) -> int:
        return self.best(self.key(table), table)[0]

    def split(self, table: Sequence[int]) -> tuple[Partnership, Partnership]:
        return self.best(self.key(table), table)[1]

    def best(self, key: int, table: Sequence[int]) -> tuple[int, tuple[Partnership, Partnership]]:
        known = self.cache.get(key)
        if known is not None:
            return known
        a, b, c, d = sorted(table)
        pa, pb, pc = self.partnered[a], self.partnered[b], self.partnered[c]
        fa, fb, fc = self.faced[a], self.faced[b], self.faced[c]
        # Opponents are the four pairs that are not partners: all six minus the two.
        every = fa[b] + fa[c] + fa[d] + fb[c] + fb[d] + fc[d]
        weight = self.weight
        options = [
            ((pa[b] + pc[d]) * weight + every - fa[b] - fc[d], ((a, b), (c, d))),
            ((pa[c] + pb[d]) * weight + every - fa[c] - fb[d], ((a, c), (b, d))),
            ((pa[d] + pb[c]) * weight + every - fa[d] - fb[c], ((a, d), (b, c))),
        ]
        cost = min(option[0] for option in options)
        splits = [split for option, split in options if option == cost]
        if len(splits) > 1:
            splits.sort(
                key=lambda s: (
                    side_clash(self.past.balance(s[0]), self.past.balance(s[1])),
                    self.partner_lot[s[0]] + self.partner_lot[s[1]],
                )
            )
        split = splits[0]
        self.cache[key] = (cost, split)
        return cost, split


def _improve(tables: list[Table], costs: _TableCosts, past: _Past) -> list[Table]:
    """Local search: re-seat the eight players of any two tables while that costs less.

    Every two tables of which one costs anything are tried in the 35 ways to seat their
    eight players at two tables (each split at its best), again whenever one of them
    changed; when no two tables can be bettered, the tables' matching over the
    partnerships found so far is tried (a move over three tables or more): if it lowers
    the cost, the search goes on from there, otherwise it ends.
    """
    tables = list(tables)
    while True:
        version = [0] * len(tables)
        tried: dict[tuple[int, int], tuple[int, int]] = {}
        improved = True
        while improved:
            improved = False
            for i in range(len(tables)):
                for j in range(i + 1, len(tables)):
                    if tried.get((i, j)) == (version[i], version[j]):
                        continue
                    better = _regroup(tables[i], tables[j], costs)
                    if better is not None:
                        tables[i], tables[j] = better
                        version[i] += 1
                        version[j] += 1
                        improved = True
                    tried[i, j] = (version[i], version[j])
        partnerships = [pair for table in tables for pair in costs.split(table)]
        rematched = [
            costs.sorted_table(x, y)
            for x, y in past.tables(partnerships, random.Random(len(tables)))
        ]
        if sum(map(costs.cost, rematched)) >= sum(map(costs.cost, tables)):
            return tables
        tables = rematched


def _perturbed(
    tables: list[Table], costs: _TableCosts, past: _Past, floor: int, rng: random.Random
) -> list[Table]:
    """Iterated local search: shake three tables of the best draw, search again, keep the best.

    Three tables (one of them costing something) get their twelve players seated anew by
    lot, then :func:`_improve` runs; a draw that costs no more than the best replaces it
    (so the search walks across draws of equal cost), a cheaper one also becomes the best.
    It stops at ``floor`` (no draw costs less) or after ``KICK_PLAYERS // players`` shakes.
    """
    if sum(map(costs.cost, tables)) == floor:
        return tables  # nothing costs less: the matchings found the optimum
    current = _improve(tables, costs, past)
    spent = sum(map(costs.cost, current))
    best, best_cost = current, spent
    if len(current) < 2:
        return best
    for _ in range(KICK_PLAYERS // (4 * len(current))):
        if best_cost == floor:
            break
        costly = [i for i, table in enumerate(current) if costs.cost(table)]
        chosen = {rng.choice(costly)} if costly else set()
        while len(chosen) < min(3, len(current)):
            chosen.add(rng.randrange(len(current)))
        picked = sorted(chosen)
        shaken = [player for i in picked for player in current[i]]
        rng.shuffle(shaken)
        trial = list(current)
        for n, i in enumerate(picked):
            trial[i] = _as_table(shaken[4 * n : 4 * n + 4])
        trial = _improve(trial, costs, past)
        cost = sum(map(costs.cost, trial))
        if cost <= spent:
            current, spent = trial, cost
            if cost < best_cost:
                best, best_cost = trial, cost
    return best


def _regroup(first: Table, second: Table, costs: _TableCosts) -> tuple[Table, Table] | None:
    """The cheapest two tables of the same eight players, if cheaper than these two."""
    best = costs.cost(first) + costs.cost(second)
    if best == 0:
        return None
    eight = first + second
    bits = [costs.bit[player] for player in eight]
    both = sum(bits)
    found = None
    for trio in _TRIOS:
        one = bits[0] | bits[trio[0]] | bits[trio[1]] | bits[trio[2]]
        known = costs.cache.get(one)
        cost = known[0] if known else costs.best(one, [eight[0], *(eight[k] for k in trio)])[0]
        if cost >= best:
            continue
        other = both ^ one
        known = costs.cache.get(other)
        if known is None:
            known = costs.best(other, [eight[k] for k in range(1, 8) if k not in trio])
        if cost + known[0] < best:
            best, found = cost + known[0], trio
    if found is None:
        return None
    return (
        _as_table([eight[0], *(eight[k] for k in found)]),
        _as_table([eight[k] for k in range(1, 8) if k not in found]),
    )


# The 35 ways to seat eight players at two tables: who joins the first player.
_TRIOS = tuple(combinations(range(1, 8), 3))


class _OutOfNodes(Exception):
    pass


def _exhaustive(tables: list[Table], costs: _TableCosts) -> list[Table]:
    """The cheapest tables of these players, by a complete search within :data:`SEARCH_NODES`.

    A branch-and-bound search: the lowest player without a table takes a seat with each
    three others in turn (cheapest first), and a branch is cut as soon as its tables plus a
    bound for the players left cost as much as the best draw known (the draw found so far,
    so only a strictly cheaper one replaces it). The bound gives each player left a quarter
    of the cheapest table they could sit at. When the search runs out of nodes, the best
    draw found so far is kept.
    """
    players = sorted(player for table in tables for player in table)
    cheapest = {
        player: min(
            costs.cost(_as_table((player, *trio)))
            for trio in combinations([p for p in players if p != player], 3)
        )
        for player in players
    }
    best_cost = sum(map(costs.cost, tables))
    best = list(tables)
    nodes = 0

    def bound(left: Sequence[int]) -> int:
        return -(-sum(cheapest[p] for p in left) // 4)

    def search(left: tuple[int, ...], spent: int, chosen: list[Table]) -> None:
        nonlocal best_cost, best, nodes
        if not left:
            best_cost, best = spent, list(chosen)
            return
        nodes += 1
        if nodes > SEARCH_NODES:
            raise _OutOfNodes
        first, rest = left[0], left[1:]
        options = []
        for trio in combinations(rest, 3):
            table = (first, trio[0], trio[1], trio[2])
            options.append((costs.cost(table), table))
        options.sort()
        for cost, table in options:
            if spent + cost >= best_cost:
                break
            remaining = tuple(p for p in rest if p not in table)
            if spent + cost + bound(remaining) >= best_cost:
                continue
            chosen.append(table)
            search(remaining, spent + cost, chosen)
            chosen.pop()

    if best_cost > bound(players):
        # Out of nodes: the best draw found so far stands.
        with contextlib.suppress(_OutOfNodes):
            search(tuple(players), 0, [])
    return best


def _fair_sit_outs(
    players: list[PlayerRecord], round_number: int, seed: int
) -> Iterator[frozenset[int]]:
    """Who may sit out, fairly: nobody twice before everyone once. The lot's choice first.

    Those who sat out least sit out; when they are more than the seats out, every way to
    choose among them is fair, and the draw compares them (up to ``SIT_OUT_PLAYERS //
    players`` of them, in the lot's order): the repeats decide, the lot only between equals.
    """
    out = len(players) % 4
    rng = lot(seed, round_number, "sit-outs")
    # A random key within each count: the lot among those who sat out least, topped up
    # from the next count when they are too few.
    order = sorted(players, key=lambda record: (record.sit_outs, rng.random()))
    if not out:
        yield frozenset()
        return
    last = order[out - 1].sit_outs
    sure = frozenset(record.player for record in order if record.sit_outs < last)
    pool = [record.player for record in order if record.sit_outs == last]
    choices = combinations(pool, out - len(sure))
    for chosen in islice(choices, max(1, SIT_OUT_PLAYERS // len(players))):
        yield sure | frozenset(chosen)


def _seat(
    first: Partnership,
    second: Partnership,
    balance: Callable[[Partnership], int],
    seats: random.Random,
) -> tuple[Partnership, Partnership]:
    """(NS, EW): the partnership that sat NS more often goes EW; equal balances by lot."""
    a, b = balance(first), balance(second)
    if a > b or (a == b and seats.random() < 0.5):
        first, second = second, first
    return _order(first, seats), _order(second, seats)


def _order(partnership: Partnership, seats: random.Random) -> Partnership:
    a, b = partnership
    return (b, a) if seats.random() < 0.5 else (a, b)


def _check(players: Sequence[PlayerRecord], round_number: int, seed: int) -> None:
    check_draw(round_number, seed)
    if len(players) < 4:
        raise DrawError("players", f"a table needs four players, not {len(players)}")
    seen: set[int] = set()
    for index, record in enumerate(players):
        where = f"players[{index}]"
        check_whole(record.player, f"{where}.player")
        if record.player in seen:
            raise DrawError(f"{where}.player", f"player {record.player} is listed twice")
        seen.add(record.player)
        for name in ("sit_outs", "ns", "ew"):
            check_whole(getattr(record, name), f"{where}.{name}", least=0)
        for name in ("partners", "opponents"):
            if record.player in getattr(record, name):
                raise DrawError(f"{where}.{name}", f"player {record.player} lists themself")
