"""A 200-table evening live, end to end: deals entered by referees, standings seen by spectators.

    .venv/bin/python -m bench.live                      # 200 tables, 1,000 spectators, ~4 min
    .venv/bin/python -m bench.live --tables 20 --spectators 100 --rates 1,20 --phase-seconds 15
    .venv/bin/python -m bench.live --modes poll          # today's polling alone

Starts everything it measures and stops it again, even on Ctrl-C: its own Redis
(redis-server on port 6400, broker and cache), a PostgreSQL database of its own
(`bench_live`, dropped and created afresh; PostgreSQL itself must be running, see
BENCH_POSTGRES_URL), gunicorn on a free port of 8141–8149 and a real Celery worker, with
the settings from the environment (DATABASE_URL, CELERY_BROKER_URL, CACHE_URL).

The event: one round-robin round after another of 2 × tables teams, in step (a round
starts when every table has finished the one before), each table's referee entering its
deals through the API with their token, as the referee's app does. The house rules end a
match after `--deals-per-match` deals (default 1), so that with standings that count only
finished matches every deal changes them. Deals are offered at each phase's pace
(`--rates`, deals per second over all tables, Poisson arrivals; the first is an evening's
real pace, one deal per table every few minutes), to a table that has nothing in flight,
until two seconds before the phase ends (`QUIET_TAIL_SECONDS`: a deal saved later might not
reach every page before the spectators change mode, and would be left out of `seen`).

The phases run once per `--modes` (default `stream,poll`: the same paces with the
spectators following the live stream, then polling, in one run on one event). With
`stream`, a stream host (uvicorn, `config.asgi`, live/stream/) runs beside gunicorn
and the spectators hold a server-sent events stream each, as EventSource does; every other
phase they poll, as follows.

Meanwhile `--spectators` open standings pages poll the live fragment as htmx does: the URL
and the pace the last fragment names (`hx-get` with the version it shows, `hx-trigger`;
`--poll` sets the pace instead; `--api-share` of them poll the API with If-None-Match),
and a watcher polls the standings API every 50 ms: a deal is *shown* in the first answer
whose `deals` figures of both its teams count it. "deal saved → standings show it" runs
from the referee's 201 to that answer (to within the watcher's interval; a spectator sees
it up to one poll later). When the standings answer is the live table (`provisional`, or
lines with `in_play` matches), every deal is measured; otherwise only the deals that finish
a match (all of them with the default one deal per match), since the others do not change
finished-only standings.

Printed per phase: deals offered and stored, errors, the `live:` line with p50 and p99 of
the delay, the referees' POST times, the spectators' requests/s and p99 beside the
trivial view's p99 under the same load (its floor), the `seen:` line (deal saved → shown on
the spectators' own pages: from the referee's 201 to the moment each spectator had the first
version that shows the deal, by its poll or its stream; the watcher names that version) and
the machine's load; then the CPU each part used. The floor of the delay is a recompute as the worker ran it (the median of
the workers' logged task times): a lone change sends its recompute at once. A change made
within `tournaments.tasks.WINDOW_SECONDS` of a sent recompute rides the trailing task, so
its bound is `TRAILING_COUNTDOWN_SECONDS` more (the window bound). The knee: the fastest pace
with p99 under 1 s, no error, and 95 % of the offered deals stored (a deal offered while
every table has one in flight or waits for the next round is counted as not stored).

A different event (the formats' Swiss or concours rounds, a live table counting matches in
play) changes `build_event` and, for the live table, nothing else: the watcher reads each
team's `deals` figure from whatever table the standings API answers with, and measures
every deal once the answer says `provisional` or a line `in_play` (else `--visible every`,
with `--deals-per-match 8` for matches that stay in play a while).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.live_stack import (
    DATABASE,
    REDIS_PORT,
    ROOT,
    Stack,
    drop_database,
    free_port,
    free_web_port,
    fresh_database,
)

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432"
AIM_P99_MS = 1000


# --- the event ---------------------------------------------------------------------------------


def build_event(tables: int, rounds: int, deals_per_match: int) -> dict[str, Any]:
    """A running tournament of 2 × `tables` teams with its first `rounds` round-robin rounds
    scheduled, a referee per table (made as a director makes one, with the device token a
    director issues), every match of a table refereed by them. Returns what the clients
    need: ids, slugs, tokens, each table's matches."""
    from django.db import transaction
    from django.utils import timezone

    from club.models import Club, Membership, Player
    from club.permissions import SYSTEM
    from club.referees import create_referee
    from club.tokens import issue_referee_token
    from tournaments.models import Match, Round, Team, Tournament
    from tournaments.scheduling import round_robin
    from tournaments.services.schedule import FIRST_DEALER

    n_teams = 2 * tables
    with transaction.atomic():
        club = Club.objects.create(name="Bench live club", slug="bench-live")
        players = Player.objects.bulk_create(
            [Player(first_name=f"P{i}", last_name="Live") for i in range(1, 2 * n_teams + 1)]
        )
        Membership.objects.bulk_create([Membership(club=club, player=p) for p in players])
        tournament = Tournament.objects.create(
            club=club,
            name=f"Evening of {tables} tables",
            slug="evening",
            starts_on=timezone.localdate(),
            rules={"target": None, "max_deals": deals_per_match},
            status=Tournament.Status.RUNNING,
            is_public=True,
        )
        teams = Team.objects.bulk_create(
            [
                Team(
                    tournament=tournament,
                    name=f"Team {i}",
                    first_player=players[2 * i - 2],
                    second_player=players[2 * i - 1],
                    seed=i,
                )
                for i in range(1, n_teams + 1)
            ]
        )
        referees = [
            create_referee(club, f"Referee {_letters(t)}", by=SYSTEM).user
            for t in range(1, tables + 1)
        ]
        tokens = [issue_referee_token(club, user, by=SYSTEM) for user in referees]
        schedule = round_robin(n_teams).rounds[:rounds]
        made_rounds = Round.objects.bulk_create(
            [Round(tournament=tournament, number=n) for n in range(1, len(schedule) + 1)]
        )
        matches = Match.objects.create_seated(
            [
                Match(
                    round=made_round,
                    tournament=tournament,
                    table=pairing.table,
                    ns_team=teams[pairing.ns - 1],
                    ew_team=teams[pairing.ew - 1],
                    first_dealer=FIRST_DEALER,
                    referee=referees[pairing.table - 1],
                )
                for made_round, pairings in zip(made_rounds, schedule, strict=True)
                for pairing in pairings
                if pairing.ew is not None
            ]
        )
    by_table: dict[int, list[tuple[int, int, int]]] = {t: [] for t in range(1, tables + 1)}
    for match in sorted(matches, key=lambda m: (m.round.number, m.table)):
        assert match.table is not None and match.ew_team_id is not None
        by_table[match.table].append((match.pk, match.ns_team_id, match.ew_team_id))
    return {
        "tournament": tournament.pk,
        "club_slug": club.slug,
        "slug": tournament.slug,
        "tokens": [issued.key for issued in tokens],
        "tables": by_table,
    }


