"""The live stream in Debian's chromium: the site and a stream host on one uvicorn (as
`config.asgi` serves them), Redis pub/sub between them. A standings page opens the stream,
stops polling, and shows a deal entered at a table; a private tournament's page keeps polling.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.conftest import requires_postgres, requires_redis
from tests.e2e.conftest import PHONE, requires_chromium
from tests.tournaments.pages_world import MADE_BY_NS, build_world
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


@pytest.fixture
def stream_site(settings):  # type: ignore[no-untyped-def]
    """The site and its stream on one uvicorn in a thread; its base URL."""
    import uvicorn

    from config.asgi import site
    from tournaments.stream import PREFIX, StreamApp

    redis_url = os.environ["CELERY_BROKER_URL"]
    settings.LIVE_STREAM_URL = PREFIX
    settings.LIVE_REDIS_URL = redis_url
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    stream = StreamApp(base, redis_url)

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
    yield base, stream
    server.should_exit = True
    thread.join(timeout=10)
    cache.clear()


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
        deadline = time.monotonic() + 5
        while stream.hub is None or not stream.hub.listeners:
            assert time.monotonic() < deadline, "the page opened no stream"
            time.sleep(0.05)
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
