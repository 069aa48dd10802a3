"""What makes up an announcement that never reached a stream host: the host's refresh after
each (re)subscription, its subscribing once Redis answers, and the publisher announcing a
channel again after a failure."""

from __future__ import annotations

import asyncio
import time

import pytest

from live import announce as live
from live.stream.app import StreamApp
from live.stream.hub import Listener
from live.stream.paths import topic_of
from tests.live.test_stream_hub import (
    FakeWeb,
    fetch_at_once,  # noqa: F401  (autouse)
    run,
    scope,
)

CHANNEL = "belote:live:les-atouts/winter-cup"


class FakePubSub:
    """redis-py's asyncio PubSub as the reader sees it: its channels, then its messages."""

    def __init__(self) -> None:
        self.channels: set[str] = set()
        self.messages: asyncio.Queue[dict] = asyncio.Queue()
        self.down = False

    @property
    def subscribed(self) -> bool:
        return bool(self.channels)

    async def subscribe(self, *channels: str) -> None:
        if self.down:
            raise ConnectionError("Redis is down")
        self.channels.update(channels)
        for channel in channels:
            self.messages.put_nowait({"type": "subscribe", "channel": channel.encode()})

    async def unsubscribe(self, *channels: str) -> None:
        self.channels.difference_update(channels)

    async def get_message(self, timeout: float = 0.0) -> dict | None:
        try:
            return await asyncio.wait_for(self.messages.get(), timeout)
        except TimeoutError:
            return None

    async def reset(self) -> None:
        self.channels.clear()


def stream_app(web: FakeWeb) -> tuple[StreamApp, FakePubSub]:
    app = StreamApp("http://web:8000", "redis://unused", host="belote.example.org")
    pubsub = FakePubSub()
    app._pubsub = pubsub
    app.hub = web.hub()
    app.hub.subscribe, app.hub.unsubscribe = pubsub.subscribe, pubsub.unsubscribe
    return app, pubsub


async def until(condition, seconds: float = 3.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.01)


def test_a_resubscription_refetches_what_was_announced_meanwhile():
    """redis-py reconnects a lost pub/sub connection and subscribes again by itself; what
    was published in between never arrives, so the confirmation is what tells the host."""
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        app, pubsub = stream_app(web)
        assert app.hub is not None
        reader = asyncio.ensure_future(app._read())
        listener = Listener()
        topic, _ = topic_of(scope())
        joined = await app.hub.join(topic, listener)
        assert listener.take(joined) is joined.frame
        # The first confirmation refreshes too (a page may have come while Redis was away).
        await until(lambda: len(web.asked) == 2 and joined.fetching.done())

        web.version = "2-0"  # announced while the connection was down: lost
        pubsub.messages.put_nowait({"type": "subscribe", "channel": CHANNEL.encode()})
        await until(lambda: joined.version == "2-0")
        assert listener.take(joined).plain.startswith(b"event: patch\nid: 2-0\n")
        reader.cancel()

    run(scenario())


def test_a_page_that_came_while_redis_was_down_is_subscribed_once_it_answers():
    web = FakeWeb("1-0")

    async def scenario():  # type: ignore[no-untyped-def]
        app, pubsub = stream_app(web)
        assert app.hub is not None
        pubsub.down = True
        listener = Listener()
        topic, _ = topic_of(scope())
        # The page is served all the same (the region came from the web tier).
        joined = await app.hub.join(topic, listener)
        assert joined is not None and not pubsub.channels
        reader = asyncio.ensure_future(app._read())
        web.version = "2-0"
        pubsub.down = False
        await until(lambda: pubsub.channels == {CHANNEL})
        # Subscribed at last: the region is fetched again, and the page has the new version.
        await until(lambda: joined.version == "2-0")
        assert listener.take(joined) is joined.frame  # it held none: the region whole
        pubsub.messages.put_nowait(
            {"type": "message", "channel": CHANNEL.encode(), "data": b"5.3-0"}
        )
        web.version = "3-0"
        await until(lambda: joined.version == "3-0")
        reader.cancel()

    run(scenario())


class FakeRedis:
    def __init__(self) -> None:
        self.published: list[tuple[str, str]] = []
        self.down = False

    def publish(self, channel: str, message: str) -> None:
        if self.down:
            raise ConnectionError("Redis is down")
        self.published.append((channel, message))


@pytest.fixture
def announcer(settings, monkeypatch):  # type: ignore[no-untyped-def]
    settings.LIVE_REDIS_URL = "redis://fake:6379/0"
    redis = FakeRedis()
    monkeypatch.setattr(live, "_announcer", {settings.LIVE_REDIS_URL: redis})
    monkeypatch.setattr(live, "_missed", set())
    return redis


def test_an_announcement_that_failed_is_made_again_after_the_next_that_works(announcer):
    announcer.down = True
    live.announce("belote:live:a/one", "3.2-0")
    live.announce("belote:live:a/two", "7.1-0")  # paused: not even tried
    assert announcer.published == []

    announcer.down = False
    live._announcer["paused_until"] = 0.0
    live.announce("belote:live:a/three", "1.0-0")
    # The missed channels with no versions: the hosts refetch their regions and see.
    assert announcer.published[0] == ("belote:live:a/three", "1.0-0")
    assert sorted(announcer.published[1:]) == [("belote:live:a/one", ""), ("belote:live:a/two", "")]
    live.announce("belote:live:a/three", "2.0-0")
    assert announcer.published[-1] == ("belote:live:a/three", "2.0-0")
    assert len(announcer.published) == 4


def test_a_channel_announced_anew_is_not_announced_again(announcer):
    announcer.down = True
    live.announce("belote:live:a/one", "3.2-0")
    announcer.down = False
    live._announcer["paused_until"] = 0.0
    live.announce("belote:live:a/one", "4.2-0")
    assert announcer.published == [("belote:live:a/one", "4.2-0")]