def _letters(number: int) -> str:
    """1 → "Aa", 2 → "Ab", …: a name's letters (names take no digits)."""
    letters = ""
    while number:
        number, digit = divmod(number, 26)
        letters = chr(ord("a") + digit) + letters
    return "A" + letters


_TASK_TIME = re.compile(rb"recompute_tournament\[[^\]]*\] succeeded in ([0-9.eE-]+)s")


def recompute_times(logs: Path) -> list[float]:
    """How long each standings recompute took in the workers (their logs), seconds."""
    return [
        float(found.group(1))
        for log in sorted(logs.glob("celery*.log"))
        for found in _TASK_TIME.finditer(log.read_bytes())
    ]


# --- the run -----------------------------------------------------------------------------------


async def drive(
    args: argparse.Namespace, event_data: dict[str, Any], base_url: str, phases: list[Any]
) -> dict[str, Any]:
    import httpx

    from bench.live_clients import Event, Table, Watcher, referees
    from scoring.demo import plausible_deal
    from scoring.engine import parse_rules, validate_deal

    tables = [
        Table(number, token, event_data["tables"][number])
        for number, token in enumerate(event_data["tokens"], start=1)
    ]
    rules = parse_rules({"target": None, "max_deals": args.deals_per_match})

    def entry(rng: random.Random) -> dict[str, Any]:
        """A deal as a referee enters it: the app would refuse the odd impossible one (a
        sequence through the other side's belote), so it is never sent."""
        while True:
            deal = plausible_deal(rng, thrown_in=False, declarations=True)
            if not validate_deal(deal, rules):
                return deal

    event = Event(tables, args.deals_per_match, entry)
    tid = event_data["tournament"]
    watcher = Watcher(f"/api/v1/tournaments/{tid}/standings/", args.watch_interval)
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=len(tables) + 10, max_keepalive_connections=None)
    timeout = httpx.Timeout(args.timeout)
    loads: list[tuple[float, float]] = []
    async with (
        httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as client,
        httpx.AsyncClient(base_url=base_url, timeout=timeout) as watch_client,
    ):
        watching = asyncio.create_task(watcher.run(event, watch_client, phases, stop))
        sampling = asyncio.create_task(sample_load(phases, loads))
        await referees(event, client, phases, stop)
        # Let the last deals show (bounded): the trailing task plus a recompute or two.
        drain_until = time.monotonic() + args.drain
        while event.pending and time.monotonic() < drain_until:
            await asyncio.sleep(0.1)
        stop.set()
        await watching
        await sampling
    return {"event": event, "watcher": watcher, "loads": loads}


