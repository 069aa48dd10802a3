"""The live stream's hub (live/stream/hub.py, served by live/stream/serve.py), without a server: one fetch and one
compression per new version, the same bytes to every listener that holds the same version
(the region whole when a page comes, a patch after), 404 for what is not public."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import zlib

import pytest

from live.stream import hub as stream
from live.stream import serve as serving
from live.stream.events import (
    CURRENT,
    GZIP_HEADER,
    NEWEST,
    POLL,
    apply_patch,
    deflated,
    region_lines,
    sse_event,
)
from live.stream.hub import Hub, Listener
from live.stream.paths import topic_of
from live.stream.serve import serve

STANDINGS = "/stream/clubs/les-atouts/winter-cup/standings/live/"


@pytest.fixture(autouse=True)
def fetch_at_once(monkeypatch):  # type: ignore[no-untyped-def]
    """No spacing between a region's fetches (test_fetches_of_a_region_are_spaced has it)."""
    monkeypatch.setattr("live.stream.hub.FETCH_EVERY_SECONDS", 0.0)


def region(version: str, rows: int = 40) -> bytes:
    lines = "\n".join(f"<tr><td>{n}</td></tr>" for n in range(rows))
    return f'<div id="standings" data-version="{version}">\n{lines}\n</div>'.encode()


def scope(path: str = STANDINGS, query: str = "v=1-0&lang=fr", gzip: bool = True) -> dict:
    headers = [(b"host", b"belote.example")]
    if gzip:
        headers.append((b"accept-encoding", b"gzip, deflate, br"))
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "headers": headers,
    }


class FakeWeb:
    """The web tier as the hub sees it: the current version of the region, or a status (0:
    no answer at all)."""

    def __init__(self, version: str = "1-0", status: int = 200) -> None:
        self.version = version
        self.status = status
        self.asked: list[str | None] = []
        self.subscribed: list[str] = []
        self.unsubscribed: list[str] = []
        self.gate: asyncio.Event | None = None

    async def fetch(self, topic):  # type: ignore[no-untyped-def]
        self.asked.append(topic.version)
        if self.gate is not None:
            await self.gate.wait()
        if self.status == 0:
            raise OSError("connection refused")
        if self.status != 200:
            return self.status, b""
        if topic.version == self.version:
            return 204, b""
        return 200, region(self.version)

    async def subscribe(self, channel: str) -> None:
        self.subscribed.append(channel)

    async def unsubscribe(self, channel: str) -> None:
        self.unsubscribed.append(channel)

    def hub(self) -> Hub:
        return Hub(self.fetch, self.subscribe, self.unsubscribe)


def run(coroutine):  # type: ignore[no-untyped-def]
    # In a thread of its own: a browser test earlier in the session leaves Playwright's event
    # loop running in this one, where asyncio.run refuses to start another.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def patch_of(frame) -> tuple[str, str, list, list]:  # type: ignore[no-untyped-def]
    """A patch event's (id, from, new lines, ops)."""
    head, _, data = frame.plain.decode().partition("\ndata: ")
    assert head.startswith("event: patch\nid: ")
    body = json.loads(data)
    return head.removeprefix("event: patch\nid: "), body["from"], body["lines"], body["ops"]


def test_events_deflated_apart_decode_as_one_gzip_stream():
    first = sse_event("standings", "1-0", ["<p>one</p>"])
    second = sse_event("standings", "2-0", ["<p>two</p>", "<p>lines</p>"])
    stream = GZIP_HEADER + deflated(b"retry: 3000\n\n") + deflated(first) + deflated(second)
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert decoder.decompress(stream) == b"retry: 3000\n\n" + first + second
    # Each event's bytes depend on the event alone: the same for every connection.
    assert deflated(second) == deflated(second)


def test_an_event_carries_every_line_of_the_region_and_its_version():
    event = sse_event("standings", "7-1700", region_lines("<div>\n<p>a</p>\n</div>"))
    assert event == b"event: standings\nid: 7-1700\ndata: <div>\ndata: <p>a</p>\ndata: </div>\n\n"


def test_a_stream_request_names_its_topic_language_and_variant():
    topic, gzip = topic_of(scope(query="v=3-9&lang=nl&after=2&junk=1"))
    assert (topic.region, topic.path, topic.language) == (
        "standings",
        "/clubs/les-atouts/winter-cup/standings/live/",
        "nl",
    )
    assert topic.query == {"after": "2"} and gzip
    assert topic.channel == "belote:live:les-atouts/winter-cup"
    # Anything else is no topic: another fragment, a variant that is not a round, a language
    # that is not one.
    assert topic_of(scope(path="/stream/clubs/a/b/teams/3/live/")) is None
    assert topic_of(scope(query="after=1;drop")) is None
    assert topic_of(scope(query="lang=../../etc")) is None


