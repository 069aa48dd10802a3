"""Times the round-by-round draws on big fields, and the matching solver against networkx's.

    .venv/bin/python bench/pairing_bench.py                # everything (networkx: ~7 s more)
    .venv/bin/python bench/pairing_bench.py --no-networkx  # the draws only

Each field is played out on paper first, the draw itself making every round and random
results filling the standings, then the next round's draw is timed:

- a 256-team Swiss after 7 rounds (its round 8);
- a 200-team concours after 4 rounds, drawn at random and by ranking (its round 5);
- a 200-player individual (mêlée) after 6 rounds (its round 7), also in CPU seconds.

Then the complete graph of the Swiss round (every pair of the 256 teams a candidate, the
draw's own tiered costs) is handed to ``networkx.max_weight_matching``, the pure-Python
blossom Tabbycat uses, and to ``rustworkx.max_weight_matching``, the compiled port of it
that the draws use; both must find a matching of the same cost.

Each figure is the best of three runs, wall clock (the machine is shared: the median is
shown too), networkx's a single run. The aim is under 2 s a draw.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tournaments.scheduling.teams as team_draws
from bench.timing import timed
from tests.tournaments.draws.pairing_world import IndividualTournament, TeamTournament
from tournaments.scheduling import PairBy
from tournaments.scheduling.matching import min_cost_perfect_matching

RUNS = 3


def report(label: str, figures: tuple[float, float]) -> None:
    best, median = figures
    print(f"  {label:<52} {best:7.3f} s  (median {median:.3f} s)")


def team_field(teams: int, pair_by: PairBy, rounds: int) -> TeamTournament:
    tournament = TeamTournament(list(range(1, teams + 1)), pair_by, seed=20240901)
    tournament.play_rounds(rounds, random.Random(7))
    return tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-networkx", action="store_true", help="skip the solver comparison")
    args = parser.parse_args()

    print("Draws (best of 3):")
    swiss = team_field(256, PairBy.MATCH_POINTS, 7)
    report("Swiss, 256 teams, round 8", timed(swiss.draw, RUNS))
    drawn = swiss.draw()
    print(f"    {len(drawn.matches)} matches, {drawn.repeats} repeats")
    for pair_by, name in ((PairBy.LOT, "at random"), (PairBy.RANK, "by ranking")):
        concours = team_field(200, pair_by, 4)
        report(f"concours drawn {name}, 200 teams, round 5", timed(concours.draw, RUNS))
    melee = IndividualTournament(list(range(1, 201)), seed=20240901)
    melee.play_rounds(6)
    report("individual, 200 players, round 7", timed(melee.draw, RUNS))
    # CPU seconds too: on a shared machine the wall clock mostly measures the others.
    cpu = []
    for _ in range(RUNS):
        start = time.process_time()
        melee.draw()
        cpu.append(time.process_time() - start)
    print(f"    CPU {min(cpu):.3f} s (best of {RUNS})")
    drawn_melee = melee.draw()
    print(
        f"    {len(drawn_melee.tables)} tables, {drawn_melee.repeated_partners} repeated"
        f" partners, {drawn_melee.repeated_opponents} repeated opponents"
    )

    if args.no_networkx:
        return
    # The Swiss round's own graph: catch what the draw hands the solver.
    caught: dict[str, Any] = {}

    def catching(nodes: Any, costs: Any) -> Any:
        caught.update(nodes=nodes, costs=costs)
        return min_cost_perfect_matching(nodes, costs)

    team_draws.min_cost_perfect_matching = catching  # type: ignore[assignment]
    swiss.draw()
    team_draws.min_cost_perfect_matching = min_cost_perfect_matching
    nodes, costs = caught["nodes"], caught["costs"]
    print(f"Solvers on the Swiss round's complete graph ({len(nodes)} teams, {len(costs)} pairs):")

    import networkx
    import rustworkx

    ceiling = max(costs.values()) + 1
    found: dict[str, int] = {}

    def with_networkx() -> None:
        graph = networkx.Graph()
        graph.add_weighted_edges_from((a, b, ceiling - cost) for (a, b), cost in costs.items())
        matched = networkx.max_weight_matching(graph, maxcardinality=True)
        found["networkx"] = sum(costs.get((a, b), costs.get((b, a), 0)) for a, b in matched)

    def with_rustworkx() -> None:
        found["rustworkx"] = sum(costs[pair] for pair in min_cost_perfect_matching(nodes, costs))

    report(f"networkx {networkx.__version__} max_weight_matching (once)", timed(with_networkx, 1))
    report(f"rustworkx {rustworkx.__version__} max_weight_matching", timed(with_rustworkx, RUNS))
    print(f"  same least cost: {found['networkx'] == found['rustworkx']}")


if __name__ == "__main__":
    main()
