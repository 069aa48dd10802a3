"""Times a full standings recompute and the club ratings on a 64-team round robin, beside the floor.

    .venv/bin/python bench/standings_bench.py                       # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/standings_bench.py                   # PostgreSQL

Builds, in a throwaway database, a single round robin of 64 teams with every match played
(2,016 matches, 16 deals each: 32,256 deals), then times

- the floor: the one SQL aggregate over the same deals that a recompute from the deals
  would at least read (sums of the scores and counts, grouped by match);
- the standings recompute (only the latest round and the live table are stored; a past
  round is computed when a page asks for it): with nothing stored (the latest round's 64
  rows written, as the first recompute does); after one match of the last round changed
  (what a deal of the current round does); after the tie-breaks changed (their order
  swapped: every round's digest moves, the latest round's ranks are written); and forced
  (`force`, what a repair does), the latest round's rows out of date;
- what the recompute no longer does, paid by the first page that asks: one past round
  computed (the results read, tallied up to it and ranked), the rank chart's 62 past rounds
  computed, and either read again once kept (in the process, then from the shared cache);
- a full rebuild of the club's ratings, rating history and season table.

The recompute does NOT read the deals: each match stores its totals and each side's deal
counts, derived from its deals by the deal services' replay on every change (see
Match.count_deals). So it reads 2,016 match rows, not 32,256 deals, and its ratio to the
floor can go below 1. For comparison the bench also times `deal_stats`, the fresh count of
the same figures from the deals (what the recompute read before the counts were stored).

Each figure is the best of several runs (the machine is shared); the median is shown too.
`--profile` adds where a recompute's time goes (cProfile, so about twice as slow), step by
step, each beside the floor.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="where a recompute's time goes")
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
    from django.core.cache import cache
    from django.db.models import F

    from bench.bigtournament import build_round_robin_tournament
    from bench.deal_counts import deal_stats
    from tournaments.models import Deal, Match, Standing, Tournament
    from tournaments.selectors import standings as standings_selectors
    from tournaments.services.ratings import recompute_ratings
    from tournaments.services.standings import recompute_standings
    from tournaments.standings import DEFAULT_TIE_BREAKS

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

    def standings_after_change() -> None:
        assert recompute_standings(tournament.pk)

    def nothing_stored() -> None:
        Standing.objects.filter(tournament=tournament).delete()

    last_round = Standing.objects.filter(tournament=tournament).order_by("-round_number")
    last_match = Match.objects.filter(
        tournament=tournament, ew_team__isnull=False, round__number=args.teams - 1
    ).first()
    assert last_match is not None
    step = [1]

    def last_round_stale() -> None:
        number = last_round[0].round_number
        Standing.objects.filter(tournament=tournament, round_number=number).update(rank=0)

    def last_round_changed() -> None:
        # As a corrected deal does: the match's totals move and the change is recorded.
        step[0] = -step[0]
        Match.objects.filter(pk=last_match.pk).update(ns_total=F("ns_total") + step[0] * 10)
        Tournament.objects.filter(pk=tournament.pk).update(change_seq=F("change_seq") + 1)

    # The tie-breaks in use, then the same after match points in reverse order.
    orders = [list(tournament.tie_breaks or DEFAULT_TIE_BREAKS), []]
    orders[1] = orders[0][:1] + orders[0][1:][::-1]

    def tie_breaks_changed() -> None:
        # As the settings service does: the new order stored and the change recorded.
        orders.reverse()
        Tournament.objects.filter(pk=tournament.pk).update(
            tie_breaks=orders[0], change_seq=F("change_seq") + 1
        )

    def ratings() -> None:
        recompute_ratings(tournament.club_id, force=True)

    floor()  # warm the caches once, for every figure alike
    floor_best, floor_median = timed(floor, args.runs)
    fresh_best, fresh_median = timed(lambda: deal_stats(tournament.pk), args.runs)
    standings()
    standings_best, standings_median = timed(standings, args.runs, before=nothing_stored)
    changed_best, changed_median = timed(
        standings_after_change, args.runs, before=last_round_changed
    )
    stale_best, stale_median = timed(standings, args.runs, before=last_round_stale)
    tie_best, tie_median = timed(standings_after_change, args.runs, before=tie_breaks_changed)
    # What a page pays instead: a past round, and the rank chart's every past round.
    shown = Tournament.objects.get(pk=tournament.pk)
    middle_round, past_rounds = args.teams // 2, range(1, args.teams - 1)

    def nothing_kept() -> None:
        standings_selectors._kept.clear()
        cache.clear()

    def one_past_round() -> None:
        assert standings_selectors.past_round_rows(shown, [middle_round])

    def every_past_round() -> None:
        assert len(standings_selectors.past_round_rows(shown, past_rounds)) == len(past_rounds)

    past_best, past_median = timed(one_past_round, args.runs, before=nothing_kept)
    chart_best, chart_median = timed(every_past_round, args.runs, before=nothing_kept)
    kept_best, kept_median = timed(every_past_round, args.runs)
    shared_best, shared_median = timed(
        every_past_round, args.runs, before=standings_selectors._kept.clear
    )
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
        f"{'standings, nothing stored before':34}{standings_best * 1000:8.1f}ms"
        f"{standings_median * 1000:8.1f}ms"
    )
    print(
        f"{'standings, one match changed':34}{changed_best * 1000:8.1f}ms"
        f"{changed_median * 1000:8.1f}ms"
    )
    print(f"{'standings, forced (force)':34}{stale_best * 1000:8.1f}ms{stale_median * 1000:8.1f}ms")
    print(f"{'standings, tie-breaks changed':34}{tie_best * 1000:8.1f}ms{tie_median * 1000:8.1f}ms")
    for label, best, median in (
        (f"a page: round {middle_round} computed", past_best, past_median),
        (f"a page: {len(past_rounds)} past rounds computed", chart_best, chart_median),
        ("  the same, kept in the process", kept_best, kept_median),
        ("  the same, from the shared cache", shared_best, shared_median),
    ):
        print(f"{label:34}{best * 1000:8.1f}ms{median * 1000:8.1f}ms")
    print(
        f"{'club ratings + history + season':34}{ratings_best * 1000:8.1f}ms"
        f"{ratings_median * 1000:8.1f}ms"
    )
    print(
        f"ratio standings / floor: {standings_best / floor_best:.1f}x all written, "
        f"{changed_best / floor_best:.1f}x one round new, "
        f"{stale_best / floor_best:.1f}x forced, "
        f"{tie_best / floor_best:.1f}x tie-breaks changed (best of {args.runs})"
    )
    print(
        "note: the recompute reads each match's stored totals and per-side deal counts "
        "(kept by the deal services), not the deals; the floor reads the deals"
    )
    if args.profile:
        print()
        if connection.vendor == "postgresql":
            write_floor(connection, tournament.pk, args.runs, nothing_stored, floor_best)
        profile("all written", standings, nothing_stored, floor_best)
        profile("one round new", standings_after_change, last_round_changed, floor_best)
        profile("forced", standings, last_round_stale, floor_best)
        profile("tie-breaks changed", standings_after_change, tie_breaks_changed, floor_best)


def write_floor(connection, tournament_id: int, runs: int, empty, floor: float) -> None:  # type: ignore[no-untyped-def]
    """What writing every row costs the server alone: the same rows made by one INSERT …
    SELECT from generate_series (no client, no arithmetic), then rolled back: the latest
    round's, as the store keeps."""
    from django.db import transaction

    from tournaments.models import Standing, Team
    from tournaments.standings.names import ROW_FIELDS

    rounds = Standing._meta.db_table, Team._meta.db_table
    columns = ", ".join(("tournament_id", "round_number", "team_id", *ROW_FIELDS))
    values = ", ".join("false" if f in ("withdrawn", "shared_rank") else "1" for f in ROW_FIELDS)
    last = max(args_rounds(connection, tournament_id), 1)
    sql = (
        f"INSERT INTO {rounds[0]} ({columns}) SELECT %s, r, t.id, {values} "
        f"FROM generate_series(%s, %s) r CROSS JOIN {rounds[1]} t WHERE t.tournament_id = %s"
    )

    def insert() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [tournament_id, last, last, tournament_id])
            transaction.set_rollback(True)

    best, _median = timed(insert, runs, before=empty)
    print(
        f"write floor: the server inserting the same rows alone (INSERT … SELECT, "
        f"rolled back) {best * 1000:.1f}ms, {best / floor:.1f}× the floor"
    )


