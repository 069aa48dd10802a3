"""The live bench's clients: referees entering deals, spectators following, the standings watcher.

No Django here: these talk HTTP to the gunicorn the bench started, with httpx on one asyncio
event loop per process (a thousand spectators are a thousand coroutines, not threads). The
referees and the watcher run in the bench's own process; the spectators in a process of
their own (`run_spectators`), so that their load does not delay the clocks the referees and
the watcher read. Both processes read the same monotonic clock (CLOCK_MONOTONIC is
system-wide on Linux), so a deal's "saved" time and its "shown" time compare directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import random
import re
import ssl
import statistics
import time
import uuid
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

# --- phases --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """A stretch of the run at one offered pace of deals (per second, all tables together)."""

    rate: float
    starts: float  # time.monotonic()
    ends: float
    mode: str = "poll"  # how the spectators follow: "poll" (htmx's polls) or "stream" (SSE)


def phase_of(phases: Sequence[Phase], at: float) -> int | None:
    for number, phase in enumerate(phases):
        if phase.starts <= at < phase.ends:
            return number
    return None


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`; NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


@dataclass(slots=True)
class Timings:
    """Latencies (seconds) and outcomes of one kind of request, per phase."""

    latencies: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, phase: int | None, status: str, latency: float) -> None:
        if phase is None:
            return
        self.statuses[phase][status] += 1
        self.latencies[phase].append(latency)

    def summary(self, phase: int, seconds: float, ok: Callable[[str], bool]) -> dict[str, Any]:
        seen = self.latencies.get(phase, [])
        statuses = self.statuses.get(phase, Counter())
        return {
            "requests": len(seen),
            "per_second": len(seen) / seconds if seconds else 0.0,
            "p50_ms": percentile(seen, 0.50) * 1000,
            "p99_ms": percentile(seen, 0.99) * 1000,
            "errors": sum(n for status, n in statuses.items() if not ok(status)),
            "statuses": dict(statuses),
        }


# --- the referees and the watcher (the bench's process) ------------------------------------

# A connection the server closed as the request left is lost in transit: clients send again.
RETRIES = 2


@dataclass(slots=True)
class Table:
    """One table's referee: their token and the match they play in each round, in order."""

    number: int
    token: str
    matches: list[tuple[int, int, int]]  # (match id, NS team id, EW team id) per round
    busy: bool = False
    deals_in_match: int = 0


@dataclass(slots=True)
class SavedDeal:
    """A deal the server stored: when, and each team's deal count it makes (what must show)."""

    phase: int
    saved_at: float
    finishes_match: bool
    expected: tuple[tuple[int, int], ...]  # (team id, deals entered for it so far)
    shown_at: float | None = None
    shown_version: tuple[int, int] | None = None  # the first standings version showing it


