"""The live stream: each new version of a public live region, pushed once to every open page.

A page that shows the standings or the schedule polls its fragment every second
(views/live.py). With a stream host configured (`LIVE_STREAM_URL`), it opens a server-sent
events stream here instead and stops polling once the stream proves live: its region, a
patch of it, or `current` (the page already shows the newest version). It polls again on
`poll` (the host cannot fetch the region), on an error, and once 30 s pass with no event
(a version check, 204 while nothing moved), which makes up a version whose announcement
was lost. A stream host is an ASGI app (uvicorn) that holds the open pages' connections and
no database connection:

- it learns of a new version from Redis pub/sub (`tournaments.live` publishes each
  tournament's versions after a change commits and after a recompute stores standings);
- it fetches the region for that version once, from the web tier, as an anonymous visitor
  in the listeners' language (so who may read what is decided there, once: a private or
  draft tournament answers 404 and its pages keep polling), under a host name the site
  trusts (`trusted_host`: never a visitor's) and as the HTTPS request it stands for;
- after each (re)subscription to a channel it fetches that channel's regions again: what
  was announced while the subscription was down is made up;
- it sends a page that opens a stream the region whole, then each new version as a patch
  of the version that page holds (tournaments/stream_events.py), made and compressed once
  for every listener that holds the same one.

A listener that is slow is owed only the newest version: when it can be written to again it
gets the patch from the version it holds (or, if that one is no longer kept, the region
whole), and skips the versions between.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from .selectors.live import live_key
from .stream_events import (
    CURRENT,
    GZIP_HEADER,
    KEEPALIVE,
    NEWEST,
    PATCH_AT_MOST,
    POLL,
    Frame,
    deflated,
    line_patch,
    patch_event,
    region_lines,
    sse_event,
)

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

PREFIX = "/stream"
# The regions every open page of a tournament watches: the same bytes for every visitor.
REGIONS = {"standings": "standings", "schedule": "changes"}
FRAGMENT = re.compile(
    r"/clubs/(?P<club>[-\w]+)/(?P<slug>[-\w]+)/(?P<region>standings|schedule)/live/"
)
# What a region's query may carry besides its version: the variant (views/live.py `shared`).
VARIANTS = {"standings": ("after",), "schedule": ("round",)}
LANGUAGE = re.compile(r"[a-z]{2}(-[a-z]{2,4})?")
VERSION = re.compile(rb'data-version="([^"]*)"')

# A comment every so often keeps proxies and phones from closing an idle stream.
KEEPALIVE_SECONDS = 15.0
# How often the host looks for streams owed a keepalive or at the end of their lifetime.
TICK_SECONDS = 1.0
# A stream is closed after this long; the page reconnects (EventSource does by itself), so
# no connection outlives a deploy by much and listeners spread over the hosts that are up.
LIFETIME_SECONDS = 30 * 60
# How long a browser waits before it reconnects a stream that closed.
RETRY_MILLISECONDS = 3000
# Listeners one host holds at most; past that it answers 503 and the page polls.
MAX_LISTENERS = 5000
# A region the web tier did not answer is asked for again this often while pages watch it
# (they poll meanwhile), so they go back to the stream without waiting for a change.
RETRY_FETCH_SECONDS = 10.0
# A region is fetched at most once this often, after a burst of FETCH_BURST: at a peak (20
# deals a second) the standings move up to eight times a second, and each version costs the
# web tier a render of the whole region (~20 ms of CPU for 400 teams) and every listener an
# event. A version waits up to this long for its fetch: 0.4 s was most of what a spectator
# waited at a peak, before the render was made cheaper and steadier (bench/NOTES.md,
# 2026-12-05). At an evening's pace two deals often end close together: the burst lets both
# go at once, and only a third so soon waits for its turn (a token bucket).
FETCH_EVERY_SECONDS = 0.2
FETCH_BURST = 2
# A version announced that the web tier answers 204 for is being rendered for another
# request: asked for again after this, a few times (an announcement older than the version
# held, delivered late, would otherwise be asked for forever).
RENDERING_SECONDS = 0.05
RENDERING_TRIES = 3
# The versions of a topic whose lines are kept, to patch a page that holds one of them.
HISTORY = 8


@dataclass(eq=False)
class Listener:
    """One open page: what it is owed (`NEWEST`, `POLL`, `CURRENT`) and the version whose
    lines it holds from this stream (None until it is sent a region)."""

    pending: Frame | None = None
    holds: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    # When the page is next written to with nothing new (a keepalive, or its stream's end),
    # on the event loop's clock: the hub's tick wakes it then (`Hub._tick`).
    due: float = float("inf")

    def offer(self, frame: Frame) -> None:
        self.pending = frame
        self.wake.set()

    def take(self, topic: Topic) -> Frame:
        """What to write now: what it is owed (`NEWEST` made a patch or the region, as the
        version it holds allows), else a keepalive."""
        frame, self.pending = self.pending, None
        if frame is NEWEST:
            frame = topic.frame_for(self.holds)
            self.holds = topic.version
        return frame or KEEPALIVE


@dataclass(eq=False)
class Topic:
    """A region of a tournament in one variant and language, and the pages that watch it."""

    key: str
    channel: str
    region: str
    path: str
    query: dict[str, str]
    language: str
    version: str | None = None
    frame: Frame | None = None  # the region whole, at `version`
    # The lines of the last HISTORY versions, oldest first, and the patches made from them
    # to `version` (one per version its listeners hold).
    kept_lines: dict[str, tuple[str, ...]] = field(default_factory=dict)
    patches: dict[str, Frame] = field(default_factory=dict)
    listeners: set[Listener] = field(default_factory=set)
    fetching: asyncio.Task[None] | None = None
    # The fetches this topic may start now (at most FETCH_BURST), as of `credit_at` (the
    # event loop's clock); one more every FETCH_EVERY_SECONDS.
    credit: float = FETCH_BURST
    credit_at: float = float("-inf")
    again: bool = False
    # The newest version announced for this region, and the one announced when the fetch in
    # flight started: that fetch brings it (or newer), so announcing it again asks nothing.
    announced: str | None = None
    asked: str | None = None
    gone: bool = False
    # The last fetch failed: listeners were told to poll, and the fetch is retried.
    failing: bool = False
    retry: asyncio.TimerHandle | None = None

    def moved_to(self, version: str, html: str) -> None:
        lines = region_lines(html)
        self.version = version
        self.frame = Frame(sse_event(self.region, version, lines))
        self.kept_lines[version] = lines
        while len(self.kept_lines) > HISTORY:
            del self.kept_lines[next(iter(self.kept_lines))]
        self.patches = {}

    def frame_for(self, holds: str | None) -> Frame:
        """What a listener that holds version `holds` is sent for the newest: nothing new
        (`CURRENT`), a patch, or the region whole (it holds none, or one no longer kept, or
        the patch would be nearly as long)."""
        assert self.frame is not None and self.version is not None
        if holds == self.version:
            return CURRENT
        old = self.kept_lines.get(holds) if holds is not None else None
        if old is None or holds is None:
            return self.frame
        patch = self.patches.get(holds)
        if patch is None:
            texts, ops = line_patch(old, self.kept_lines[self.version])
            plain = patch_event(holds, self.version, texts, ops)
            small = len(plain) <= PATCH_AT_MOST * len(self.frame.plain)
            patch = self.patches[holds] = Frame(plain) if small else self.frame
        return patch


Fetch = Callable[[Topic], Awaitable[tuple[int, bytes]]]


class Hub:
    """The topics of one stream host, fed by one pub/sub subscription.

    `fetch(topic)` asks the web tier for the topic's region (status, HTML); `subscribe` and
    `unsubscribe` follow the channels that have topics (a real host: Redis pub/sub).
    """

    def __init__(
        self,
        fetch: Fetch,
        subscribe: Callable[[str], Awaitable[None]],
        unsubscribe: Callable[[str], Awaitable[None]],
    ) -> None:
        self.fetch = fetch
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.topics: dict[str, Topic] = {}
        self.channels: dict[str, set[str]] = {}
        self.listeners = 0
        self.fetches = 0
        self._ticking: asyncio.Task[None] | None = None

    async def join(self, topic: Topic, listener: Listener) -> Topic | None:
        """Add a listener, owed the region whole; None when the region is not public."""
        kept = self.topics.get(topic.key)
        if kept is None:
            self.topics[topic.key] = kept = topic
            keys = self.channels.setdefault(topic.channel, set())
            keys.add(topic.key)
            if len(keys) == 1:
                try:
                    await self.subscribe(topic.channel)
                except Exception:
                    # The reader subscribes once Redis answers, and then refreshes the region.
                    log.warning("stream: %s not subscribed yet", topic.channel, exc_info=True)
            kept.fetching = asyncio.ensure_future(self.refresh(kept))
        if kept.frame is None and kept.fetching is not None and not kept.fetching.done():
            await asyncio.shield(kept.fetching)
        if kept.gone:
            self._drop(kept)
            return None
        kept.listeners.add(listener)
        self.listeners += 1
        if self._ticking is None or self._ticking.done():
            self._ticking = asyncio.ensure_future(self._tick())
        # Whole even when the page shows that version: the patches that follow apply to it.
        listener.offer(POLL if kept.failing or kept.frame is None else NEWEST)
        return kept

    async def leave(self, topic: Topic, listener: Listener) -> None:
        if listener in topic.listeners:
            topic.listeners.discard(listener)
            self.listeners -= 1
        if not topic.listeners and self.topics.get(topic.key) is topic:
            self._drop(topic)
            keys = self.channels.get(topic.channel)
            if keys is not None and not keys:
                del self.channels[topic.channel]
                await self.unsubscribe(topic.channel)

    async def _tick(self) -> None:
        """Wake each page owed a keepalive or at the end of its stream, while there are any:
        one task for all of them, where a timer of each pump's own (asyncio.wait_for) cost
        two fifths of a host's CPU at 20 deals a second (py-spy, bench.live)."""
        loop = asyncio.get_running_loop()
        while self.listeners:
            await asyncio.sleep(TICK_SECONDS)
            now = loop.time()
            for topic in list(self.topics.values()):
                for listener in topic.listeners:
                    if listener.due <= now:
                        listener.wake.set()

    def _drop(self, topic: Topic) -> None:
        if topic.retry is not None:
            topic.retry.cancel()
            topic.retry = None
        self.topics.pop(topic.key, None)
        keys = self.channels.get(topic.channel)
        if keys is not None:
            keys.discard(topic.key)

    def published(self, channel: str, versions: str = "") -> None:
        """New versions of the channel's tournament (`changes.standings`, as
        selectors.LiveState.both): refresh each of its topics whose version moved, once."""
        changes, _, standings = versions.partition(".")
        moved = {"changes": changes, "standings": standings}
        for key in list(self.channels.get(channel, ())):
            topic = self.topics.get(key)
            if topic is None:
                continue
            if not versions:
                topic.announced = None  # unknown: whatever the fetch brings
                self._refresh_soon(topic)
                continue
            version = moved[REGIONS[topic.region]]
            in_flight = topic.fetching is not None and not topic.fetching.done()
            # A version announced once more (with every change of the other region) asks
            # nothing of a topic that holds it or whose fetch started after it was announced:
            # at an evening's pace those fetches were half of all, and used up the credit.
            if version == topic.version or (in_flight and version == topic.asked):
                continue
            topic.announced = version
            self._refresh_soon(topic)

    def _refresh_soon(self, topic: Topic) -> None:
        if topic.fetching is not None and not topic.fetching.done():
            topic.again = True  # one more fetch when this one ends: a burst costs two
            return
        topic.fetching = asyncio.ensure_future(self.refresh(topic))

    async def refresh(self, topic: Topic) -> None:
        """Fetch the topic's region (when its turn comes, `_take_credit`); a new version
        goes to every listener, as one frame."""
        rendering = 0
        while True:
            await self._take_credit(topic)
            topic.again = False
            topic.asked = topic.announced
            try:
                self.fetches += 1
                status, html = await self.fetch(topic)
            except Exception:
                log.warning("stream: %s not fetched", topic.key, exc_info=True)
                status, html = 0, b""
            found = VERSION.search(html[:4000]) if status == 200 else None
            if status in (403, 404, 410):
                topic.gone = True
                for listener in topic.listeners:
                    listener.wake.set()
            elif found is not None:
                version = found.group(1).decode()
                moved = version != topic.version
                if moved:
                    topic.moved_to(version, html.decode())
                self._recovered(topic, send=moved or topic.failing)
            elif status == 204 and topic.frame is not None:
                self._recovered(topic, send=topic.failing)
                if topic.asked not in (None, topic.version) and rendering < RENDERING_TRIES:
                    # Announced, yet not there: the web tier renders it for another request
                    # (views/live.py renders a version once). Ask again in a moment.
                    rendering += 1
                    await asyncio.sleep(RENDERING_SECONDS)
                    topic.again = True
            else:
                self._failed(topic, status)
            if not topic.again:
                return

    @staticmethod
    async def _take_credit(topic: Topic) -> None:
        """Wait until the topic may fetch (FETCH_BURST at once, then one every
        FETCH_EVERY_SECONDS), and take that fetch's credit."""
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            every = FETCH_EVERY_SECONDS
            earned = (now - topic.credit_at) / every if every > 0 else FETCH_BURST
            credit = min(float(FETCH_BURST), topic.credit + earned)
            if credit >= 1:
                topic.credit, topic.credit_at = credit - 1, now
                return
            await asyncio.sleep((1 - credit) * every)

    def _recovered(self, topic: Topic, send: bool) -> None:
        topic.failing = False
        if send and topic.frame is not None:
            # Pages that were polling follow the stream again on what they are sent: the
            # newest as a patch or whole, or `current` when they hold it already.
            for listener in topic.listeners:
                listener.offer(NEWEST)

    def _failed(self, topic: Topic, status: int) -> None:
        """A redirect, a 400, a 5xx, no answer: the region's pages poll until a fetch works."""
        if not topic.failing:
            log.warning("stream: %s answered %s; its pages poll", topic.key, status or "nothing")
            topic.failing = True
        for listener in topic.listeners:
            listener.offer(POLL)
        if topic.retry is None and not topic.gone:
            topic.retry = asyncio.get_running_loop().call_later(
                RETRY_FETCH_SECONDS, self._retry, topic
            )

    def _retry(self, topic: Topic) -> None:
        topic.retry = None
        if topic.failing and self.topics.get(topic.key) is topic:
            self._refresh_soon(topic)


