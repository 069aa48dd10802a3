"""Server time and query count of the standings and schedule pages on the 64-team demo, and of
the fragments the live pages poll: a new version (rendered; for the standings and the
schedule also as every other page gets it, kept in the cache) and an unchanged one (204);
each with its size plain and gzipped. Then what a stream sends for one deal: a deal of the
last match corrected, the standings recomputed, the patch from the standings region before
to the one after (plain and deflated, as a stream host sends it).

    DATABASE_URL=sqlite:////tmp/bench_pages.sqlite3 .venv/bin/python -m bench.pages [n_teams]

Builds the tournament in the database named by DATABASE_URL (use a scratch one), then
times each page through Django's test client (no network), median of several runs.
"""

from __future__ import annotations

import gzip
import os
import statistics
import sys
import time
from typing import Any


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from bench.bigtournament import build_round_robin_tournament
    from tournaments.services.standings import recompute_standings

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
    from live.versions import live_state

    args = [tournament.club.slug, tournament.slug]
    match = tournament.matches.filter(ew_team__isnull=False).last()
    assert match is not None
    state = live_state(*args)
    assert state is not None
    unchanged = {
        "standings_live": state.standings,
        "schedule_live": state.changes,
        "screen_live": state.both,
    }
    standings_live = reverse("tournaments:standings_live", args=args) + "?v=x"
    schedule_live = reverse("tournaments:schedule_live", args=args) + "?v=x"
    # (url, status, the kept fragments dropped before each run: the first page to ask)
    pages = {
        "standings": (reverse("tournaments:standings", args=args), 200, False),
        "standings fragment, rendered": (standings_live, 200, True),
        "standings fragment, kept": (standings_live, 200, False),
        "schedule (one round)": (reverse("tournaments:schedule", args=args), 200, False),
        "schedule (all rounds)": (
            reverse("tournaments:schedule", args=args) + "?round=all",
            200,
            False,
        ),
        "schedule fragment, rendered": (schedule_live, 200, True),
        "schedule fragment, kept": (schedule_live, 200, False),
        "tournament": (reverse("tournaments:detail", args=args), 200, False),
        "big screen": (reverse("tournaments:screen", args=args), 200, False),
        "match sheet fragment": (
            reverse("tournaments:match_live", args=[*args, match.pk]) + "?v=x",
            200,
            False,
        ),
        **{
            f"{name} unchanged (204)": (
                reverse(f"tournaments:{name}", args=args) + f"?v={version}",
                204,
                False,
            )
            for name, version in unchanged.items()
        },
    }
    client = Client()
    for name, (url, status, fresh) in pages.items():
        times = []
        for _ in range(5 if status == 200 else 200):
            if fresh:
                cache.clear()
            # Within the cache's lifetime of a version, as a page polling every second is.
            live_state(*args)
            reset_queries()
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == status, (url, response.status_code)
        queries = len(connection.queries)
        print(
            f"{name:28s} median {statistics.median(times) * 1000:7.1f} ms"
            f"  {queries:3d} queries  {len(response.content) // 1024:5d} KiB"
            f"  {len(gzip.compress(response.content, 6)) / 1024:6.1f} KiB gzipped"
        )
    one_deal_patch(client, tournament.pk, standings_live)


def one_deal_patch(client: Any, tournament_id: int, url: str) -> None:
    """The stream's patch for one deal: the standings region before and after a correction."""
    from django.core.cache import cache

    from club.permissions import SYSTEM
    from live.stream.events import deflated, line_patch, patch_event, region_lines
    from tournaments.models import Deal
    from tournaments.services.deals import correct_deal
    from tournaments.services.standings import recompute_standings

    cache.clear()
    before = client.get(url).content.decode()
    # The latest deal stored: a finished round robin's (this bench's) or an evening's
    # (bench.live's event, with BENCH_REUSE=1).
    deal = Deal.objects.filter(match__tournament_id=tournament_id).order_by("-pk").first()
    assert deal is not None and deal.entry.get("points"), "no deal with card points"
    match = deal.match
    entry = dict(deal.entry)
    points = dict(entry["points"])
    points["cards"] = 162 - points["cards"]  # the other team's card points: a new result
    correct_deal(match, deal.number, {**entry, "points": points}, by=SYSTEM)
    recompute_standings(tournament_id)
    cache.clear()
    after = client.get(url).content.decode()
    texts, ops = line_patch(region_lines(before), region_lines(after))
    event = patch_event("before", "after", texts, ops)
    print(
        f"one deal's patch of the standings region: {len(event) / 1024:.1f} KiB plain,"
        f" {len(deflated(event)) / 1024:.1f} KiB deflated, of a region of"
        f" {len(after.encode()) // 1024} KiB ({len(gzip.compress(after.encode(), 6)) / 1024:.1f}"
        " KiB gzipped)"
    )


if __name__ == "__main__":
    main()
