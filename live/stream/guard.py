"""The stream host's guard: only its own paths, a cap on one client's open streams, a header timeout.

Around the stream app (config/asgi.py), knowing nothing of it but its path prefix:

- a path outside the prefix answers 404: the stream host is not a second door to the site,
  where the registration throttle and the sign-in lockout would count other addresses;
- one client address holds at most `max_per_client` open streams
  (`STREAM_MAX_PER_CLIENT`); past that it is answered 429 and its page polls, so one
  client cannot fill the host (`MAX_LISTENERS`) and leave every other visitor polling.
  The address is the site's (`config.addresses.scope_address`, passed in as `address_of`);
- `HeaderTimeoutProtocol`, uvicorn's HTTP protocol (`--http`, httptools as uvicorn's default,
  or h11) that closes a connection whose request headers are not complete within
  `STREAM_HEADER_TIMEOUT_SECONDS`: uvicorn (0.55) has no such option, and arms its
  keep-alive timer only after a response, so a client that sends half a request line held
  its connection for as long as it liked. The proxy in front may time such a client out;
  the host does not rely on it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from uvicorn.protocols.http.h11_impl import H11Protocol

from .serve import answer

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# When a page refused for its address may try a stream again (it polls meanwhile).
RETRY_AFTER_SECONDS = 60


class StreamGuard:
    """The stream host's ASGI application: `app` behind the guards above."""

    def __init__(
        self, app: App, *, prefix: str, max_per_client: int, address_of: Callable[[Scope], str]
    ) -> None:
        self.app = app
        self.prefix = prefix.rstrip("/") + "/"
        self.max_per_client = max_per_client
        self.address_of = address_of
        # Open streams per client address, on this host (an event loop: no lock needed).
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # a websocket: refused (closed) by the server
        if not scope.get("path", "").startswith(self.prefix):
            await answer(send, 404, "not found: this host serves the live stream only")
            return
        client = self.address_of(scope)
        if self.max_per_client and self.open[client] >= self.max_per_client:
            await answer(
                send,
                429,
                "too many streams from your address: poll instead",
                [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())],
            )
            return
        self.open[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]


class HeaderTimeout:
    """Mixed into uvicorn's HTTP protocols: a connection that has not sent a whole request's
    headers within `STREAM_HEADER_TIMEOUT_SECONDS` of opening (or of its last response) is
    closed. Both protocols make their request cycle (`self.cycle`) once the headers are in.
    """

    _header_timer: asyncio.TimerHandle | None = None
    _awaited: Any = None
    cycle: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        # A request whose headers come in makes a new cycle; until then the awaited one stays.
        self._awaited = self.cycle
        seconds = float(getattr(settings, "STREAM_HEADER_TIMEOUT_SECONDS", 10))
        self._header_timer = self.loop.call_later(seconds, self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        no_new_request = self.cycle is self._awaited
        idle = self.cycle is None or self.cycle.response_complete
        if no_new_request and idle and not self.transport.is_closing():
            self.transport.close()


class H11HeaderTimeoutProtocol(HeaderTimeout, H11Protocol):
    """uvicorn's h11 protocol with the header timeout."""


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # uvicorn without httptools: h11 alone
    HeaderTimeoutProtocol: type[asyncio.Protocol] = H11HeaderTimeoutProtocol
else:

    class HttpToolsHeaderTimeoutProtocol(HeaderTimeout, HttpToolsProtocol):
        """uvicorn's httptools protocol (its default where installed) with the header timeout."""

    HeaderTimeoutProtocol = HttpToolsHeaderTimeoutProtocol
