"""Server time and query count of the standings and schedule pages on the 64-team demo.

    DATABASE_URL=sqlite:////tmp/bench_pages.sqlite3 .venv/bin/python -m bench.pages [n_teams]

Builds the tournament in the database named by DATABASE_URL (use a scratch one), then
times each page through Django's test client (no network), median of several runs.
"""

from __future__ import annotations

import os
import statistics
import sys
import time


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from bench.bigtournament import build_round_robin_tournament
    from tournaments.standings.store import recompute_standings

    setup_test_environment()
    settings.DEBUG = True  # to count queries
    call_command("migrate", verbosity=0)
    n_teams = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    from tournaments.models import Tournament

    # BENCH_REUSE=1 times the last tournament built in this database instead of a new one.
    tournament = (
        Tournament.objects.order_by("-pk").first() if os.environ.get("BENCH_REUSE") else None
    )
    if tournament is None:
        started = time.perf_counter()
        tournament = build_round_robin_tournament(n_teams, 16)
        recompute_standings(tournament.pk, force=True)
        print(f"built {n_teams} teams in {time.perf_counter() - started:.1f}s")
    args = [tournament.club.slug, tournament.slug]
    pages = {
        "standings": reverse("tournaments:standings", args=args),
        "standings (live fragment)": reverse("tournaments:standings_live", args=args) + "?seq=x",
        "schedule (one round)": reverse("tournaments:schedule", args=args),
        "schedule (all rounds)": reverse("tournaments:schedule", args=args) + "?round=all",
        "tournament": reverse("tournaments:detail", args=args),
    }
    client = Client()
    for name, url in pages.items():
        times = []
        for _ in range(5):
            reset_queries()
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, (url, response.status_code)
        queries = len(connection.queries)
        print(
            f"{name:28s} median {statistics.median(times) * 1000:7.1f} ms"
            f"  {queries:3d} queries  {len(response.content) // 1024:5d} KiB"
        )


if __name__ == "__main__":
    main()