def args_rounds(connection, tournament_id: int) -> int:  # type: ignore[no-untyped-def]
    from tournaments.models import Round

    return Round.objects.filter(tournament_id=tournament_id).count()


# The steps of a recompute, as cProfile names them: (file ending, function) -> label.
STEPS = {
    ("services/standings.py", "recompute_standings"): "the whole recompute",
    ("selectors/results.py", "read_results"): "read the teams and matches",
    ("table.py", "__init__"): "tabulate: what each match adds",
    ("digests.py", "round_digests"): "digest each round's inputs",
    ("table.py", "rows"): "tally and rank the rounds asked for",
    ("table.py", "_ranked"): "  of which ranking and the Lines",
    ("services/standings.py", "write_lines"): "read back, compare, write rows",
    ("transaction.py", "__exit__"): "commit",
}


def profile(
    name: str, action: Callable[[], object], before: Callable[[], object], floor: float
) -> None:
    """Where one recompute's time goes (several runs under cProfile), beside the floor."""
    profiler = cProfile.Profile()
    runs = 5
    for _ in range(runs):
        before()
        profiler.enable()
        action()
        profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    seconds: dict[str, float] = {}
    for (file, _line, function), (_cc, _nc, _tt, cumulative, _callers) in stats.items():
        for (ending, wanted), label in STEPS.items():
            if function == wanted and file.endswith(ending):
                seconds[label] = seconds.get(label, 0.0) + cumulative / runs
    print(f"profile, {name} (cProfile, mean of {runs}; × floor):")
    for label in STEPS.values():
        if label in seconds:
            print(f"  {label:40}{seconds[label] * 1000:8.1f}ms{seconds[label] / floor:7.1f}×")


if __name__ == "__main__":
    main()
