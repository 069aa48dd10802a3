"""The draws' shared machinery: tiered costs, the matching solver against networkx, the lot."""

from __future__ import annotations

import networkx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling.matching import (
    lexicographic_costs,
    lot,
    min_cost_perfect_matching,
    side_clash,
)

from .pairing_world import perfect_matchings


@st.composite
def tiered_graphs(draw: st.DrawFn, most: int = 8) -> tuple[list[int], dict]:
    count = 2 * draw(st.integers(1, most // 2))
    nodes = list(range(count))
    tiers = {
        (a, b): (draw(st.integers(0, 2)), draw(st.integers(0, 50)), draw(st.integers(0, 9)))
        for a in nodes
        for b in nodes[a + 1 :]
    }
    return nodes, tiers


@given(tiered_graphs())
@settings(max_examples=80, deadline=None)
def test_one_unit_of_a_tier_outweighs_everything_below_it(graph):
    nodes, tiers = graph
    costs = lexicographic_costs(tiers, len(nodes) // 2)

    def summed(matching):
        return tuple(sum(column) for column in zip(*(tiers[p] for p in matching), strict=True))

    matchings = list(perfect_matchings(nodes))
    by_cost = min(matchings, key=lambda m: sum(costs[p] for p in m))
    assert summed(by_cost) == min(summed(m) for m in matchings)
    assert summed(min_cost_perfect_matching(nodes, costs)) == summed(by_cost)


@given(st.integers(10, 40), st.randoms(use_true_random=False))
@settings(max_examples=25, deadline=None)
def test_the_solver_finds_the_same_least_cost_as_networkx(half, rng):
    nodes = list(range(0, 4 * half, 2))
    costs = {(a, b): rng.randrange(10**12) for i, a in enumerate(nodes) for b in nodes[i + 1 :]}
    ours = min_cost_perfect_matching(nodes, costs)
    graph = networkx.Graph()
    graph.add_weighted_edges_from((a, b, cost) for (a, b), cost in costs.items())
    theirs = networkx.min_weight_matching(graph)
    assert sorted(x for pair in ours for x in pair) == nodes
    assert sum(costs[p] for p in ours) == sum(costs[min(p), max(p)] for p in theirs)


def test_pairs_come_back_as_keyed_in_node_order():
    costs = {
        ("c", "a"): 1,
        ("a", "b"): 5,
        ("c", "b"): 5,
        ("a", "d"): 1,
        ("b", "d"): 1,
        ("c", "d"): 5,
    }
    assert min_cost_perfect_matching(["a", "b", "c", "d"], costs) == [("b", "d"), ("c", "a")]


@pytest.mark.parametrize(("one_three", "cheapest"), [(1, [(0, 2), (1, 3)]), (3, [(0, 1), (2, 3)])])
def test_the_solver_tells_apart_costs_one_unit_apart_beyond_64_bits(one_three, cheapest):
    # Tiered costs of a big field pass 2**63: the solver must still count every unit.
    big = 2**100
    costs = {(0, 1): big + 3, (2, 3): big, (0, 2): big + 1, (1, 3): big + one_three}
    costs |= {(0, 3): 2 * big, (1, 2): 2 * big}
    assert min_cost_perfect_matching([0, 1, 2, 3], costs) == cheapest


def test_an_odd_number_of_nodes_has_no_perfect_matching():
    with pytest.raises(ValueError, match="even number"):
        min_cost_perfect_matching([1, 2, 3], {(1, 2): 0, (1, 3): 0, (2, 3): 0})


def test_the_lot_is_pinned_so_a_stored_seed_draws_the_same_rounds_after_an_upgrade():
    # A tournament keeps its draw_seed for life, and a round deleted and drawn again must
    # come out as before: how the lot is seeded may not change from one version to the next.
    assert lot(2024, 3, "bye").randrange(1000) == 442
    assert lot(2024, 3, "sides").randrange(1000) == 719
    assert lot(2024, 4, "bye").randrange(1000) == 814


@pytest.mark.parametrize(
    ("first", "second", "clash"),
    [(2, 1, 1), (-3, -2, 2), (2, -1, 0), (0, 3, 0), (0, 0, 0)],
)
def test_two_entrants_clash_over_sides_only_when_both_need_the_same(first, second, clash):
    assert side_clash(first, second) == clash
