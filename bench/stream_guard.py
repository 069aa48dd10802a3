"""The stream host's guards as an attacker meets them (issue 41 items 2, 4, 7), on a real uvicorn.

    .venv/bin/python -m bench.stream_guard

Prints, for uvicorn as compose starts it (`--no-proxy-headers --http
live.stream.guard:HeaderTimeoutProtocol`, `live.stream.guard.StreamGuard` in front) and for
uvicorn's defaults before it:

- how long a connection that sent half a request's headers stays open (up to 15 s);
- of 30 streams opened from one address with rotating X-Forwarded-For headers, how many are
  held and how many refused, and what a second address gets meanwhile.

The streams are held by a stand-in for the stream app (no Redis, no web tier needed): the
guard knows nothing of the app behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import uvicorn  # noqa: E402
from django.conf import settings  # noqa: E402

from config.addresses import scope_address  # noqa: E402
from live.stream.guard import StreamGuard  # noqa: E402

HALF = b"GET /stream/clubs/a/b/standings/live/ HTTP/1.1\r\nHost: x\r\n"
WAIT = 15.0


async def holding(scope: Any, receive: Any, send: Any) -> None:
    """A stream that stays open until the client goes."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b": open\n\n", "more_body": True})
    while (await receive())["type"] != "http.disconnect":
        pass


@contextlib.contextmanager
def served(app: Any, **options: Any) -> Iterator[int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def half_sent_held(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(HALF)
        raw.settimeout(WAIT)
        started = time.monotonic()
        try:
            while raw.recv(4096):
                pass
        except TimeoutError:
            return f"still open after {WAIT:.0f} s"
        return f"closed by the host after {time.monotonic() - started:.2f} s"


def open_streams(port: int, count: int) -> tuple[dict[int, int], list[socket.socket]]:
    held: list[socket.socket] = []
    statuses: dict[int, int] = {}
    for n in range(count):
        raw = socket.create_connection(("127.0.0.1", port))
        raw.sendall(
            b"GET /stream/clubs/a/b/standings/live/ HTTP/1.1\r\nHost: x\r\n"
            + f"X-Forwarded-For: 10.{n // 250}.{n % 250}.1\r\n\r\n".encode()
        )
        raw.settimeout(5)
        status = int(raw.recv(64).split(b" ")[1])
        statuses[status] = statuses.get(status, 0) + 1
        held.append(raw)
    return statuses, held


def main() -> None:
    guarded = StreamGuard(
        holding,
        prefix="/stream",
        max_per_client=settings.STREAM_MAX_PER_CLIENT,
        address_of=scope_address,
    )
    runs = [
        ("uvicorn's defaults, no guard", holding, {}),
        (
            "as compose runs it",
            guarded,
            {"proxy_headers": False, "http": "live.stream.guard:HeaderTimeoutProtocol"},
        ),
    ]
    print(
        f"DJANGO_NUM_PROXIES={settings.PROXY_COUNT}, "
        f"BELOTE_STREAM_MAX_PER_CLIENT={settings.STREAM_MAX_PER_CLIENT}, "
        f"BELOTE_STREAM_HEADER_TIMEOUT={settings.STREAM_HEADER_TIMEOUT_SECONDS:g}"
    )
    for name, app, options in runs:
        with served(app, **options) as port:
            print(f"{name}:")
            print(f"  half-sent headers: {half_sent_held(port)}")
            statuses, held = open_streams(port, 30)
            print(
                "  30 streams from 127.0.0.1 with rotating X-Forwarded-For: "
                + ", ".join(
                    f"{count} answered {status}" for status, count in sorted(statuses.items())
                )
            )
            for raw in held:
                raw.close()


if __name__ == "__main__":
    main()