def test_listeners_of_a_region_share_one_fetch_and_one_frame_per_version():
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        behind, current = Listener(), Listener()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, behind)
        again, _ = topic_of(scope())
        assert await hub.join(again, current) is joined
        assert web.asked == [None]  # one fetch for both
        assert web.subscribed == ["belote:live:les-atouts/winter-cup"]
        # Each is sent the region whole once: the patches that follow apply to it.
        assert behind.take(joined) is current.take(joined) is joined.frame
        assert current.take(joined).plain == b": keepalive\n\n"  # owed nothing more

        web.version = "2-0"
        hub.published("belote:live:les-atouts/winter-cup")
        await joined.fetching
        assert web.asked == [None, "1-0"]
        assert current.pending is behind.pending is NEWEST
        # Both hold 1-0: one patch, made and compressed once, for both.
        patch = behind.take(joined)
        assert current.take(joined) is patch
        version, since, texts, ops = patch_of(patch)
        assert (version, since) == ("2-0", "1-0")
        assert "\n".join(apply_patch(region_lines(region("1-0").decode()), texts, ops)) == (
            region("2-0").decode()
        )
        assert zlib.decompressobj(-zlib.MAX_WBITS).decompress(patch.packed) == patch.plain
        assert b'data-version="2-0"' in joined.frame.plain

        await hub.leave(joined, behind)
        assert web.unsubscribed == []
        await hub.leave(joined, current)
        assert web.unsubscribed == ["belote:live:les-atouts/winter-cup"]
        assert hub.topics == {} and hub.listeners == 0

    run(scenario())


def test_a_burst_of_new_versions_costs_two_fetches_not_one_each():
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        web.gate = asyncio.Event()
        web.version = "2-0"
        hub.published(joined.channel)
        while len(web.asked) < 2:  # a fetch under way, held at the gate
            await asyncio.sleep(0)
        for n in range(3, 12):
            web.version = f"{n}-0"
            hub.published(joined.channel)
        web.gate.set()
        while not joined.fetching.done():
            await asyncio.sleep(0)
        return joined

    joined = run(scenario())
    assert len(web.asked) == 3  # the first, the one under way, the one after it
    assert joined.version == "11-0"


def test_fetches_of_a_region_are_spaced(monkeypatch):
    """At a peak the standings move several times a second: the region is fetched (a whole
    render for the web tier, an event for every listener) FETCH_BURST times at once, then
    at most every FETCH_EVERY_SECONDS, and the fetch after the pause brings the newest."""
    monkeypatch.setattr("live.stream.hub.FETCH_EVERY_SECONDS", 0.2)
    assert stream.FETCH_BURST == 2
    web = FakeWeb("1-0")
    started: list[float] = []

    async def scenario():  # type: ignore[no-untyped-def]
        loop = asyncio.get_running_loop()
        fetch = web.fetch

        async def timed(topic):  # type: ignore[no-untyped-def]
            started.append(loop.time())
            return await fetch(topic)

        web.fetch = timed  # type: ignore[method-assign]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        for n in range(2, 7):
            web.version = f"{n}-0"
            hub.published(joined.channel)
            await asyncio.sleep(0.03)
        await joined.fetching
        return joined

    joined = run(scenario())
    assert joined.version == "6-0"
    # The page's own and the first new version at once; then one after the pause for the
    # four versions that came within it.
    assert len(started) == 3
    assert started[1] - started[0] < 0.1
    assert started[2] - started[0] >= 0.2


def test_a_region_fetched_after_a_quiet_while_goes_at_once_twice(monkeypatch):
    """At an evening's pace two deals often end close together: neither waits."""
    monkeypatch.setattr("live.stream.hub.FETCH_EVERY_SECONDS", 0.5)
    web = FakeWeb("1-0")
    started: list[float] = []

    async def scenario():  # type: ignore[no-untyped-def]
        loop = asyncio.get_running_loop()
        fetch = web.fetch

        async def timed(topic):  # type: ignore[no-untyped-def]
            started.append(loop.time())
            return await fetch(topic)

        web.fetch = timed  # type: ignore[method-assign]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        await asyncio.sleep(1.0)  # quiet: the credit is whole again
        for n in (2, 3):
            web.version = f"{n}-0"
            hub.published(joined.channel)
            await joined.fetching
        return joined

    joined = run(scenario())
    assert joined.version == "3-0"
    assert len(started) == 3
    assert started[2] - started[1] < 0.1