class Event:
    """The referees' side of the evening: tables, rounds in step, every deal saved."""

    def __init__(
        self,
        tables: list[Table],
        deals_per_match: int,
        make_entry: Callable[[random.Random], dict[str, Any]],
        seed: int = 1,
    ) -> None:
        self.tables = tables
        self.deals_per_match = deals_per_match
        self.make_entry = make_entry
        self.rng = random.Random(seed)
        self.round_index = 0
        self.finished_in_round = 0
        self.entered: Counter[int] = Counter()  # team id -> deals stored for it
        self.saved: list[SavedDeal] = []
        self.pending: list[SavedDeal] = []
        self.posts = Timings()
        self.skipped: Counter[int] = Counter()  # phase -> deals offered when no table was free
        self.retries: Counter[int] = Counter()  # phase -> requests sent again after a lost answer
        self.refusals: Counter[str] = Counter()
        self.last_refusal = ""
        self.out_of_rounds = False

    def ready(self) -> list[Table]:
        """Tables that can enter a deal now: nothing in flight, their match of this round open."""
        if self.round_index >= min(len(t.matches) for t in self.tables):
            self.out_of_rounds = True
            return []
        return [t for t in self.tables if not t.busy and t.deals_in_match < self.deals_per_match]

    async def enter(self, client: httpx.AsyncClient, table: Table, phase: int) -> None:
        """POST one deal as the table's referee, as the referee's app does (a fresh key).

        The caller marks the table busy before the task starts, so that it is not picked twice.
        """
        match_id, ns_team, ew_team = table.matches[self.round_index]
        entry = self.make_entry(self.rng)
        headers = {"Authorization": f"Token {table.token}", "Idempotency-Key": uuid.uuid4().hex}
        started = time.monotonic()
        status = "error"
        try:
            for attempt in range(RETRIES + 1):
                try:
                    response = await client.post(
                        f"/api/v1/matches/{match_id}/deals/", json=entry, headers=headers
                    )
                    status = str(response.status_code)
                    if status != "201":
                        self.refusals[status] += 1
                        self.last_refusal = response.text[:300]
                    break
                except httpx.TransportError as error:
                    # As the referee's app does: the same key again, so the deal is stored
                    # once whether or not the lost answer had stored it.
                    status = type(error).__name__
                    if attempt < RETRIES:
                        self.retries[phase] += 1
        finally:
            table.busy = False
        saved_at = time.monotonic()
        self.posts.add(phase, status, saved_at - started)
        if status != "201":
            return
        table.deals_in_match += 1
        self.entered[ns_team] += 1
        self.entered[ew_team] += 1
        deal = SavedDeal(
            phase,
            saved_at,
            table.deals_in_match == self.deals_per_match,
            ((ns_team, self.entered[ns_team]), (ew_team, self.entered[ew_team])),
        )
        self.saved.append(deal)
        self.pending.append(deal)
        if deal.finishes_match:
            self.finished_in_round += 1
            if self.finished_in_round == len(self.tables):
                # The round is over: every table moves on to its match of the next round.
                self.round_index += 1
                self.finished_in_round = 0
                for each in self.tables:
                    each.deals_in_match = 0

    def seen(
        self, deals_by_team: dict[int, int], at: float, version: tuple[int, int] | None = None
    ) -> None:
        """The standings now show these deal counts: every pending deal they cover is shown."""
        still = []
        for deal in self.pending:
            if all(deals_by_team.get(team, 0) >= count for team, count in deal.expected):
                deal.shown_at = at
                deal.shown_version = version
            else:
                still.append(deal)
        self.pending = still


# No deal is offered in a phase's last seconds: one saved then might not reach every page
# before the phase's mode ends, and `seen` would leave it out (and its delay from the p99).
QUIET_TAIL_SECONDS = 2.0


async def referees(
    event: Event, client: httpx.AsyncClient, phases: Sequence[Phase], stop: asyncio.Event
) -> None:
    """Offer deals at each phase's pace (Poisson arrivals) to a table that is free, until
    QUIET_TAIL_SECONDS before the phase ends."""
    tasks: set[asyncio.Task[None]] = set()
    rng = random.Random(7)
    now = time.monotonic()
    if now < phases[0].starts:
        await asyncio.sleep(phases[0].starts - now)
    for number, phase in enumerate(phases):
        at = max(time.monotonic(), phase.starts)
        while not stop.is_set():
            at += rng.expovariate(phase.rate)
            if at >= phase.ends - QUIET_TAIL_SECONDS:
                break
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            free = event.ready()
            if not free:
                event.skipped[number] += 1
                continue
            table = rng.choice(free)
            table.busy = True
            task = asyncio.create_task(event.enter(client, table, number))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)


def deal_counts(body: dict[str, Any]) -> tuple[dict[int, int], bool]:
    """Each team's `deals` figure in a standings answer, and whether it is the live table
    (the answer is `provisional`, or a line counts matches `in_play`)."""
    counts: dict[int, int] = {}
    live = bool(body.get("provisional"))
    for line in body.get("results", ()):
        counts[line["team"]["id"]] = line["deals"]
        live = live or bool(line.get("in_play"))
    return counts, live