def topic_of(scope: Scope) -> tuple[Topic, bool] | None:
    """The topic a stream request asks for and whether it takes gzip; None for anything
    that is not one of the streamed regions."""
    path = scope.get("path", "")
    if not path.startswith(PREFIX + "/"):
        return None
    fragment = path[len(PREFIX) :]
    found = FRAGMENT.fullmatch(fragment)
    if found is None:
        return None
    raw = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    region = found["region"]
    query = {}
    for name in VARIANTS[region]:
        value = (raw.get(name) or [""])[0]
        if value:
            if not (value.isdigit() and len(value) <= 5):
                return None
            query[name] = value
    language = (raw.get("lang") or ["en"])[0].lower()
    if not LANGUAGE.fullmatch(language):
        return None
    # The visitor's Host is not read: every fetch uses one the site trusts (`trusted_host`),
    # or a visitor could name one the site refuses and freeze the region for everyone.
    headers = {name.lower(): value for name, value in scope.get("headers", ())}
    gzip = b"gzip" in headers.get(b"accept-encoding", b"")
    key = f"{fragment}?{urlencode(sorted(query.items()))}|{language}"
    # The pub/sub channel of a tournament's versions is its live key (live.announce).
    channel = live_key(found["club"], found["slug"])
    return Topic(key, channel, region, fragment, query, language), gzip


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def _answer(send: Send, status: int, text: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


async def serve(hub: Hub, scope: Scope, receive: Receive, send: Send) -> None:
    """One stream request: 404 unless a public region, else the events until the page goes."""
    if scope.get("method") not in ("GET", "HEAD"):
        await _answer(send, 405, "GET only")
        return
    asked = topic_of(scope)
    if asked is None:
        await _answer(send, 404, "not a live region")
        return
    if hub.listeners >= MAX_LISTENERS:
        await _answer(send, 503, "full: poll instead")
        return
    wanted, gzip = asked
    listener = Listener()
    topic = await hub.join(wanted, listener)
    if topic is None:
        await _answer(send, 404, "not a public live region")
        return
    headers = [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-store"),
        # nginx passes each event on at once instead of filling its buffer first.
        (b"x-accel-buffering", b"no"),
        (b"vary", b"Accept-Encoding"),
    ]
    if gzip:
        headers.append((b"content-encoding", b"gzip"))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        opening = f"retry: {RETRY_MILLISECONDS}\n\n".encode()
        await send(
            {
                "type": "http.response.body",
                "body": (GZIP_HEADER + deflated(opening)) if gzip else opening,
                "more_body": True,
            }
        )
        if scope.get("method") == "HEAD":
            return
        await _pump(topic, listener, receive, send, gzip)
    finally:
        await hub.leave(topic, listener)


async def _pump(topic: Topic, listener: Listener, receive: Receive, send: Send, gzip: bool) -> None:
    gone = asyncio.ensure_future(_disconnected(receive, listener))
    loop = asyncio.get_running_loop()
    ends = loop.time() + LIFETIME_SECONDS
    try:
        while not gone.done() and not topic.gone and loop.time() < ends:
            listener.due = min(loop.time() + KEEPALIVE_SECONDS, ends)
            await listener.wake.wait()
            listener.wake.clear()
            if gone.done() or topic.gone:
                break
            await send(
                {
                    "type": "http.response.body",
                    "body": listener.take(topic).body(gzip),
                    "more_body": True,
                }
            )
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:
        pass  # the page went away while we wrote to it
    finally:
        gone.cancel()


async def _disconnected(receive: Receive, listener: Listener) -> None:
    while (await receive()).get("type") != "http.disconnect":
        pass
    listener.wake.set()  # the pump stops waiting for the next version at once


def trusted_host(origin: str, allowed_hosts: Sequence[str], debug: bool = False) -> str:
    """The Host a stream host fetches the regions with: the origin's when the site answers
    to it, else the first name of ALLOWED_HOSTS (`.example.org` stands for example.org).

    Never a visitor's: the hub fetches a region once for all its listeners, so one page
    that named a host the site refuses (400) would freeze the region for everyone. The
    origin is the web tier as the stream hosts reach it (`http://web:8000`), often a name
    the site does not answer to; the language travels in the query (the topic's key) and
    the fetch's cookie, so one Host serves every language.
    """
    from django.http.request import split_domain_port, validate_host

    netloc = urlsplit(origin).netloc
    allowed = list(allowed_hosts)
    if debug and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    domain, _ = split_domain_port(netloc)
    if domain and validate_host(domain, allowed):
        return netloc
    for pattern in allowed:
        name = pattern.lstrip(".")
        if name and name != "*":
            return name
    return netloc or "localhost"


class StreamApp:
    """The ASGI app of a stream host: Redis pub/sub in, the web tier's regions fetched."""

    def __init__(
        self, origin: str, redis_url: str, host: str | None = None, transport: Any = None
    ) -> None:
        self.origin = origin.rstrip("/")
        self.redis_url = redis_url
        if host is None:
            from django.conf import settings

            host = trusted_host(self.origin, settings.ALLOWED_HOSTS, settings.DEBUG)
        self.host = host
        self.transport = transport  # tests: the web tier answered in process
        self.hub: Hub | None = None
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if not (self.origin and self.redis_url):
            log.error("stream: no BELOTE_LIVE_STREAM_ORIGIN or Redis; every stream answers 503")
            return
        import redis.asyncio as redis

        self._client = self.client()
        connection = redis.Redis.from_url(self.redis_url)
        # The confirmations are read: each one refreshes its channel's regions (`_read`).
        self._pubsub = connection.pubsub(ignore_subscribe_messages=False)
        self.hub = Hub(self._fetch, self._pubsub.subscribe, self._pubsub.unsubscribe)
        self._reader = asyncio.ensure_future(self._read())

    def client(self) -> Any:
        import httpx

        return httpx.AsyncClient(base_url=self.origin, timeout=10.0, transport=self.transport)

    async def stop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()

    def fetch_headers(self, topic: Topic) -> dict[str, str]:
        """The headers of a region's fetch: anonymous, in the topic's language."""
        return {
            "Host": self.host,
            # The fetch stands for the pages' HTTPS requests: behind DJANGO_SSL_REDIRECT the
            # web tier would answer a plain one 301 (production trusts this header:
            # SECURE_PROXY_SSL_HEADER; elsewhere it is ignored).
            "X-Forwarded-Proto": "https",
            "Cookie": f"django_language={topic.language}",
            "Accept-Language": topic.language,
        }

    async def _fetch(self, topic: Topic) -> tuple[int, bytes]:
        query = dict(topic.query)
        if topic.version:
            query["v"] = topic.version
        response = await self._client.get(
            topic.path, params=query, headers=self.fetch_headers(topic)
        )
        return response.status_code, response.content

    async def _read(self) -> None:
        """Every message names its channel; a lost subscription is made again, and each
        subscription confirmed refreshes its channel's regions: a version announced while
        it was down (Redis away, a reconnect) reaches the pages all the same."""
        assert self.hub is not None
        while True:
            try:
                if not self._pubsub.subscribed:
                    # Never made (Redis down when a page came) or lost with its connection.
                    wanted = list(self.hub.channels)
                    if not wanted:
                        await asyncio.sleep(0.1)
                        continue
                    await self._pubsub.subscribe(*wanted)
                message = await self._pubsub.get_message(timeout=1.0)
                if not message:
                    continue
                kind = message.get("type")
                channel = _text(message.get("channel"))
                if kind == "message":
                    self.hub.published(channel, _text(message.get("data")))
                elif kind == "subscribe":
                    # redis-py also subscribes again by itself after a reconnect.
                    self.hub.published(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("stream: pub/sub lost, subscribing again", exc_info=True)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await self._pubsub.reset()  # forgets its channels: subscribed above

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if self.hub is None:
            await _answer(send, 503, "no stream here: poll instead")
            return
        await serve(self.hub, scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
