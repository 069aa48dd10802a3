"""The searches for cheaper tables: the local search, its iterated form and the complete search."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from itertools import combinations

from .costs import Past, Table, TableCosts, as_table

# Fields of up to this many players in play are searched through (within SEARCH_NODES).
EXHAUSTIVE_PLAYERS = 16
# The nodes the complete search may visit: a few seconds at worst, never a wall clock
# (the same inputs must give the same round on every machine).
SEARCH_NODES = 20_000
# The local search starts again from a shaken draw up to KICK_PLAYERS // players times.
KICK_PLAYERS = 4000


def improve(tables: list[Table], costs: TableCosts, past: Past) -> list[Table]:
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
                    better = regroup(tables[i], tables[j], costs)
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


def perturbed(
    tables: list[Table], costs: TableCosts, past: Past, floor: int, rng: random.Random
) -> list[Table]:
    """Iterated local search: shake three tables of the best draw, search again, keep the best.

    Three tables (one of them costing something) get their twelve players seated anew by
    lot, then :func:`improve` runs; a draw that costs no more than the best replaces it
    (so the search walks across draws of equal cost), a cheaper one also becomes the best.
    It stops at ``floor`` (no draw costs less) or after ``KICK_PLAYERS // players`` shakes.
    """
    if sum(map(costs.cost, tables)) == floor:
        return tables  # nothing costs less: the matchings found the optimum
    current = improve(tables, costs, past)
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
            trial[i] = as_table(shaken[4 * n : 4 * n + 4])
        trial = improve(trial, costs, past)
        cost = sum(map(costs.cost, trial))
        if cost <= spent:
            current, spent = trial, cost
            if cost < best_cost:
                best, best_cost = trial, cost
    return best


def regroup(first: Table, second: Table, costs: TableCosts) -> tuple[Table, Table] | None:
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
        as_table([eight[0], *(eight[k] for k in found)]),
        as_table([eight[k] for k in range(1, 8) if k not in found]),
    )


# The 35 ways to seat eight players at two tables: who joins the first player.
_TRIOS = tuple(combinations(range(1, 8), 3))


class _OutOfNodes(Exception):
    pass


def exhaustive(tables: list[Table], costs: TableCosts) -> list[Table]:
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
            costs.cost(as_table((player, *trio)))
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
