"""Times a series table's recompute: 40 evenings, 120 players (docs/seasons.md).

    .venv/bin/python bench/series_bench.py                          # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/series_bench.py                      # PostgreSQL

Builds, in a throwaway database, a season with one series of `--evenings` tournaments, each
played by about 80 % of `--players` players in pairs (random partners and places), each
with its stored standings; then times

- the arithmetic alone (seasons.arithmetic.series_table over the records: best 6 of the evenings,
  a place table, min_evenings, needs for every player and each player's rank after every
  evening for the chart);
- the same with the handicap (ratings before each evening);
- the whole recompute (`recompute_series(force=True)`: read the standings and the ratings,
  compute, replace the stored lines, in one transaction).

Each figure is the best of `--runs` runs (the machine is shared); the median is shown too.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    import django

    django.setup()
    import logging

    from django.db import connection

    logging.getLogger("tournaments").setLevel(logging.WARNING)
    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "bench_series.sqlite3")
    else:
        test["NAME"] = "bench_series"
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args, connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def build(evenings: int, players: int, seed: int = 0) -> int:
    """The season, its series and its evenings' stored standings; returns the series id."""
    from django.db import transaction
    from django.utils import timezone

    from club.models import Club, Membership, Player, RatingChange
    from seasons.models import Season, Series
    from tournaments.models import Standing, Team, Tournament

    rng = random.Random(seed)
    with transaction.atomic():
        club = Club.objects.create(name="Series bench", slug="series-bench")
        people = Player.objects.bulk_create(
            [Player(first_name=f"P{i}", last_name="Bench") for i in range(players)]
        )
        Membership.objects.bulk_create([Membership(club=club, player=p) for p in people])
        first_day = datetime.date(2026, 9, 3)
        season = Season.objects.create(
            club=club,
            name="2026–27",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=first_day + datetime.timedelta(weeks=evenings + 1),
        )
        series = Series.objects.create(
            season=season,
            name="Thursday",
            points=Series.Points.PLACE,
            place_points=[25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
            participation_points=1,
            best_of=min(6, evenings),
            min_evenings=3,
        )
        changes = []
        for number in range(evenings):
            day = first_day + datetime.timedelta(weeks=number)
            tournament = Tournament.objects.create(
                club=club,
                name=f"Thursday {number + 1}",
                slug=f"thursday-{number + 1}",
                starts_on=day,
                status=Tournament.Status.FINISHED,
            )
            tournament.series.add(series)
            present = rng.sample(people, (players * 4 // 5) // 2 * 2)
            teams = Team.objects.bulk_create(
                [
                    Team(
                        tournament=tournament,
                        name=f"Team {i + 1}",
                        first_player=present[2 * i],
                        second_player=present[2 * i + 1],
                        seed=i + 1,
                    )
                    for i in range(len(present) // 2)
                ]
            )
            order = list(range(len(teams)))
            rng.shuffle(order)
            Standing.objects.bulk_create(
                Standing(
                    tournament=tournament,
                    round_number=4,
                    team=team,
                    rank=order[i] + 1,
                    points_for=rng.randrange(2000, 4000),
                    match_points=rng.randrange(0, 9),
                )
                for i, team in enumerate(teams)
            )
            at = timezone.make_aware(datetime.datetime.combine(day, datetime.time(22)))
            changes.extend(
                RatingChange(
                    club=club,
                    player=p,
                    match_id=number * players + p.pk,
                    played_at=at,
                    mu=25.0,
                    sigma=8.0,
                    rating=rng.uniform(0, 30),
                )
                for p in present
            )
        RatingChange.objects.bulk_create(changes)
    return series.pk


def run(args: argparse.Namespace, vendor: str) -> None:
    from seasons.arithmetic import series_table
    from seasons.models import Series, SeriesLine
    from seasons.services.tables import recompute_series, rules_of, series_evenings

    series_id = build(args.evenings, args.players)
    series = Series.objects.select_related("season").get(pk=series_id)
    _tournaments, evenings = series_evenings(series)
    rules = rules_of(series)
    print(
        f"{vendor}: {len(evenings)} evenings, "
        f"{len({r.player_id for e in evenings for r in e.results})} players, "
        f"best {rules.best_of}, min_evenings {rules.min_evenings}"
    )
    best, median = timed(lambda: series_table(evenings, rules), args.runs)
    print(
        f"arithmetic (needs and chart included): best {best * 1000:.1f} ms, median {median * 1000:.1f} ms"
    )
    Series.objects.filter(pk=series_id).update(handicap=Series.Handicap.RATING)
    series = Series.objects.select_related("season").get(pk=series_id)
    _tournaments, evenings = series_evenings(series)
    rules = rules_of(series)
    best, median = timed(lambda: series_table(evenings, rules), args.runs)
    print(f"arithmetic with the handicap: best {best * 1000:.1f} ms, median {median * 1000:.1f} ms")
    best, median = timed(lambda: recompute_series(series_id, force=True), args.runs)
    print(
        f"recompute (read, compute, store {SeriesLine.objects.filter(series_id=series_id).count()} "
        f"lines): best {best * 1000:.1f} ms, median {median * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