def test_a_version_announced_again_while_its_fetch_is_under_way_asks_nothing_more():
    """Every change announces both regions' versions: the standings' comes again with each
    deal's schedule change. A fetch that started after the version was announced brings
    it; asking again would cost a render and, at a peak, the next version's turn."""
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        web.version = "2-0"
        web.gate = asyncio.Event()
        hub.published(joined.channel, "5.2-0")
        while len(web.asked) < 2:  # the fetch of 2-0 under way, held at the gate
            await asyncio.sleep(0)
        hub.published(joined.channel, "6.2-0")  # the same standings, a schedule change
        hub.published(joined.channel, "7.2-0")
        web.gate.set()
        await joined.fetching
        hub.published(joined.channel, "8.2-0")  # held now: nothing to ask
        await asyncio.sleep(0)
        return joined

    joined = run(scenario())
    assert joined.version == "2-0"
    assert web.asked == [None, "1-0"]


def test_an_announced_version_the_web_tier_is_still_rendering_is_asked_for_again():
    """The web tier renders a version once and answers 204 to a fetch that comes while it
    renders: the host asks again a moment later instead of waiting for the next deal."""
    web = FakeWeb("1-0")
    fetch = web.fetch

    async def rendering_once(topic):  # type: ignore[no-untyped-def]
        if len(web.asked) == 1:  # the fetch after the announcement, while it renders
            web.asked.append(topic.version)
            return 204, b""
        return await fetch(topic)

    web.fetch = rendering_once  # type: ignore[method-assign]

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        web.version = "2-0"
        hub.published(joined.channel, "5.2-0")
        await joined.fetching
        return joined

    joined = run(scenario())
    assert joined.version == "2-0"
    assert web.asked == [None, "1-0", "1-0"]


def test_a_region_the_web_tier_does_not_show_anonymous_visitors_answers_404():
    web = FakeWeb(status=404)
    sent: list[dict] = []

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.disconnect"}

    hub = web.hub()
    run(serve(hub, scope(), receive, send))
    assert sent[0]["status"] == 404
    assert hub.topics == {} and hub.listeners == 0


@pytest.mark.parametrize(
    ("path", "method", "status"),
    [("/stream/clubs/a/b/matches/1/live/", "GET", 404), (STANDINGS, "POST", 405)],
)
def test_only_a_get_of_a_streamed_region_opens_a_stream(path, method, status):
    sent: list[dict] = []

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.disconnect"}

    asked = scope(path=path)
    asked["method"] = method
    run(serve(FakeWeb().hub(), asked, receive, send))
    assert sent[0]["status"] == status


def test_a_stream_sends_the_newer_version_then_follows_until_the_page_goes():
    web = FakeWeb("2-0")
    sent: list[dict] = []
    leave = asyncio.Event

    async def scenario():  # type: ignore[no-untyped-def]
        gone = leave()
        hub = web.hub()

        async def send(message):  # type: ignore[no-untyped-def]
            sent.append(message)

        async def receive():  # type: ignore[no-untyped-def]
            await gone.wait()
            return {"type": "http.disconnect"}

        served = asyncio.ensure_future(serve(hub, scope(query="v=1-0&lang=en"), receive, send))
        while len(sent) < 3:
            await asyncio.sleep(0.01)
        web.version = "3-0"
        hub.published("belote:live:les-atouts/winter-cup")
        while len(sent) < 4:
            await asyncio.sleep(0.01)
        gone.set()
        await served
        return hub

    hub = run(scenario())
    start = sent[0]
    assert start["status"] == 200
    assert (b"content-encoding", b"gzip") in start["headers"]
    assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    text = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body).decode()
    assert text.startswith("retry: 3000\n\n")
    # The region whole, then the patch from it to the next version.
    assert 'event: standings\nid: 2-0\ndata: <div id="standings" data-version="2-0">' in text
    assert text.index("id: 2-0") < text.index("event: patch\nid: 3-0\ndata: ")
    assert hub.listeners == 0 and hub.topics == {}


def test_a_change_that_leaves_a_regions_version_alone_fetches_nothing():
    web = FakeWeb("4-100")

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, Listener())
        # A deal committed: the schedule's version moved, the standings' not yet.
        hub.published(joined.channel, "12.4-100")
        assert joined.fetching.done()
        web.version = "5-200"
        hub.published(joined.channel, "12.5-200")  # the recompute stored them
        await joined.fetching
        return joined

    joined = run(scenario())
    assert web.asked == [None, "4-100"]
    assert joined.version == "5-200"


