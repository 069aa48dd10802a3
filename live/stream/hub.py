"""The topics of a stream host (a region in one variant and language) and the pages that watch
them: each new version fetched once, sent to every listener as a patch of what it holds."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from .events import (
    CURRENT,
    KEEPALIVE,
    NEWEST,
    PATCH_AT_MOST,
    POLL,
    Frame,
    line_patch,
    patch_event,
    region_lines,
    sse_event,
)

log = logging.getLogger(__name__)

VERSION = re.compile(rb'data-version="([^"]*)"')

# How often the host looks for streams owed a keepalive or at the end of their lifetime.
TICK_SECONDS = 1.0
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
    region: str  # the name of its events (live.regions.LiveRegion.name)
    follows: str  # the version it follows: "changes" or "standings" (LiveRegion.version)
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
        """New versions of the channel's subject (`changes.standings`, as
        live.versions.LiveState.both): refresh each of its topics whose version moved, once."""
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
            version = moved[topic.follows]
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
                    # (live.fragments renders a version once). Ask again in a moment.
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
