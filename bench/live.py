"""A 200-table evening live, end to end: deals entered by referees, standings seen by spectators.

    .venv/bin/python -m bench.live                      # 200 tables, 1,000 spectators, ~4 min
    .venv/bin/python -m bench.live --tables 20 --spectators 100 --rates 1,20 --phase-seconds 15

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
real pace, one deal per table every few minutes), to a table that has nothing in flight.

Meanwhile `--spectators` open standings pages poll the live fragment every `--poll`
seconds as htmx does (the version they show in `?seq=`; `--api-share` of them poll the
API with If-None-Match instead), and a watcher polls the standings API every 50 ms: a
deal is *shown* in the first answer whose `deals` figures of both its teams count it.
"deal saved → standings show it" runs from the referee's 201 to that answer (to within
the watcher's interval; a spectator sees it up to one poll later). When the standings
answer carries a live table (lines with `in_play` or `provisional`), every deal is
measured; otherwise only the deals that finish a match (all of them with the default
one deal per match), since the others do not change finished-only standings.

Printed per phase: deals offered and stored, errors, the `live:` line with p50 and p99 of
the delay, the referees' POST times, the spectators' requests/s and p99 beside the
trivial view's p99 under the same load (its floor), and the machine's load. The floor of
the delay is the debounce countdown plus one recompute of these standings, timed after
the run. The knee: the fastest pace with p99 under 1 s, no error and every offered deal
stored.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REDIS_PORT = 6400
WEB_PORTS = range(8141, 8150)
DATABASE = "bench_live"
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432"
AIM_P99_MS = 1000


# --- the stack: started here, stopped here ---------------------------------------------------


class Stack:
    """The processes the bench starts, each in a session of its own, stopped on exit."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.processes.append((name, process))
        return process

    def check(self) -> None:
        for name, process in self.processes:
            if process.poll() is not None:
                raise SystemExit(f"{name} exited early; see {self.logs / (name + '.log')}")

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time (user + system) used so far by each process group we started."""
        tick = os.sysconf("SC_CLK_TCK")
        used = {name: 0.0 for name, _process in self.processes}
        used["postgresql"] = 0.0
        groups = {process.pid: name for name, process in self.processes}
        for folder in Path("/proc").glob("[0-9]*"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (folder / "stat").read_text().rsplit(")", 1)[1].split()
                name = groups.get(int(fields[2]))  # the process group
                if name is None and DATABASE.encode() in (folder / "cmdline").read_bytes():
                    name = "postgresql"  # a backend serving the bench's database
                if name is not None:
                    used[name] += (int(fields[11]) + int(fields[12])) / tick
        return used

    def stop(self) -> None:
        """SIGTERM to each process group we started (gunicorn's and Celery's children too),
        then SIGKILL to whatever is still there after a few seconds."""
        for _name, process in reversed(self.processes):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for _name, process in reversed(self.processes):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def port_is_free(port: int) -> bool:
    """Nothing listens there (a socket of a run just ended, in TIME_WAIT, does not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_for(check: Any, what: str, stack: Stack, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        stack.check()
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.2)
    raise SystemExit(f"{what} not ready within {seconds:.0f} s; logs in {stack.logs}")


def fresh_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the event ---------------------------------------------------------------------------------


def build_event(tables: int, rounds: int, deals_per_match: int) -> dict[str, Any]:
    """A running tournament of 2 × `tables` teams with its first `rounds` round-robin rounds
    scheduled, a referee (user and API token) per table, every match of a table refereed
    by them. Returns what the clients need: ids, slugs, tokens, each table's matches."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from club.models import Club, Membership, Player
    from tournaments.models import Match, MatchSeat, Round, Team, Tournament
    from tournaments.scheduling import round_robin
    from tournaments.services.schedule import FIRST_DEALER

    n_teams = 2 * tables
    User = get_user_model()
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
        referees = User.objects.bulk_create(
            [User(username=f"live-referee-{t}", password="!") for t in range(1, tables + 1)]
        )
        tokens = Token.objects.bulk_create(
            [Token(user=user, key=Token.generate_key()) for user in referees]
        )
        schedule = round_robin(n_teams).rounds[:rounds]
        made_rounds = Round.objects.bulk_create(
            [Round(tournament=tournament, number=n) for n in range(1, len(schedule) + 1)]
        )
        matches = Match.objects.bulk_create(
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
        MatchSeat.objects.bulk_create([seat for match in matches for seat in match.seat_rows()])
    by_table: dict[int, list[tuple[int, int, int]]] = {t: [] for t in range(1, tables + 1)}
    for match in sorted(matches, key=lambda m: (m.round.number, m.table)):
        assert match.table is not None and match.ew_team_id is not None
        by_table[match.table].append((match.pk, match.ns_team_id, match.ew_team_id))
    return {
        "tournament": tournament.pk,
        "club_slug": club.slug,
        "slug": tournament.slug,
        "tokens": [token.key for token in tokens],
        "tables": by_table,
    }


def time_recompute(tournament_id: int) -> float:
    """One recompute of the event's standings as the worker runs it (seconds, best of 3)."""
    from tournaments.standings.store import recompute_standings

    times = []
    for _ in range(3):
        started = time.perf_counter()
        recompute_standings(tournament_id, force=True)
        times.append(time.perf_counter() - started)
    return min(times)


# --- the run -----------------------------------------------------------------------------------


async def drive(
    args: argparse.Namespace, event_data: dict[str, Any], base_url: str, phases: list[Any]
) -> dict[str, Any]:
    import httpx

    from bench.live_clients import Event, Table, Watcher, referees
    from tournaments.demo import plausible_deal

    tables = [
        Table(number, token, event_data["tables"][number])
        for number, token in enumerate(event_data["tokens"], start=1)
    ]
    event = Event(
        tables,
        args.deals_per_match,
        lambda rng: plausible_deal(rng, thrown_in=False, declarations=True),
    )
    tid = event_data["tournament"]
    watcher = Watcher(f"/api/v1/tournaments/{tid}/standings/", args.watch_interval)
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=len(tables) + 10, max_keepalive_connections=None)
    timeout = httpx.Timeout(args.timeout)
    async with (
        httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as client,
        httpx.AsyncClient(base_url=base_url, timeout=timeout) as watch_client,
    ):
        watching = asyncio.create_task(watcher.run(event, watch_client, phases, stop))
        await referees(event, client, phases, stop)
        # Let the last deals show (bounded): the debounce plus a recompute or two.
        drain_until = time.monotonic() + args.drain
        while event.pending and time.monotonic() < drain_until:
            await asyncio.sleep(0.1)
        stop.set()
        await watching
    return {"event": event, "watcher": watcher}