async def sample_load(phases: list[Any], loads: list[tuple[float, float]]) -> None:
    """The machine's 1-minute load average at each phase's start and end."""
    for phase in phases:
        await asyncio.sleep(max(0.0, phase.starts - time.monotonic()))
        before = os.getloadavg()[0]
        await asyncio.sleep(max(0.0, phase.ends - time.monotonic()))
        loads.append((before, os.getloadavg()[0]))


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    from bench.live_clients import QUIET_TAIL_SECONDS, summarise_saved, summarise_seen

    phases, spectators, loads = figures["phases"], figures["spectators"], figures["loads"]
    floor = figures["floor"]
    event, watcher = figures["event"], figures["watcher"]
    live = args.visible == "every" or (args.visible == "auto" and watcher.live_seen)
    only_finishing = not live
    print(
        f"measured deals: {'every deal (live table)' if live else 'deals that finish a match'}; "
        f"{watcher.versions} standings versions seen by the watcher"
    )
    knee = None
    for number, phase in enumerate(phases):
        seconds = phase.ends - phase.starts
        offering = seconds - QUIET_TAIL_SECONDS
        posts = event.posts.summary(number, offering, lambda s: s == "201")
        shown = summarise_saved(event.saved, number, only_finishing)
        offered = posts["requests"] + event.skipped[number]
        errors = posts["errors"]
        load = loads[number]
        print(
            f"\nphase {number + 1}: {phase.rate:g} deals/s offered for {offering:.0f} s "
            f"(then {QUIET_TAIL_SECONDS:g} s with none, for the pages to catch up), "
            f"spectators {'streaming' if phase.mode == 'stream' else 'polling'} "
            f"(load before {load[0]:.2f}, after {load[1]:.2f}; 1-min average)"
        )
        print(
            f"live: {posts['requests'] - errors} deals stored of {offered} offered "
            f"({(posts['requests'] - errors) / offering:.1f}/s), {errors} errors"
            + (f", {event.skipped[number]} with no table free" if event.skipped[number] else "")
            + f"; deal saved → live standings show it ({shown['measured']} measured, "
            f"{shown['never_shown']} never shown): "
            f"p50 {shown['p50_ms']:.0f} ms, p99 {shown['p99_ms']:.0f} ms"
        )
        if floor["recomputes"]:
            print(
                f"  floor {floor['floor_ms']:.0f} ms (a lone change is sent at once: a "
                f"recompute, median of the worker's {floor['recomputes']}); window bound "
                f"{floor['bound_ms']:.0f} ms (+ the {floor['trailing_ms']:.0f} ms trailing "
                f"countdown of a change within {floor['window_ms']:.0f} ms of a sent one): "
                f"p50 {shown['p50_ms'] / floor['floor_ms']:.2f} × the floor, "
                f"p99 {shown['p99_ms'] / floor['bound_ms']:.2f} × the window bound"
            )
        print(
            f"  referees' POST: p50 {posts['p50_ms']:.0f} ms, p99 {posts['p99_ms']:.0f} ms; "
            f"statuses {posts['statuses']}, {event.retries[number]} sent again after a lost answer"
        )
        watched = watcher.polls.summary(number, seconds, lambda s: s in ("200", "304"))
        print(
            f"  watcher (the API with If-None-Match every {args.watch_interval * 1000:.0f} ms, "
            f"from the referees' process): {watched['per_second']:.0f} requests/s, "
            f"p50 {watched['p50_ms']:.0f} ms, p99 {watched['p99_ms']:.0f} ms"
        )
        if spectators is not None:
            ping = spectators["ping"][number]
            for kind, label in (
                ("pages", "page fragment"),
                ("api", "API If-None-Match"),
                ("streams", "stream openings, to the first bytes"),
                ("checks", "a streaming page's version check, after 30 s with no event"),
            ):
                seen = spectators[kind][number]
                if not seen["requests"]:
                    continue
                print(
                    f"  spectators ({label}): {seen['per_second']:.0f} requests/s, "
                    f"p50 {seen['p50_ms']:.0f} ms, p99 {seen['p99_ms']:.0f} ms, "
                    f"{seen['errors']} errors; statuses {seen['statuses']}"
                )
            print(
                f"  trivial view under the same load (floor): p50 {ping['p50_ms']:.0f} ms, "
                f"p99 {ping['p99_ms']:.0f} ms"
            )
            errors += sum(
                spectators[kind][number]["errors"] for kind in ("pages", "api", "streams", "checks")
            )
            sighted = summarise_seen(event.saved, number, only_finishing, spectators["sightings"])
            print(
                f"  seen: deal saved → shown on the spectators' pages p50 "
                f"{sighted['p50_ms']:.0f} ms, p99 {sighted['p99_ms']:.0f} ms "
                f"({sighted['measured']} deal × spectator pairs, {sighted['never']} not seen "
                f"before the phase's mode ended); each deal's median over the spectators "
                f"p99 {sighted['median_p99_ms']:.0f} ms"
            )
            print(
                "  the slowest deals (saved at, s into the phase: standings API / spectators' "
                "median, ms): "
                + ", ".join(
                    f"{saved - phase.starts:.1f} s: {api:.0f} / {median:.0f}"
                    for saved, api, median in sighted["slowest"]
                )
            )
        kept_pace = posts["requests"] - posts["errors"] >= 0.95 * offered
        if shown["p99_ms"] < AIM_P99_MS and errors == 0 and not shown["never_shown"] and kept_pace:
            knee = phase.rate
    cpu = figures["cpu"]
    print(
        f"\nCPU seconds used during the {figures['wall']:.0f} s run (2 cores give "
        f"{2 * figures['wall']:.0f}): "
        + ", ".join(f"{name} {used:.1f}" for name, used in sorted(cpu.items(), key=lambda x: -x[1]))
    )
    if event.refusals:
        print(f"\nrefused deals: {dict(event.refusals)}; the last said {event.last_refusal!r}")
    if event.out_of_rounds:
        print("\nnote: the scheduled rounds ran out; raise --rounds")
    print(
        f"\nknee: {f'{knee:g} deals/s' if knee is not None else 'none'} is the fastest pace "
        f"with p99 under {AIM_P99_MS} ms, no error and 95 % of the offered deals stored "
        f"({args.tables} tables, {args.spectators} spectators ({args.modes}; polls {_pace(args.poll)}), "
        f"{args.web_workers} gunicorn workers, {args.celery_workers} Celery worker(s) × "
        f"concurrency {args.celery_concurrency})"
    )


