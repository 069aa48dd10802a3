"""The ASGI app of a stream host: Redis pub/sub in, the web tier's regions fetched over HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from .hub import Hub, Topic
from .serve import Receive, Scope, Send, answer, serve

log = logging.getLogger(__name__)


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
            await answer(send, 503, "no stream here: poll instead")
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


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
