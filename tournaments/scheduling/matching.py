"""The machinery every round-by-round draw shares: the seeded lot, tiered costs, the matching.

**The solver.** A draw is a minimum-cost perfect matching over the entrants (docs/formats.md:
"solved by a maintained graph library, not by a home-made greedy search"). We call
``rustworkx.max_weight_matching`` (the Qiskit project's graph library, Apache-2.0, binary
wheels on PyPI): Edmonds' blossom algorithm with primal-dual weights, O(n³), a port of
the very ``networkx.max_weight_matching`` that Tabbycat draws with, same arguments, same
guarantees, compiled, on 128-bit integer weights. On the complete graph of round 8 of a
256-team Swiss (32,640 pairs, the draw's own tiered costs), on this project's 2-core
machine, both find a matching of the same least cost: networkx 3.6 in 6.7 to 7.5 s,
rustworkx 0.18 in 0.10 to 0.16 s, graph building included (``bench/pairing_bench.py``
prints both; 200 nodes: 2.6 s and 0.03 s).
networkx would need a sparse candidate graph plus a proof that it keeps the optimum;
rustworkx solves the full graph, so every pair of entrants is a candidate and no
guarantee rests on pruning. networkx stays a development dependency: the tests check
rustworkx against it.

Other packages looked at: ``igraph`` weighs matchings on bipartite graphs only (its
general matching is unweighted); ``pymatching`` and ``fusion-blossom`` decode quantum
error-correcting codes (float weights, detector graphs); ``blossomv`` wraps Blossom V,
unmaintained since 2019 and under a research-only licence; the Swiss engines
(``py4swiss``, ``caissify-pairings``, ``pairing-core``, ``swisspair``) implement chess's
FIDE Dutch system (TRF files, colours, floaters) or Magic's rules, with no concours
ranks, no random tier and no mêlée.

**Costs.** Each candidate pair gets a tuple of integer costs, most important first;
:func:`lexicographic_costs` folds the tuple into one integer so that one unit of a tier
outweighs every possible sum of the tiers below it over a whole matching. The lowest tier
is always the lot: a 32-bit random cost per pair drawn from the seed, which makes the
optimum unique with near certainty, so the draw does not depend on how the solver breaks
ties internally.

**The lot.** :func:`lot` seeds a private ``random.Random`` from the tournament's
``draw_seed``, the round and the purpose (``"bye"``, ``"sides"``…), never from the global
generator nor from ``hash()`` of a string (salted per process): the same inputs give the
same round in every process. One stream per purpose keeps a change in one decision (say a
withdrawn team) from reshuffling the others.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import rustworkx

__all__ = [
    "LOT_RANGE",
    "DrawError",
    "check_draw",
    "check_whole",
    "lexicographic_costs",
    "lot",
    "min_cost_perfect_matching",
    "seat_balance",
    "side_clash",
]

Node = TypeVar("Node", bound=Hashable)

# The lowest tier of every cost: 32 random bits a pair.
LOT_RANGE = 1 << 32

# rustworkx computes with 128-bit integers; stay well inside them.
_MAX_WEIGHT = 1 << 120


class DrawError(ValueError):
    """A draw's input is wrong; ``field`` names the offending field (``teams[2].rank``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def check_whole(value: object, field: str, *, least: int | None = None) -> None:
    """Refuse anything but an ``int`` (a bool is no number here) of at least ``least``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise DrawError(field, f"must be a whole number, not {value!r}")
    if least is not None and value < least:
        raise DrawError(field, f"must be {least} or more, not {value!r}")


def check_draw(round_number: int, seed: int) -> None:
    """The arguments every draw takes: a round from 1 and the tournament's seed."""
    check_whole(round_number, "round_number", least=1)
    check_whole(seed, "seed")


def lot(seed: int, round_number: int, purpose: str) -> random.Random:
    """The private random stream of one decision of one round, the same in every process."""
    # A str seed goes through SHA-512 (random.seed version 2), never through hash().
    return random.Random(f"{seed}-{round_number}-{purpose}")


def lexicographic_costs(
    tiers: Mapping[tuple[Node, Node], Sequence[int]], pairs: int
) -> dict[tuple[Node, Node], int]:
    """One integer per pair, ordering matchings of ``pairs`` pairs by their tiers in turn.

    ``tiers`` gives each candidate pair its costs, most important first, all ``>= 0``.
    Going up from the lowest tier, each tier's unit is one more than the largest total the
    tiers below can reach over ``pairs`` pairs, so a matching with a smaller sum in a
    higher tier always costs less whatever the lower tiers say.
    """
    if not tiers:
        return {}
    depth = len(next(iter(tiers.values())))
    combined = dict.fromkeys(tiers, 0)
    unit = 1
    for level in reversed(range(depth)):
        for pair, costs in tiers.items():
            combined[pair] += costs[level] * unit
        unit = pairs * max(combined.values()) + 1
    return combined


def min_cost_perfect_matching(
    nodes: Sequence[Node], costs: Mapping[tuple[Node, Node], int]
) -> list[tuple[Node, Node]]:
    """The perfect matching of ``nodes`` of least total cost, pairs in the order of ``nodes``.

    ``costs`` must give every candidate pair (the draws pass all of them, so a perfect
    matching always exists for an even number of nodes). Each pair comes back as it is
    keyed in ``costs``, sorted by the position of its first node.
    """
    if len(nodes) % 2:
        raise ValueError(f"a perfect matching needs an even number of nodes, not {len(nodes)}")
    if not nodes:
        return []
    index = {node: i for i, node in enumerate(nodes)}
    # Maximising (ceiling - cost) over maximum-cardinality matchings minimises the cost
    # over perfect matchings; every weight stays positive.
    ceiling = max(costs.values()) + 1
    if ceiling * len(nodes) >= _MAX_WEIGHT:
        raise ValueError(f"matching costs too large for the solver: {ceiling}")
    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(nodes)
    graph.add_edges_from([(index[a], index[b], ceiling - cost) for (a, b), cost in costs.items()])
    matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matched) != len(nodes):
        raise ValueError("no perfect matching over the candidate pairs")
    pairs = []
    for i, j in matched:
        a, b = nodes[min(i, j)], nodes[max(i, j)]
        pairs.append((a, b) if (a, b) in costs else (b, a))
    pairs.sort(key=lambda pair: index[pair[0]])
    return pairs


def seat_balance(ns: int, ew: int) -> int:
    """How much more often an entrant sat NS than EW (negative: EW more often)."""
    return ns - ew


def side_clash(first: int, second: int) -> int:
    """How far one of two entrants must stray from an even seat balance when they meet.

    Two entrants who both sat NS more often (or both EW) cannot both be rebalanced: the one
    less out of balance takes the side it had more of. Zero when their needs differ.
    """
    if first * second <= 0:
        return 0
    return min(abs(first), abs(second))
