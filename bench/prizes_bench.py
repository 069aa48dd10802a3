"""Times a 400-entry prize list (docs/prizes.md): the arithmetic alone and the stored recompute.

    .venv/bin/python bench/prizes_bench.py                          # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/prizes_bench.py                      # PostgreSQL

Builds, in a throwaway database, a finished concours of `--entries` teams: one round drawn
(every team at a table, a bye for an odd one), the final standings stored with a tie every
seventh place, a tenth of the teams tagged Ladies; the prize table pays 60 % of the fees
plus 100 added over the *formule van 4* up to the last place, a ham for the last and the
three best Ladies. Then times

- the arithmetic alone (`prizes.awards.prize_list` over the 400 placed entries);
- the whole recompute (`recompute_prize_list`: read the standings, the fees due and the
  categories, compute, store), the stored list removed before each run.

Each figure is the best of `--runs` runs (the machine is shared); the median is shown too.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.timing import timed


def prize_table(entries: int) -> dict[str, object]:
    return {
        "pool": {"percent_of_fees": 60, "added": 100},
        "rounding": 1,
        "lines": [
            {"place": 1, "percent": 20},
            {"place": 2, "percent": 12},
            {"place": 3, "percent": 8},
            {"place": 4, "percent": 5},
            {"every": 4, "from": 8, "to": entries, "amount": 5},
            {"last": True, "kind": "Ham"},
            {"category": "Ladies", "places": [1, 3], "amount": 15, "kind": "Flowers"},
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=400)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    import django

    django.setup()
    import logging

    from django.db import connection

    logging.getLogger("tournaments").setLevel(logging.WARNING)
    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "bench_prizes.sqlite3")
    else:
        test["NAME"] = "bench_prizes"
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args, connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def build(entries: int) -> int:
    """The finished concours and its stored final standings; returns its id."""
    from django.db import transaction

    from club.models import Club, Player
    from tournaments.models import Match, Round, Standing, Team, Tournament

    with transaction.atomic():
        club = Club.objects.create(name="Prizes bench", slug="prizes-bench")
        people = Player.objects.bulk_create(
            [Player(first_name=f"P{i}", last_name="Bench") for i in range(2 * entries)]
        )
        tournament = Tournament.objects.create(
            club=club,
            name="Concours",
            slug="concours",
            starts_on=datetime.date(2026, 12, 5),
            status=Tournament.Status.FINISHED,
            entry_fee=Decimal("10.00"),
            prizes=prize_table(entries),
        )
        teams = Team.objects.bulk_create(
            Team(
                tournament=tournament,
                name=f"Team {i + 1}",
                first_player=people[2 * i],
                second_player=people[2 * i + 1],
                seed=i + 1,
                category="Ladies" if i % 10 == 3 else "",
            )
            for i in range(entries)
        )
        first = Round.objects.create(tournament=tournament, number=1, is_closed=True)
        Match.objects.bulk_create(
            Match(
                tournament=tournament,
                round=first,
                table=i // 2 + 1 if i + 1 < len(teams) else None,
                ns_team=teams[i],
                ew_team=teams[i + 1] if i + 1 < len(teams) else None,
                status=Match.Status.FINISHED,
            )
            for i in range(0, len(teams), 2)
        )
        # A tie every seventh place: the entry shares the rank of the one before.
        ranks, rank = [], 1
        for i in range(entries):
            rank = rank if i and i % 7 == 0 else i + 1
            ranks.append(rank)
        Standing.objects.bulk_create(
            Standing(
                tournament=tournament,
                round_number=1,
                team=team,
                rank=ranks[i],
                shared_rank=ranks.count(ranks[i]) > 1,
            )
            for i, team in enumerate(teams)
        )
    return tournament.pk


def run(args: argparse.Namespace, vendor: str) -> None:
    from prizes.awards import prize_list, read_prizes
    from prizes.models import PrizeList
    from prizes.selectors import fees_due, final_entries
    from prizes.services import recompute_prize_list
    from tournaments.models import Tournament

    tournament_id = build(args.entries)
    tournament = Tournament.objects.get(pk=tournament_id)
    entries = final_entries(tournament)
    fees = fees_due(tournament)
    prizes = read_prizes(tournament.prizes)
    result = prize_list(prizes, entries, fees)
    print(
        f"{args.entries} entries, fees due {fees}, pool {result.pool}: {len(result.awards)} "
        f"prizes, {result.awarded} awarded, {result.retained} retained ({vendor})"
    )
    best, median = timed(lambda: prize_list(prizes, entries, fees), args.runs)
    print(f"arithmetic alone        best {best * 1000:7.2f} ms   median {median * 1000:7.2f} ms")

    def clear() -> None:
        PrizeList.objects.filter(tournament_id=tournament_id).delete()

    best, median = timed(lambda: recompute_prize_list(tournament_id), args.runs, before=clear)
    print(f"recompute, stored       best {best * 1000:7.2f} ms   median {median * 1000:7.2f} ms")
    best, median = timed(lambda: recompute_prize_list(tournament_id), args.runs)
    print(f"recompute, unchanged    best {best * 1000:7.2f} ms   median {median * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
