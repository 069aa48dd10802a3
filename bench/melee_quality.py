"""How good and how fast the mêlée draw is, round by round, over the fields clubs play.

    .venv/bin/python bench/melee_quality.py                      # 12..64 players, 12 rounds
    .venv/bin/python bench/melee_quality.py --reference 200      # and a 200-start check

Each field (players 12 to 64, three seeds) is drawn round by round by the real draw for
12 rounds. A round's draw is **proven optimal** when it repeats no opponent (and no
partner the partnership matching could avoid: its floor), when eight players are in play
(the local search tries every seating), or when at most 16 players are in play (the
complete search, ``search.EXHAUSTIVE_PLAYERS``) and every fair choice of who sits out
was searched in full (``draw.SEARCHED_SIT_OUTS``). The other rounds are the
best the searches found; ``--reference N`` runs the local search from N random seatings
for each of them and counts the rounds where that finds a cheaper draw. The times are CPU
seconds of one draw (the machine is shared: CPU time moves less with the load than wall
clock).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tournaments.draws.pairing_world import IndividualTournament
from tournaments.scheduling.individual import draw, search, sit_outs
from tournaments.scheduling.individual.costs import Past, TableCosts, as_table
from tournaments.scheduling.matching import lot

FIELDS = (9, 11, 12, 13, 15, 16, 17, 19, 20, 23, 24, 28, 32, 40, 48, 64)


def cheaper_by_restarts(melee: IndividualTournament, drawn, starts: int) -> bool:  # type: ignore[no-untyped-def]
    records = melee.records()
    number = len(melee.rounds) + 1
    past = Past(records)
    playing = sorted(p for table in drawn.tables for p in table.players)
    costs = TableCosts(past, playing, lot(melee.seed, number, "partners"))
    found = sum(costs.cost(table.players) for table in drawn.tables)
    rng = random.Random(number)
    for _ in range(starts):
        order = list(playing)
        rng.shuffle(order)
        tables = [as_table(order[i : i + 4]) for i in range(0, len(order), 4)]
        if sum(map(costs.cost, search.improve(tables, costs, past))) < found:
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--reference", type=int, default=0, help="random starts to check with")
    args = parser.parse_args()
    print("players  rounds  proven  searched  beaten  repeated opponents  slowest draw (CPU)")
    for players in FIELDS:
        rounds = proven = searched = beaten = repeats = 0
        slowest = 0.0
        for seed in range(args.seeds):
            melee = IndividualTournament(list(range(1, players + 1)), seed=seed)
            for number in range(1, args.rounds + 1):
                choices = sum(
                    1 for _ in sit_outs.fair_sit_outs(melee.records(), number, melee.seed)
                )
                start = time.process_time()
                drawn = melee.draw()
                slowest = max(slowest, time.process_time() - start)
                rounds += 1
                repeats += drawn.repeated_opponents
                in_play = 4 * len(drawn.tables)
                if (
                    drawn.repeated_opponents == 0
                    or in_play == 8
                    or (in_play <= search.EXHAUSTIVE_PLAYERS and choices <= draw.SEARCHED_SIT_OUTS)
                ):
                    proven += 1
                else:
                    searched += 1
                    if args.reference and cheaper_by_restarts(melee, drawn, args.reference):
                        beaten += 1
                melee.play(drawn)
        shown = str(beaten) if args.reference else "-"
        print(
            f"{players:7}  {rounds:6}  {proven:6}  {searched:8}  {shown:>6}  {repeats:18}"
            f"  {slowest:8.3f} s"
        )


if __name__ == "__main__":
    main()