@dataclass(slots=True)
class Watcher:
    """Polls the standings API every `interval` seconds (If-None-Match) and tells the event
    what each new version shows: the moment a deal is first shown, to within `interval`."""

    path: str
    interval: float
    versions: int = 0
    live_seen: bool = False
    polls: Timings = field(default_factory=Timings)

    async def run(
        self,
        event: Event,
        client: httpx.AsyncClient,
        phases: Sequence[Phase],
        stop: asyncio.Event,
    ) -> None:
        etag = ""
        while not stop.is_set():
            started = time.monotonic()
            status = "error"
            try:
                headers = {"If-None-Match": etag} if etag else {}
                response = await _get(client, self.path, headers=headers)
                status = str(response.status_code)
                if response.status_code == 200:
                    etag = response.headers.get("ETag", "")
                    counts, live = deal_counts(response.json())
                    self.versions += 1
                    self.live_seen = self.live_seen or live
                    event.seen(counts, time.monotonic(), etag_version(etag))
            except (httpx.HTTPError, ValueError) as error:
                status = type(error).__name__
            self.polls.add(phase_of(phases, started), status, time.monotonic() - started)
            await asyncio.sleep(max(0.0, self.interval - (time.monotonic() - started)))


def etag_version(etag: str) -> tuple[int, int] | None:
    """The standings version an API answer's ETag names (api/etags.standings_etag), as the
    pages write it (`data-version="<standings_seq>-<computed at, ms>"`)."""
    parts = etag.strip('"').split("-")
    try:
        return int(parts[2]), int(float(parts[4]) * 1000)
    except (IndexError, ValueError):
        return None


def covers(version: tuple[int, int], wanted: tuple[int, int]) -> bool:
    """`version` is `wanted` or later (the ETag's milliseconds may round one below)."""
    return version[0] > wanted[0] or (version[0] == wanted[0] and version[1] >= wanted[1] - 1)


# --- the spectators (a process of their own) -----------------------------------------------

_POLL_URL = re.compile(rb'hx-get="([^"]*)"')
_EVERY = re.compile(rb'hx-trigger="every ([0-9.]+)s"')
_VERSION = re.compile(rb'data-version="([0-9]+)-([0-9]+)"')
_EVENT_ID = re.compile(rb"\nid: ([0-9]+)-([0-9]+)\n")


@dataclass(slots=True)
class Sightings:
    """When one spectator first had each new standings version on its page: (seq, ms, at)."""

    log: list[tuple[int, int, float]] = field(default_factory=list)

    def saw(self, seq: int, ms: int, at: float) -> None:
        if not self.log or (seq, ms) > self.log[-1][:2]:
            self.log.append((seq, ms, at))


async def _spectator(
    client: httpx.AsyncClient,
    fragment: str,
    api: str | None,
    poll: float | None,
    phases: Sequence[Phase],
    timings: Timings,
    rng: random.Random,
    end: float,
    sightings: Sightings,
) -> None:
    """One open standings page until `end`. Polls as htmx does: the URL and the pace the
    last fragment names (`hx-get`, which carries the version shown, and `hx-trigger="every
    Ns"`; `poll` overrides the pace), each poll counted from the end of the one before. With
    `api`, polls the standings API with If-None-Match instead."""
    url = fragment
    every = poll or 3.0
    etag = ""
    await asyncio.sleep(rng.uniform(0, every))  # pages opened at different moments
    while True:
        started = time.monotonic()
        if started >= end:
            return
        status = "error"
        try:
            if api is None:
                response = await _get(client, url)
                if response.status_code == 200:
                    # The opening tag is enough (bytes, not decoded: 400 lines are 230 kB).
                    head = response.content[:2000]
                    if found := _VERSION.search(head):
                        sightings.saw(int(found[1]), int(found[2]), time.monotonic())
                    if found := _POLL_URL.search(head):
                        url = html.unescape(found.group(1).decode())
                    if poll is None and (pace := _EVERY.search(head)):
                        every = float(pace.group(1))
            else:
                headers = {"If-None-Match": etag} if etag else {}
                response = await _get(client, api, headers=headers)
                if response.status_code == 200:
                    etag = response.headers.get("ETag", "")
                    response.json()
            status = str(response.status_code)
        except (httpx.HTTPError, ValueError) as error:
            status = type(error).__name__
        timings.add(phase_of(phases, started), status, time.monotonic() - started)
        await asyncio.sleep(every)


