"""Times a full standings recompute and the club ratings on a 64-team round robin, beside the floor.

    .venv/bin/python bench/standings_bench.py                       # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/standings_bench.py                   # PostgreSQL

Builds, in a throwaway database, a single round robin of 64 teams with every match played
(2,016 matches, 16 deals each: 32,256 deals), then times

- the floor: the one SQL aggregate over the same deals that a recompute from the deals
  would at least read (sums of the scores and counts, grouped by match);
- a full recompute of the standings for all 63 rounds (read every result, order every
  round): once with nothing stored (all 4,032 rows written), once with the rows of the
  last round out of date (what a deal of the current round leaves: only those rows are
  rewritten);
- a full rebuild of the club's ratings, rating history and season table.

The recompute does NOT read the deals: each match stores its totals and each side's deal
counts, derived from its deals by the deal services' replay on every change (see
Match.count_deals). So it reads 2,016 match rows, not 32,256 deals, and its ratio to the
floor can go below 1. For comparison the bench also times `deal_stats`, the fresh count of
the same figures from the deals (what the recompute read before the counts were stored).

Each figure is the best of several runs (the machine is shared); the median is shown too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def timed(
    action: Callable[[], object], runs: int, before: Callable[[], object] | None = None
) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()  # untimed: set the stage
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection

    logging_off()
    # Never the test database of anyone else: a name of our own, dropped at the end.
    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "bench_standings.sqlite3")
    else:
        test["NAME"] = "bench_standings"
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args, connection)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def logging_off() -> None:
    import logging

    logging.getLogger("tournaments").setLevel(logging.WARNING)


def run(args: argparse.Namespace, connection) -> None:  # type: ignore[no-untyped-def]
    from bench.bigtournament import build_round_robin_tournament
    from bench.deal_counts import deal_stats
    from tournaments.models import Deal, Match, Standing
    from tournaments.services.ratings import recompute_ratings
    from tournaments.standings.store import recompute_standings

    start = time.perf_counter()
    tournament = build_round_robin_tournament(args.teams, args.deals)
    built = time.perf_counter() - start
    matches = Match.objects.filter(tournament=tournament).count()
    deals = Deal.objects.filter(match__tournament=tournament).count()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    deal_table, match_table = Deal._meta.db_table, Match._meta.db_table
    floor_sql = (
        f"SELECT d.match_id, SUM(d.ns_score), SUM(d.ew_score), COUNT(*) "
        f"FROM {deal_table} d JOIN {match_table} m ON m.id = d.match_id "
        f"WHERE m.tournament_id = %s GROUP BY d.match_id"
    )

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(floor_sql, [tournament.pk])
            assert len(cursor.fetchall()) == matches

    def standings() -> None:
        assert recompute_standings(tournament.pk, force=True)

    def nothing_stored() -> None:
        Standing.objects.filter(tournament=tournament).delete()

    def last_round_stale() -> None:
        last = Standing.objects.filter(tournament=tournament).order_by("-round_number")[0]
        Standing.objects.filter(tournament=tournament, round_number=last.round_number).update(
            rank=0
        )

    def ratings() -> None:
        recompute_ratings(tournament.club_id, force=True)

    floor()  # warm the caches once, for every figure alike
    floor_best, floor_median = timed(floor, args.runs)
    fresh_best, fresh_median = timed(lambda: deal_stats(tournament.pk), args.runs)
    standings()
    standings_best, standings_median = timed(standings, args.runs, nothing_stored)
    stale_best, stale_median = timed(standings, args.runs, last_round_stale)
    ratings_best, ratings_median = timed(ratings, max(2, args.runs // 2))
    rows = Standing.objects.filter(tournament=tournament).count()

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    print(
        f"tournament: {args.teams} teams, {matches} matches, {deals} deals "
        f"(built in {built:.1f} s); {rows} standing rows"
    )
    print(f"{'':34}{'best':>9}{'median':>9}")
    print(f"{'floor: one SQL aggregate':34}{floor_best * 1000:8.1f}ms{floor_median * 1000:8.1f}ms")
    print(
        f"{'deal counts afresh (deal_stats)':34}{fresh_best * 1000:8.1f}ms"
        f"{fresh_median * 1000:8.1f}ms"
    )
    print(
        f"{'standings, all rounds, all written':34}{standings_best * 1000:8.1f}ms"
        f"{standings_median * 1000:8.1f}ms"
    )
    print(
        f"{'standings, all rounds, 1 round new':34}{stale_best * 1000:8.1f}ms"
        f"{stale_median * 1000:8.1f}ms"
    )
    print(
        f"{'club ratings + history + season':34}{ratings_best * 1000:8.1f}ms"
        f"{ratings_median * 1000:8.1f}ms"
    )
    print(
        f"ratio standings / floor: {standings_best / floor_best:.1f}x all written, "
        f"{stale_best / floor_best:.1f}x one round new (best of {args.runs})"
    )
    print(
        "note: the recompute reads each match's stored totals and per-side deal counts "
        "(kept by the deal services), not the deals; the floor reads the deals"
    )


if __name__ == "__main__":
    main()
