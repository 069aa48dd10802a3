"""The live stream in Debian's chromium: the site and a stream host on one uvicorn (in
production the site is gunicorn's and `config.asgi` serves the stream alone), Redis pub/sub
between them. A standings page opens the stream,
stops polling, and shows a deal entered at a table; a private tournament's page keeps polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.conftest import requires_postgres, requires_redis
from tests.e2e.conftest import PHONE, requires_chromium
from tests.tournaments.pages.pages_world import LITIGE, MADE_BY_NS, build_world
from tournaments.services.deals import enter_deal

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    requires_postgres,
    requires_redis,
    pytest.mark.django_db(transaction=True),
]
ARGS = ["les-atouts", "winter-cup"]
SECONDS = 3.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def _served(settings, origin: str | None = None) -> Iterator[tuple[str, Any]]:  # type: ignore[no-untyped-def]
    """The site and its stream on one uvicorn in a thread; its base URL. The stream host
    fetches from `origin` (by default that same server)."""
    import uvicorn
    from django.core.asgi import get_asgi_application

    site = get_asgi_application()
    from live.stream.app import StreamApp
    from live.stream.paths import PREFIX

    redis_url = os.environ["CELERY_BROKER_URL"]
    settings.LIVE_STREAM_URL = PREFIX
    settings.LIVE_REDIS_URL = redis_url
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    stream = StreamApp(origin or base, redis_url)

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan" or scope.get("path", "").startswith(PREFIX + "/"):
            await stream(scope, receive, send)
        else:
            await site(scope, receive, send)

    server = uvicorn.Server(
        uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    cache.clear()
    try:
        yield base, stream
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        cache.clear()


@pytest.fixture
def stream_site(settings):  # type: ignore[no-untyped-def]
    with _served(settings) as served:
        yield served


def _watch_polls(page: Any) -> list[str]:
    polls: list[str] = []
    page.on(
        "request",
        lambda request: polls.append(request.url) if "/standings/live/" in request.url else None,
    )
    return polls


def _wait_for_listener(stream: Any) -> None:
    deadline = time.monotonic() + 5
    while stream.hub is None or not stream.hub.listeners:
        assert time.monotonic() < deadline, "the page opened no stream"
        time.sleep(0.05)


def _wait_until_shown(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('#standings').dataset.live === '1'",
        timeout=SECONDS * 1000,
        polling=50,
    )


def test_a_standings_page_follows_the_stream_and_stops_polling(chromium_browser, stream_site):
    base, stream = stream_site
    world = build_world()
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    polls: list[str] = []
    try:
        page = context.new_page()
        page.on(
            "request",
            lambda request: (
                polls.append(request.url) if "/standings/live/" in request.url else None
            ),
        )
        page.goto(base + reverse("tournaments:standings", args=ARGS))
        assert page.locator('meta[name="live-stream"]').get_attribute("content") == "/stream"
        assert page.locator("#standings").get_attribute("data-live") == "0"
        _wait_for_listener(stream)
        # The host says "current" just after it counts the listener: a poll may slip in.
        page.wait_for_timeout(300)
        polls.clear()

        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
        saved = time.monotonic()
        page.wait_for_function(
            "() => document.querySelector('#standings').dataset.live === '1'",
            timeout=SECONDS * 1000,
            polling=50,
        )
        delay = time.monotonic() - saved
        print(f"\ndeal saved → shown through the stream: {delay:.2f} s")
        assert delay < SECONDS
        assert page.locator("#standings tbody tr.in-play").count() == 2
        # The stream brought the new version: the region sent no poll meanwhile.
        page.wait_for_timeout(1500)
        assert polls == []
    finally:
        context.close()


def test_a_streaming_page_built_from_patches_shows_what_a_fresh_page_shows(
    chromium_browser, stream_site
):
    """The page is sent the region whole once, then each version as a patch of the lines it
    holds (static/js/live.js applies them): after two deals it reads as a page opened now."""
    base, stream = stream_site
    world = build_world()
    url = base + reverse("tournaments:standings", args=ARGS)
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(url)
        _wait_for_listener(stream)
        polls = _watch_polls(page)
        page.wait_for_timeout(300)
        polls.clear()
        for entry in (MADE_BY_NS, LITIGE):
            topic = next(iter(stream.hub.topics.values()))
            before = topic.version
            enter_deal(world.other_match, entry, by=world.director)
            deadline = time.monotonic() + SECONDS
            while (
                topic.version == before
                or page.locator("#standings").get_attribute("data-version") != topic.version
            ):
                assert time.monotonic() < deadline, "the new version never showed"
                page.wait_for_timeout(50)
            assert topic.patches, "the version did not come as a patch"
        assert polls == []
        fresh = context.new_page()
        fresh.goto(url)
        shown = page.locator("#standings").inner_html()
        assert fresh.locator("#standings").inner_html() == shown
        assert page.locator("#standings tbody tr.in-play").count() == 2
    finally:
        context.close()


def test_a_private_tournaments_page_keeps_polling(chromium_browser, stream_site):
    base, stream = stream_site
    world = build_world()
    world.tournament.is_public = False
    world.tournament.save(update_fields=["is_public"])
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    polls: list[str] = []
    try:
        page = context.new_page()
        from tests.e2e.conftest import sign_in

        sign_in(page, base, world.director.username, reverse("tournaments:standings", args=ARGS))
        page.on(
            "request",
            lambda request: (
                polls.append(request.url) if "/standings/live/" in request.url else None
            ),
        )
        page.wait_for_timeout(2500)
        # The stream host fetches as an anonymous visitor: refused, so the page polls.
        assert polls
        assert stream.hub is not None and stream.hub.listeners == 0
    finally:
        context.close()


def test_a_page_whose_region_the_stream_host_cannot_fetch_keeps_polling(chromium_browser, settings):
    """A web tier that answers the stream host a redirect, a 400, a 5xx or nothing: the
    stream opens all the same, and the page used to stop polling on that alone and freeze."""
    with _served(settings, origin=f"http://127.0.0.1:{_free_port()}") as (base, stream):
        world = build_world()
        context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
        try:
            page = context.new_page()
            polls = _watch_polls(page)
            page.goto(base + reverse("tournaments:standings", args=ARGS))
            _wait_for_listener(stream)
            enter_deal(world.other_match, MADE_BY_NS, by=world.director)
            _wait_until_shown(page)  # brought by its polls
            assert stream.hub is not None and stream.hub.listeners == 1  # the stream stays
            assert polls
        finally:
            context.close()


def test_a_streaming_page_makes_up_an_announcement_that_was_lost(
    chromium_browser, stream_site, settings, monkeypatch
):
    """Redis refused the announcement (the stream host never hears of the deal): the page,
    which sends no poll while it streams, still checks its version now and then (every 30 s;
    1.5 s here) and shows the deal."""
    from live import announce as live

    base, stream = stream_site
    world = build_world()
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    context.add_init_script("window.beloteLiveCheckMs = 1500;")
    try:
        page = context.new_page()
        polls = _watch_polls(page)
        page.goto(base + reverse("tournaments:standings", args=ARGS))
        _wait_for_listener(stream)
        page.wait_for_timeout(300)
        polls.clear()
        page.wait_for_timeout(2000)
        # Streaming: a version check or two, not a poll every second.
        assert 1 <= len(polls) <= 2, polls

        # The web tier's Redis is gone; the stream host's is not.
        monkeypatch.setattr(live, "_announcer", {})
        monkeypatch.setattr(live, "_missed", set())
        settings.LIVE_REDIS_URL = f"redis://127.0.0.1:{_free_port()}/0"
        fetches = stream.hub.fetches
        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
        _wait_until_shown(page)
        assert stream.hub.fetches == fetches  # not through the stream
    finally:
        context.close()
