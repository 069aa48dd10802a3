"""Requests per second, p50 and p99 of the API's standings and one match's deals, beside a
trivial JSON view (/api/v1/ping/), all served by gunicorn on PostgreSQL in the same run.

    .venv/bin/python -m bench.api_bench [--requests 2000] [--threads 4] [--workers 2]

Drops and creates afresh the PostgreSQL database named by BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/bench_api; its name must contain "bench"), so that
runs do not drift as tournaments pile up, fills it with the 64-team round robin of
bench.bigtournament (16 deals a match) and its standings, starts gunicorn on a free
loopback port, then sends a bounded number of requests from a few client threads,
the endpoints interleaved in blocks. "cache missed" rows use a new URL for every request,
so they show the cost of building and rendering a body (once per version per worker).
The aim: p99 under 50 ms and within 3 × the trivial view.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from bench.live_stack import free_port, fresh_database

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_api"


def build(n_teams: int) -> tuple[int, int]:
    """The tournament's id and the id of one of its played matches."""
    import django

    django.setup()
    from django.core.management import call_command

    from bench.bigtournament import build_round_robin_tournament
    from tournaments.models import Match
    from tournaments.services.standings import recompute_standings

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    tournament = build_round_robin_tournament(n_teams, 16)
    recompute_standings(tournament.pk, force=True)
    match = (
        Match.objects.filter(tournament=tournament, ew_team__isnull=False)
        .order_by("round__number", "table")
        .first()
    )
    assert match is not None
    print(
        f"built {n_teams} teams, {tournament.matches.count()} matches in "
        f"{time.perf_counter() - started:.1f}s"
    )
    return tournament.pk, match.pk


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Accept": "application/json", **(headers or {})})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("gunicorn exited early")
        try:
            if get(port, "/api/v1/ping/")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer within 30 s")


def run_block(port: int, path: str, total: int, threads: int, headers=None, expect=200):  # type: ignore[no-untyped-def]
    """`total` requests from `threads` clients: their latencies and the wall time."""
    times: list[float] = []
    lock = threading.Lock()
    remaining = [total]
    counter = itertools.count()

    def worker() -> None:
        mine: list[float] = []
        while True:
            with lock:
                if remaining[0] == 0:
                    break
                remaining[0] -= 1
            # A path ending in "=" gets a fresh number each time: a new URL misses the cache.
            url = f"{path}{next(counter)}-{time.perf_counter_ns()}" if path.endswith("=") else path
            status, elapsed = get(port, url, headers)
            assert status == expect, (path, status)
            mine.append(elapsed)
        with lock:
            times.extend(mine)

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return times, time.perf_counter() - started


def measure_all(port: int, targets, total: int, threads: int, blocks: int):  # type: ignore[no-untyped-def]
    """Every endpoint in `blocks` interleaved blocks, the order rotating, so that the load
    other processes put on the machine falls on all of them alike."""
    for _name, path, headers, expect in targets:  # warm-up: connections, caches, imports
        run_block(port, path, 50, threads, headers, expect)
    times: dict[str, list[float]] = {name: [] for name, *_ in targets}
    walls = dict.fromkeys(times, 0.0)
    for block in range(blocks):
        for name, path, headers, expect in targets[block:] + targets[:block]:
            got, wall = run_block(port, path, total // blocks, threads, headers, expect)
            times[name].extend(got)
            walls[name] += wall
    results = {}
    for name, seen in times.items():
        seen.sort()
        results[name] = {
            "rps": len(seen) / walls[name],
            "p50": statistics.median(seen) * 1000,
            "p99": seen[min(len(seen) - 1, int(len(seen) * 0.99))] * 1000,
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--blocks", type=int, default=4, help="interleaved blocks per endpoint")
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    # Dropped and created afresh, so every run measures the same tournament.
    parsed = urlparse(url)
    fresh_database(parsed._replace(path="").geturl(), parsed.path.lstrip("/"))
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATABASE_CONN_MAX_AGE": "600",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": "",
        # The clients are one address asking far faster than a club room: measure the
        # answers, not the rate limit (its cost, one cache count, stays in the figures).
        "BELOTE_THROTTLE_ANON": "1000000/min",
    }
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL")}
    )
    sys.path.insert(0, str(ROOT))
    tournament_id, match_id = build(args.teams)

    port = free_port()
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(args.workers),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(gunicorn, cwd=ROOT, env=env)
    try:
        wait_until_up(port, process)
        standings = f"/api/v1/tournaments/{tournament_id}/standings/"
        _status, _ = get(port, standings)
        etag_conn = http.client.HTTPConnection("127.0.0.1", port)
        etag_conn.request("GET", standings)
        etag = etag_conn.getresponse().getheader("ETag") or ""
        etag_conn.close()
        targets = [
            ("ping (trivial JSON view)", "/api/v1/ping/", None, 200),
            ("standings (64 teams)", standings, None, 200),
            ("one match's deals (16)", f"/api/v1/matches/{match_id}/deals/", None, 200),
            ("standings, If-None-Match", standings, {"If-None-Match": etag}, 304),
            ("standings, cache missed", standings + "?miss=", None, 200),
            ("deals, cache missed", f"/api/v1/matches/{match_id}/deals/?miss=", None, 200),
        ]
        print(
            f"gunicorn {args.workers} sync workers, {args.threads} client threads, "
            f"{args.requests} requests each in {args.blocks} interleaved blocks, "
            "loopback, PostgreSQL"
        )
        results = measure_all(port, targets, args.requests, args.threads, args.blocks)
        base = results["ping (trivial JSON view)"]
        print(f"{'endpoint':28s} {'req/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'p99/ping':>9s}")
        for name, r in results.items():
            print(
                f"{name:28s} {r['rps']:8.0f} {r['p50']:8.1f} {r['p99']:8.1f} "
                f"{r['p99'] / base['p99']:8.2f}×"
            )
        for name in ("standings (64 teams)", "one match's deals (16)"):
            r = results[name]
            verdict = "ok" if r["p99"] < 50 and r["p99"] <= 3 * base["p99"] else "MISSED"
            print(
                f"aim p99 < 50 ms and ≤ 3 × ping for {name}: {verdict} "
                f"(throughput ratio {base['rps'] / r['rps']:.2f}× slower than ping)"
            )
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