@pytest.mark.parametrize("status", [301, 400, 500, 503, 0])
def test_a_region_the_web_tier_does_not_answer_tells_its_pages_to_poll(status):
    """A redirect (DJANGO_SSL_REDIRECT), a DisallowedHost 400, a 5xx, no answer at all: the
    page is told to poll instead of waiting on a stream that brings nothing."""
    web = FakeWeb("1-0", status=status)

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        listener = Listener()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, listener)
        assert joined is not None and joined.failing
        assert listener.take(joined) is POLL
        # The web tier answers again: the page, which holds no region yet, is sent it whole
        # and streams again.
        web.status, web.version = 200, "2-0"
        hub.published(joined.channel)
        await joined.fetching
        assert not joined.failing
        assert listener.take(joined) is joined.frame
        assert b'data-version="2-0"' in joined.frame.plain
        await hub.leave(joined, listener)
        assert hub.topics == {}

    run(scenario())


def test_a_region_that_stops_answering_sends_its_pages_back_to_polling_then_streaming():
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        listener = Listener()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, listener)
        assert listener.take(joined) is joined.frame

        web.status = 502  # the web tier redeploying
        hub.published(joined.channel)
        await joined.fetching
        assert listener.take(joined) is POLL

        # Back, with the version the page holds: it is told so (which makes it stop
        # polling), not left polling.
        web.status = 200
        hub.published(joined.channel)
        await joined.fetching
        assert listener.take(joined) is CURRENT and not joined.failing
        await hub.leave(joined, listener)

    run(scenario())


def test_a_failing_region_is_fetched_again_without_waiting_for_a_change(monkeypatch):
    monkeypatch.setattr("live.stream.hub.RETRY_FETCH_SECONDS", 0.05)
    web = FakeWeb("1-0", status=503)

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        listener = Listener()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, listener)
        assert listener.pending is POLL
        web.status = 200
        for _ in range(200):
            if listener.pending is not POLL:
                break
            await asyncio.sleep(0.01)
        assert listener.take(joined) is joined.frame
        await hub.leave(joined, listener)
        assert joined.retry is None

    run(scenario())


def test_a_stream_whose_region_cannot_be_fetched_says_poll():
    """The stream itself: 200, then the `poll` event the page acts on (static/js/live.js)."""
    web = FakeWeb(status=500)
    sent: list[dict] = []

    async def scenario():  # type: ignore[no-untyped-def]
        gone = asyncio.Event()

        async def send(message):  # type: ignore[no-untyped-def]
            sent.append(message)

        async def receive():  # type: ignore[no-untyped-def]
            await gone.wait()
            return {"type": "http.disconnect"}

        hub = web.hub()
        served = asyncio.ensure_future(serve(hub, scope(gzip=False), receive, send))
        while len(sent) < 3:
            await asyncio.sleep(0.01)
        gone.set()
        await served

    run(scenario())
    assert sent[0]["status"] == 200
    body = b"".join(m.get("body", b"") for m in sent[1:])
    assert body == b"retry: 3000\n\nevent: poll\ndata: 1\n\n"


def test_a_quiet_stream_is_kept_alive_then_closed_at_the_end_of_its_lifetime(monkeypatch):
    """No new version: the page is written a keepalive every KEEPALIVE_SECONDS (the hub's
    tick wakes it, no timer of its own), and its stream ends after LIFETIME_SECONDS."""
    monkeypatch.setattr(serving, "KEEPALIVE_SECONDS", 0.05)
    monkeypatch.setattr(stream, "TICK_SECONDS", 0.01)
    monkeypatch.setattr(serving, "LIFETIME_SECONDS", 0.5)
    sent: list[dict] = []

    async def scenario():  # type: ignore[no-untyped-def]
        hub = FakeWeb("2-0").hub()

        async def send(message):  # type: ignore[no-untyped-def]
            sent.append(message)

        async def receive():  # type: ignore[no-untyped-def]
            await asyncio.sleep(60)  # the page stays
            return {"type": "http.disconnect"}

        asked = scope(query="v=2-0&lang=en", gzip=False)
        await asyncio.wait_for(serve(hub, asked, receive, send), 5)
        return hub

    hub = run(scenario())
    body = b"".join(message.get("body", b"") for message in sent[1:])
    assert body.startswith(b"retry: 3000\n\nevent: standings\nid: 2-0\n")
    # 0.5 s at one every 0.05 s at most, the last at the end (a tick's wake for every page
    # would be ~50); at least a few, on an event loop a busy machine may hold up.
    assert 3 <= body.count(b": keepalive\n\n") <= 11
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert hub.listeners == 0 and hub.topics == {}
