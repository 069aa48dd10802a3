"""One stream request: the region whole, then each new version, until the page goes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .events import GZIP_HEADER, deflated
from .hub import Hub, Listener, Topic
from .paths import topic_of

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# A comment every so often keeps proxies and phones from closing an idle stream.
KEEPALIVE_SECONDS = 15.0
# A stream is closed after this long; the page reconnects (EventSource does by itself), so
# no connection outlives a deploy by much and listeners spread over the hosts that are up.
LIFETIME_SECONDS = 30 * 60
# How long a browser waits before it reconnects a stream that closed.
RETRY_MILLISECONDS = 3000
# Listeners one host holds at most; past that it answers 503 and the page polls.
MAX_LISTENERS = 5000


async def answer(send: Send, status: int, text: str, headers: list[Any] | None = None) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"cache-control", b"no-store"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


async def serve(hub: Hub, scope: Scope, receive: Receive, send: Send) -> None:
    """One stream request: 404 unless a public region, else the events until the page goes."""
    if scope.get("method") not in ("GET", "HEAD"):
        await answer(send, 405, "GET only")
        return
    asked = topic_of(scope)
    if asked is None:
        await answer(send, 404, "not a live region")
        return
    if hub.listeners >= MAX_LISTENERS:
        await answer(send, 503, "full: poll instead")
        return
    wanted, gzip = asked
    listener = Listener()
    topic = await hub.join(wanted, listener)
    if topic is None:
        await answer(send, 404, "not a public live region")
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