def report(
    args: argparse.Namespace,
    phases: list[Any],
    driven: dict[str, Any],
    spectators: dict[str, Any] | None,
    loads: list[tuple[float, float]],
    floor: dict[str, float],
) -> None:
    from bench.live_clients import summarise_saved

    event, watcher = driven["event"], driven["watcher"]
    live = args.visible == "every" or (args.visible == "auto" and watcher.live_seen)
    only_finishing = not live
    print(
        f"measured deals: {'every deal (live table)' if live else 'deals that finish a match'}; "
        f"{watcher.versions} standings versions seen by the watcher"
    )
    knee = None
    for number, phase in enumerate(phases):
        seconds = phase.ends - phase.starts
        posts = event.posts.summary(number, seconds, lambda s: s == "201")
        shown = summarise_saved(event.saved, number, only_finishing)
        offered = posts["requests"] + event.skipped[number]
        errors = posts["errors"]
        load = loads[number]
        print(
            f"\nphase {number + 1}: {phase.rate:g} deals/s offered for {seconds:.0f} s "
            f"(load before {load[0]:.2f}, after {load[1]:.2f}; 1-min average)"
        )
        print(
            f"live: {posts['requests'] - errors} deals stored of {offered} offered "
            f"({(posts['requests'] - errors) / seconds:.1f}/s), {errors} errors"
            + (f", {event.skipped[number]} with no table free" if event.skipped[number] else "")
            + f"; deal saved → live standings show it ({shown['measured']} measured, "
            f"{shown['never_shown']} never shown): "
            f"p50 {shown['p50_ms']:.0f} ms, p99 {shown['p99_ms']:.0f} ms"
        )
        if floor:
            print(
                f"  floor {floor['floor_ms']:.0f} ms (countdown {floor['countdown_ms']:.0f} ms "
                f"+ one recompute {floor['recompute_ms']:.0f} ms): "
                f"p50 {shown['p50_ms'] / floor['floor_ms']:.2f} ×, "
                f"p99 {shown['p99_ms'] / floor['floor_ms']:.2f} × the floor"
            )
        print(
            f"  referees' POST: p50 {posts['p50_ms']:.0f} ms, p99 {posts['p99_ms']:.0f} ms; "
            f"statuses {posts['statuses']}, {event.retries[number]} sent again after a lost answer"
        )
        if spectators is not None:
            ping = spectators["ping"][number]
            for kind, label in (("pages", "page fragment"), ("api", "API If-None-Match")):
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
            errors += sum(spectators[kind][number]["errors"] for kind in ("pages", "api"))
        if (
            shown["p99_ms"] < AIM_P99_MS
            and errors == 0
            and shown["never_shown"] == 0
            and not event.skipped[number]
        ):
            knee = phase.rate
    cpu = driven["cpu"]
    print(
        f"\nCPU seconds used during the {driven['wall']:.0f} s run (2 cores give "
        f"{2 * driven['wall']:.0f}): "
        + ", ".join(f"{name} {used:.1f}" for name, used in sorted(cpu.items(), key=lambda x: -x[1]))
    )
    if event.refusals:
        print(f"\nrefused deals: {dict(event.refusals)}; the last said {event.last_refusal!r}")
    if event.out_of_rounds:
        print("\nnote: the scheduled rounds ran out; raise --rounds")
    print(
        f"\nknee: {f'{knee:g} deals/s' if knee is not None else 'none'} is the fastest pace "
        f"with p99 under {AIM_P99_MS} ms, no error and every offered deal stored "
        f"({args.tables} tables, {args.spectators} spectators every {args.poll:g} s, "
        f"{args.web_workers} gunicorn workers, {args.celery_workers} Celery worker(s) × "
        f"concurrency {args.celery_concurrency})"
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument(
        "--rates",
        default="1,20,40",
        help="deals per second (all tables) in each phase, comma separated",
    )
    parser.add_argument("--phase-seconds", type=float, default=45)
    parser.add_argument("--deals-per-match", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=0, help="rounds scheduled (0: enough)")
    parser.add_argument("--poll", type=float, default=3.0, help="the pages' poll, seconds")
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
    """SIGTERM ends the bench like Ctrl-C does: through the clean-up below."""

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
    if not port_is_free(REDIS_PORT):
        raise SystemExit(f"port {REDIS_PORT} is taken: the bench starts its own Redis there")
    web_port = next((p for p in WEB_PORTS if port_is_free(p)), None)
    if web_port is None:
        raise SystemExit(f"no free port in {WEB_PORTS.start}–{WEB_PORTS.stop - 1}")
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
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    stack = Stack(logs)
    spectator_process = None
    created_database = False
    with interrupted_as_exit():
        try:
            stack.start(
                "redis",
                [
                    shutil.which("redis-server") or "redis-server",
                    "--port",
                    str(REDIS_PORT),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(logs),
                ],
                env,
            )
            fresh_database(admin, DATABASE)
            created_database = True
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            import redis

            wait_for(lambda: redis.Redis(port=REDIS_PORT).ping(), "redis", stack, seconds=15)
            started = time.perf_counter()
            total = sum(rates) * args.phase_seconds
            rounds = args.rounds or int(total / (args.tables * args.deals_per_match) * 1.3) + 2
            event_data = build_event(args.tables, rounds, args.deals_per_match)
            print(
                f"event: {args.tables} tables, {2 * args.tables} teams, {rounds} rounds "
                f"scheduled, {args.deals_per_match} deal(s) a match; built in "
                f"{time.perf_counter() - started:.1f} s"
            )
            from django.db import connections

            connections.close_all()
            python = sys.executable
            stack.start(
                "gunicorn",
                [
                    python,
                    "-m",
                    "gunicorn",
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{web_port}",
                    "--workers",
                    str(args.web_workers),
                    "--threads",
                    str(args.web_threads),
                    "--backlog",
                    "4096",
                    # Longer than the pages' poll, as a proxy in front would keep them.
                    "--keep-alive",
                    "10",
                    "--log-level",
                    "warning",
                ],
                env,
            )
            for n in range(1, args.celery_workers + 1):
                stack.start(
                    f"celery{n}",
                    [
                        python,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "-l",
                        "info",
                        "-n",
                        f"bench-live-{n}@%h",
                        "--concurrency",
                        str(args.celery_concurrency),
                        "--without-gossip",
                        "--without-mingle",
                    ],
                    env,
                )
            base_url = f"http://127.0.0.1:{web_port}"
            import httpx

            wait_for(
                lambda: httpx.get(f"{base_url}/api/v1/ping/").status_code == 200, "gunicorn", stack
            )
            for n in range(1, args.celery_workers + 1):
                log = logs / f"celery{n}.log"
                wait_for(lambda log=log: b" ready." in log.read_bytes(), "celery", stack)
            print(
                f"stack: gunicorn on {base_url} ({args.web_workers} workers × "
                f"{args.web_threads} threads), {args.celery_workers} Celery worker(s) × "
                f"concurrency {args.celery_concurrency}, Redis :{REDIS_PORT}, PostgreSQL "
                f"{DATABASE}; logs in {logs}"
            )
            # The first phase starts once every spectator's process is up.
            warm_up = 3.0
            t0 = time.monotonic() + warm_up
            phases_raw = [
                (rate, t0 + i * args.phase_seconds, t0 + (i + 1) * args.phase_seconds)
                for i, rate in enumerate(rates)
            ]
            from bench.live_clients import Phase

            phases = [Phase(*p) for p in phases_raw]
            spectator_results: Any = None
            if args.spectators:
                context = multiprocessing.get_context("spawn")
                spectator_results = context.Queue()
                from django.urls import reverse

                fragment = reverse(
                    "tournaments:standings_live", args=[event_data["club_slug"], event_data["slug"]]
                )
                config = {
                    "base_url": base_url,
                    "fragment": fragment,
                    "api": f"/api/v1/tournaments/{event_data['tournament']}/standings/",
                    "spectators": args.spectators,
                    "api_share": args.api_share,
                    "poll": args.poll,
                    "phases": phases_raw,
                    "timeout": args.timeout,
                }
                from bench.live_clients import run_spectators

                spectator_process = context.Process(
                    target=run_spectators, args=(config, spectator_results), daemon=True
                )
                spectator_process.start()
            load_task = _LoadSampler(phases)
            print(
                f"running {len(rates)} phases of {args.phase_seconds:g} s: "
                f"{', '.join(f'{r:g}' for r in rates)} deals/s; "
                f"{args.spectators} spectators polling every {args.poll:g} s"
            )
            cpu_before, own_before = stack.cpu_seconds(), time.process_time()
            driven = asyncio.run(
                _with_sampler(drive(args, event_data, base_url, phases), load_task)
            )
            cpu = {
                name: used - cpu_before.get(name, 0.0) for name, used in stack.cpu_seconds().items()
            }
            cpu["referees and watcher (bench)"] = time.process_time() - own_before
            loads = load_task.loads
            spectators = None
            if spectator_process is not None:
                spectators = json.loads(spectator_results.get(timeout=60))
                cpu["spectators (bench)"] = spectators.pop("cpu_seconds")
                spectator_process.join(timeout=10)
            driven["cpu"] = cpu
            driven["wall"] = time.monotonic() - phases[0].starts
            stack.stop()
            from django.conf import settings

            from tournaments.changes import COUNTDOWN_SECONDS

            recompute = time_recompute(event_data["tournament"])
            countdown = COUNTDOWN_SECONDS if settings.CELERY_BROKER_URL else 0.0
            floor = {
                "countdown_ms": countdown * 1000,
                "recompute_ms": recompute * 1000,
                "floor_ms": (countdown + recompute) * 1000,
            }
            report(args, phases, driven, spectators, loads, floor)
            shutil.rmtree(logs, ignore_errors=True)
        except KeyboardInterrupt:
            print("\ninterrupted: stopping everything the bench started", file=sys.stderr)
        finally:
            if spectator_process is not None and spectator_process.is_alive():
                spectator_process.terminate()
                spectator_process.join(timeout=5)
            stack.stop()
            if created_database and not args.keep_database:
                from django.db import connections

                connections.close_all()
                drop_database(admin, DATABASE)


class _LoadSampler:
    """The machine's 1-minute load average at each phase's start and end."""

    def __init__(self, phases: list[Any]) -> None:
        self.phases = phases
        self.loads: list[tuple[float, float]] = []

    async def run(self) -> None:
        for phase in self.phases:
            await asyncio.sleep(max(0.0, phase.starts - time.monotonic()))
            before = os.getloadavg()[0]
            await asyncio.sleep(max(0.0, phase.ends - time.monotonic()))
            self.loads.append((before, os.getloadavg()[0]))


async def _with_sampler(main_coroutine: Any, sampler: _LoadSampler) -> Any:
    sampling = asyncio.create_task(sampler.run())
    try:
        return await main_coroutine
    finally:
        sampling.cancel()


if __name__ == "__main__":
    random.seed(0)
    main()