# A streaming page still checks its version this often (static/js/live.js).
CHECK_SECONDS = 30.0


def _shown(sightings: Sightings) -> str:
    return f"{sightings.log[-1][0]}-{sightings.log[-1][1]}" if sightings.log else ""


async def _streamer(
    client: httpx.AsyncClient,
    config: dict[str, Any],
    phases: Sequence[Phase],
    timings: dict[str, Timings],
    rng: random.Random,
    end: float,
    sightings: Sightings,
) -> None:
    """One open standings page following the stream until `end`, as EventSource does: each
    event's id read as it arrives (bytes, not decoded), a stream that closes opened again;
    and, as live.js does, its version checked once 30 s pass with no event. `timings
    ["streams"]` counts each opening (to the first bytes; those before the first phase
    count in it), `"checks"` the checks."""
    await asyncio.sleep(rng.uniform(0, 2.0))  # pages opened at different moments
    heard = [time.monotonic()]  # when the stream last brought an event
    checking = asyncio.create_task(
        _checks(client, config["fragment"], phases, timings["checks"], end, sightings, heard)
    )
    try:
        await _stream(config["stream"], phases, timings["streams"], end, sightings, heard)
    finally:
        checking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await checking


async def _checks(
    client: httpx.AsyncClient,
    fragment: str,
    phases: Sequence[Phase],
    timings: Timings,
    end: float,
    sightings: Sightings,
    heard: list[float],
) -> None:
    """The version check of a streaming page, as live.js lets htmx's 1 s poll through once
    30 s pass with no event or check: its fragment with the version it shows, a 204 while
    nothing moved (a 200 brings a version the stream has not, and it is shown)."""
    checked = 0.0
    while time.monotonic() < end:
        await asyncio.sleep(1.0)
        started = time.monotonic()
        if started - max(heard[0], checked) < CHECK_SECONDS:
            continue
        checked = started
        status = "error"
        try:
            response = await _get(client, fragment, params={"v": _shown(sightings)})
            status = str(response.status_code)
            if response.status_code == 200 and (found := _VERSION.search(response.content[:2000])):
                sightings.saw(int(found[1]), int(found[2]), time.monotonic())
        except httpx.HTTPError as error:
            status = type(error).__name__
        timings.add(phase_of(phases, started), status, time.monotonic() - started)


async def _stream(
    stream: str,
    phases: Sequence[Phase],
    timings: Timings,
    end: float,
    sightings: Sightings,
    heard: list[float],
) -> None:
    """The stream itself, read as a browser's network stack would: on a connection of its
    own, chunked and gzipped. Not through httpx: a thousand httpx streams on these two cores
    spend more per event than the stream host does writing it, and the phones they stand
    for have CPUs of their own (the figures would be the bench's, not the site's)."""
    while time.monotonic() < end:
        started = time.monotonic()
        status = "error"
        counted = phase_of(phases, max(started, phases[0].starts))
        try:
            async with asyncio.timeout(max(0.0, end - started)):
                status = await _follow(
                    stream, _shown(sightings), timings, counted, sightings, heard
                )
            if status != "200":
                await asyncio.sleep(3.0)  # EventSource's retry
        except TimeoutError:
            return
        except (OSError, ValueError, asyncio.IncompleteReadError, zlib.error) as error:
            if status == "error":
                timings.add(counted, type(error).__name__, time.monotonic() - started)
            await asyncio.sleep(3.0)