def _pace(poll: float | None) -> str:
    return "at the pages' pace" if poll is None else f"every {poll:g} s"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument(
        "--rates",
        default="1,20",
        help="deals per second (all tables) in each phase, comma separated",
    )
    parser.add_argument(
        "--modes",
        default="stream,poll",
        help="how the spectators follow, each mode running every rate: stream, poll",
    )
    parser.add_argument("--phase-seconds", type=float, default=40)
    parser.add_argument("--deals-per-match", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=0, help="rounds scheduled (0: enough)")
    parser.add_argument(
        "--poll", type=float, default=None, help="seconds between polls (default: the pages')"
    )
    parser.add_argument("--api-share", type=float, default=0.0)
    parser.add_argument("--watch-interval", type=float, default=0.05)
    parser.add_argument("--visible", choices=("auto", "finishing", "every"), default="auto")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--web-threads", type=int, default=4)
    parser.add_argument("--celery-workers", type=int, default=1)
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0, help="a request's, seconds")
    parser.add_argument("--drain", type=float, default=15.0)
    parser.add_argument("--keep-database", action="store_true")
    return parser.parse_args()


@contextlib.contextmanager
def interrupted_as_exit() -> Iterator[None]:
    """SIGTERM ends the bench like Ctrl-C does: through the clean-up."""

    def raise_interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main() -> None:
    args = parse_args()
    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    admin = os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES).rstrip("/")
    logs = Path(tempfile.mkdtemp(prefix="bench_live_"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DATABASE_URL": f"{admin}/{DATABASE}",
        "DATABASE_CONN_MAX_AGE": "600",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "CACHE_URL": f"rediscache://127.0.0.1:{REDIS_PORT}/1",
        # Every client of the bench comes from 127.0.0.1: the API's limit per address would
        # count the watcher and every spectator as one visitor (the limits are still counted).
        "BELOTE_THROTTLE_ANON": "1000000/min",
        # Likewise the stream host's cap of open streams per client address: no cap.
        "BELOTE_STREAM_MAX_PER_CLIENT": "0",
    }
    if "stream" in args.modes:
        # The web tier and the worker announce each new version on the cache's Redis.
        env["BELOTE_LIVE_STREAM_URL"] = "/stream"
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    stack = Stack(logs, env)
    spectators: Any = None
    created = False
    with interrupted_as_exit():
        try:
            stack.start_redis()
            fresh_database(admin)
            created = True
            figures = run(args, rates, stack, logs)
            spectators = figures.pop("spectator_process")
            report(args, figures)
            shutil.rmtree(logs, ignore_errors=True)
        except KeyboardInterrupt:
            print("\ninterrupted: stopping everything the bench started", file=sys.stderr)
        finally:
            if spectators is not None and spectators.is_alive():
                spectators.terminate()
                spectators.join(timeout=5)
            stack.stop()
            if created and not args.keep_database:
                from django.db import connections

                connections.close_all()
                drop_database(admin)


def run(args: argparse.Namespace, rates: list[float], stack: Stack, logs: Path) -> dict[str, Any]:
    """Build the event, start the site and the workers, play the phases; the figures."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from django.urls import reverse

    from bench.live_clients import Phase, run_spectators

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    total = sum(rates) * args.phase_seconds
    rounds = args.rounds or int(total / (args.tables * args.deals_per_match) * 1.3) + 2
    event_data = build_event(args.tables, rounds, args.deals_per_match)
    print(
        f"event: {args.tables} tables, {2 * args.tables} teams, {rounds} rounds scheduled, "
        f"{args.deals_per_match} deal(s) a match; built in {time.perf_counter() - started:.1f} s"
    )
    connections.close_all()
    base_url = stack.start_web(free_web_port(), args.web_workers, args.web_threads)
    stream_url = ""
    if "stream" in args.modes:
        stack.env["BELOTE_LIVE_STREAM_ORIGIN"] = base_url
        stream_url = stack.start_stream(free_port())
    stack.start_workers(args.celery_workers, args.celery_concurrency)
    print(
        f"stack: gunicorn on {base_url} ({args.web_workers} workers × {args.web_threads} "
        f"threads), {f'a stream host (uvicorn) on {stream_url}, ' if stream_url else ''}"
        f"{args.celery_workers} Celery worker(s) × concurrency "
        f"{args.celery_concurrency}, Redis :{REDIS_PORT}, PostgreSQL {DATABASE}; logs in {logs}"
    )
    # The first phase starts once the spectators' process is up and its pages are open
    # (streams open over 2 s, each sent its region whole: not a cost of the first deals).
    t0 = time.monotonic() + 6.0
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    paced = [(mode, rate) for mode in modes for rate in rates]
    phases = [
        Phase(rate, t0 + i * args.phase_seconds, t0 + (i + 1) * args.phase_seconds, mode)
        for i, (mode, rate) in enumerate(paced)
    ]
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    config = {
        "base_url": base_url,
        "fragment": reverse(
            "tournaments:standings_live", args=[event_data["club_slug"], event_data["slug"]]
        ),
        "api": f"/api/v1/tournaments/{event_data['tournament']}/standings/",
        "stream": stream_url
        + "/stream"
        + reverse("tournaments:standings_live", args=[event_data["club_slug"], event_data["slug"]]),
        "spectators": args.spectators,
        "api_share": args.api_share,
        "poll": args.poll,
        "phases": [(p.rate, p.starts, p.ends, p.mode) for p in phases],
        "timeout": args.timeout,
    }
    spectator_process = context.Process(target=run_spectators, args=(config, results), daemon=True)
    spectator_process.start()
    print(
        f"running {len(phases)} phases of {args.phase_seconds:g} s: "
        f"{', '.join(f'{p.rate:g} deals/s ({p.mode})' for p in phases)}; "
        f"{args.spectators} spectators streaming or polling {_pace(args.poll)}"
    )
    cpu_before, own_before = stack.cpu_seconds(), time.process_time()
    driven = asyncio.run(drive(args, event_data, base_url, phases))
    cpu = {name: used - cpu_before.get(name, 0.0) for name, used in stack.cpu_seconds().items()}
    cpu["referees and watcher (bench)"] = time.process_time() - own_before
    spectators = json.loads(results.get(timeout=60))
    cpu["spectators (bench)"] = spectators.pop("cpu_seconds")
    spectator_process.join(timeout=10)
    stack.stop()

    from django.conf import settings

    from tournaments.tasks import TRAILING_COUNTDOWN_SECONDS, WINDOW_SECONDS

    # The floor of the delay: a recompute as the worker ran it (a lone change is sent at
    # once); a change inside the window of a sent one waits for the trailing task too.
    recomputes = recompute_times(logs)
    recompute = statistics.median(recomputes) if recomputes else float("nan")
    trailing = TRAILING_COUNTDOWN_SECONDS if settings.CELERY_BROKER_URL else 0.0
    return {
        **driven,
        "phases": phases,
        "spectators": spectators,
        "cpu": cpu,
        "wall": time.monotonic() - phases[0].starts,
        "floor": {
            "recompute_ms": recompute * 1000,
            "recomputes": len(recomputes),
            "floor_ms": recompute * 1000,
            "window_ms": WINDOW_SECONDS * 1000,
            "trailing_ms": trailing * 1000,
            "bound_ms": (trailing + recompute) * 1000,
        },
        "spectator_process": spectator_process,
    }


if __name__ == "__main__":
    main()