async def _follow(
    stream: str,
    shown: str,
    timings: Timings,
    counted: int | None,
    sightings: Sightings,
    heard: list[float],
) -> str:
    """One stream request, its events read until the host closes it; its status."""
    started = time.monotonic()
    url = urlsplit(stream)
    reader, writer = await asyncio.open_connection(url.hostname, url.port or 80)
    try:
        query = urlencode({"v": shown, "lang": "en"})
        writer.write(
            f"GET {url.path}?{query} HTTP/1.1\r\nHost: {url.netloc}\r\n"
            "Accept: text/event-stream\r\nAccept-Encoding: gzip\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1].decode()
        timings.add(counted, status, time.monotonic() - started)
        if status != "200":
            return status
        headers = head.lower()
        gzipped = b"content-encoding: gzip" in headers
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
        if b"transfer-encoding: chunked" not in headers:
            raise ValueError("a stream that is not chunked")
        tail = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = (await reader.readexactly(size + 2))[:-2]
            if not size:
                return status
            at = time.monotonic()
            window = tail + (inflate.decompress(chunk) if inflate else chunk)
            for found in _EVENT_ID.finditer(window):
                sightings.saw(int(found[1]), int(found[2]), at)
                heard[0] = at
            tail = window[-80:]
    finally:
        writer.close()


async def _get(client: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A GET sent once more if its kept-alive connection was closed under it (browsers do)."""
    try:
        return await client.get(path, **kwargs)
    except httpx.TransportError:
        return await client.get(path, **kwargs)


async def _ping(
    client: httpx.AsyncClient, phases: Sequence[Phase], timings: Timings, every: float
) -> None:
    """The trivial view under the same load: the floor of any request's time."""
    end = phases[-1].ends
    while time.monotonic() < end:
        started = time.monotonic()
        status = "error"
        try:
            status = str((await _get(client, "/api/v1/ping/")).status_code)
        except httpx.HTTPError as error:
            status = type(error).__name__
        timings.add(phase_of(phases, started), status, time.monotonic() - started)
        await asyncio.sleep(every)


def _blocks(phases: Sequence[Phase]) -> list[tuple[str, float]]:
    """The runs of phases with one mode: (mode, when the run ends)."""
    blocks: list[tuple[str, float]] = []
    for phase in phases:
        if blocks and blocks[-1][0] == phase.mode:
            blocks[-1] = (phase.mode, phase.ends)
        else:
            blocks.append((phase.mode, phase.ends))
    return blocks


async def _follower(
    client: httpx.AsyncClient,
    config: dict[str, Any],
    api: str | None,
    phases: Sequence[Phase],
    timings: dict[str, Timings],
    rng: random.Random,
    sightings: Sightings,
) -> None:
    """One spectator through the run: polling or streaming, as each phase says."""
    for mode, end in _blocks(phases):
        if time.monotonic() >= end:
            continue
        if mode == "stream" and api is None:
            await _streamer(client, config, phases, timings, rng, end, sightings)
        else:
            kind = "api" if api is not None else "pages"
            await _spectator(
                client,
                config["fragment"],
                api,
                config["poll"],
                phases,
                timings[kind],
                rng,
                end,
                sightings,
            )


async def _spectators(config: dict[str, Any]) -> dict[str, Any]:
    phases = [Phase(*p) for p in config["phases"]]
    timings = {kind: Timings() for kind in ("pages", "api", "streams", "checks")}
    ping = Timings()
    rng = random.Random(11)
    n_api = round(config["spectators"] * config["api_share"])
    crowd_sightings = [Sightings() for _ in range(config["spectators"])]
    async with contextlib.AsyncExitStack() as clients:
        # A client each, as every browser has its own connection: one pool of a thousand
        # connections costs httpx more per request than the server spends answering it.
        tls = ssl.create_default_context()  # shared: unused on http, costly to make
        options = {"base_url": config["base_url"], "timeout": config["timeout"], "verify": tls}
        crowd = []
        for i in range(config["spectators"]):
            client = await clients.enter_async_context(httpx.AsyncClient(**options))
            crowd.append(
                _follower(
                    client,
                    config,
                    config["api"] if i < n_api else None,
                    phases,
                    timings,
                    rng,
                    crowd_sightings[i],
                )
            )
        pinger = await clients.enter_async_context(httpx.AsyncClient(**options))
        await asyncio.gather(*crowd, _ping(pinger, phases, ping, 0.1))
    figures: dict[str, Any] = {
        name: [kept.summary(n, p.ends - p.starts, _ok_poll) for n, p in enumerate(phases)]
        for name, kept in (*timings.items(), ("ping", ping))
    }
    figures["sightings"] = [each.log for each in crowd_sightings]
    figures["cpu_seconds"] = time.process_time()
    return figures


def _ok_poll(status: str) -> bool:
    return status in ("200", "204", "304")


def run_spectators(config: dict[str, Any], results: Any) -> None:
    """The spectators' process: poll until the last phase ends, then send the figures back."""
    with contextlib.suppress(KeyboardInterrupt):
        results.put(json.dumps(asyncio.run(_spectators(config))))


# How many of the slowest deals `summarise_seen` names.
SLOWEST = 5


def summarise_seen(
    saved: Sequence[SavedDeal],
    phase: int,
    only_finishing: bool,
    sightings: Sequence[Sequence[Sequence[float]]],
) -> dict[str, float | int]:
    """How long each deal of the phase took to show on each spectator's own page: from its
    save to the first version the spectator had that shows it (the watcher names it)."""
    import bisect

    counted = [
        d
        for d in saved
        if d.phase == phase and (d.finishes_match or not only_finishing) and d.shown_version
    ]
    delays: list[float] = []
    by_deal: dict[int, list[float]] = defaultdict(list)
    never = 0
    for log in sightings:
        versions = [(int(seq), int(ms)) for seq, ms, _at in log]
        for number, deal in enumerate(counted):
            assert deal.shown_version is not None
            seq, ms = deal.shown_version
            at = bisect.bisect_left(versions, (seq, ms - 1))
            if at < len(versions) and covers(versions[at], deal.shown_version):
                delays.append(max(0.0, log[at][2] - deal.saved_at))
                by_deal[number].append(delays[-1])
            else:
                never += 1
    # A deal's median over the spectators: its version's own delay, before the spread among
    # the spectators (a version late for all is the site's; a few pages late, theirs).
    medians = [statistics.median(each) for each in by_deal.values()]
    slowest = sorted(by_deal, key=lambda number: -statistics.median(by_deal[number]))[:SLOWEST]
    return {
        "measured": len(delays),
        "never": never,
        "p50_ms": percentile(delays, 0.50) * 1000,
        "p99_ms": percentile(delays, 0.99) * 1000,
        "median_p99_ms": percentile(medians, 0.99) * 1000,
        # The deals late for every page: when each was saved, how long the standings API
        # took to show it, and its median over the spectators (where a tail comes from).
        "slowest": [
            (
                counted[number].saved_at,
                _ms_or_nan(counted[number].shown_at, counted[number].saved_at),
                statistics.median(by_deal[number]) * 1000,
            )
            for number in slowest
        ],
    }


def _ms_or_nan(end: float | None, start: float) -> float:
    return (end - start) * 1000 if end is not None else float("nan")


def summarise_saved(
    saved: Sequence[SavedDeal], phase: int, only_finishing: bool
) -> dict[str, float | int]:
    """How long each deal of the phase took to show in the standings."""
    counted = [d for d in saved if d.phase == phase and (d.finishes_match or not only_finishing)]
    delays = [d.shown_at - d.saved_at for d in counted if d.shown_at is not None]
    return {
        "measured": len(counted),
        "never_shown": sum(1 for d in counted if d.shown_at is None),
        "p50_ms": percentile(delays, 0.50) * 1000,
        "p99_ms": percentile(delays, 0.99) * 1000,
        "mean_ms": (statistics.fmean(delays) * 1000) if delays else float("nan"),
    }
