"""The Redis cache as the site uses it: while Redis is unreachable it answers as an empty cache.

Nothing the site keeps in the cache is the only copy of anything (the data is in the
database): an API body or a live page fragment kept per version, throttle counts, the
send-window keys and the live versions of `tournaments.changes`. So a cache outage must
cost speed, never a request: every operation that fails to reach Redis is logged and
answered as a cache that holds nothing and stores nothing (`get` gives the default, `add` and `touch` False, `incr` raises
ValueError as for a missing key). After a failure the cache is left alone for
`PAUSE_SECONDS`, so that a request does not wait for a refused connection once per call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

T = TypeVar("T")

# How long a process leaves Redis alone after a failure before it tries again.
PAUSE_SECONDS = 2.0
# Bounded waits: a Redis that does not answer must not hold a request for long.
CONNECT_TIMEOUT_SECONDS = 0.5
READ_TIMEOUT_SECONDS = 0.5

# Per Redis location, shared by the threads of a process: when Redis answers again.
_paused_until: dict[str, float] = {}
_lock = threading.Lock()


def _unreachable() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, OSError)


class _ReusedClients(RedisCacheClient):
    """Django's Redis client that keeps one redis-py client per connection pool.

    Django builds a new `redis.Redis` for every operation, which costs several times the
    round trip to Redis itself; a client is thread-safe (its pool hands out connections).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._made: dict[bool, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        if len(self._servers) > 1:  # type: ignore[attr-defined]
            return super().get_client(key, write=write)
        client = self._made.get(write)
        if client is None:
            client = self._made[write] = super().get_client(key, write=write)
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that degrades to no cache while Redis is down (module docstring)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options = params.setdefault("OPTIONS", {})
        options.setdefault("socket_connect_timeout", CONNECT_TIMEOUT_SECONDS)
        options.setdefault("socket_timeout", READ_TIMEOUT_SECONDS)
        # redis-py retries a refused connection three times with back-off by default: the
        # pause below is our retry, so one attempt per call.
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(server, params)
        self._class = _ReusedClients
        self._where = server if isinstance(server, str) else ",".join(server)

    def _guarded(self, operation: str, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        if _paused_until.get(self._where, 0.0) > time.monotonic():
            return fallback()
        try:
            return call()
        except _unreachable() as error:
            with _lock:
                first = _paused_until.get(self._where, 0.0) <= time.monotonic()
                _paused_until[self._where] = time.monotonic() + PAUSE_SECONDS
            if first:
                log.warning("cache unreachable (%s: %s); serving without it", operation, error)
            return fallback()

    def is_reachable(self) -> bool:
        """False while the cache is known to be down (a recent operation failed)."""
        return _paused_until.get(self._where, 0.0) <= time.monotonic()

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        if isinstance(timeout, float) and timeout > 0 and not timeout.is_integer():
            return self._guarded(
                "add", lambda: self._add_briefly(key, value, timeout, version), _no
            )
        return self._guarded(
            "add", lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), _no
        )

    def _add_briefly(self, key: Any, value: Any, timeout: float, version: Any) -> bool:
        """`add` for less than a second or a fraction of one: Django's Redis cache rounds
        timeouts down to whole seconds (0.15 would be 0: no window at all), Redis keeps
        milliseconds."""
        key = self.make_and_validate_key(key, version=version)
        backend: Any = self._cache  # type: ignore[attr-defined]  # RedisCache's client
        client = backend.get_client(key, write=True)
        stored = backend._serializer.dumps(value)
        return bool(client.set(key, stored, nx=True, px=max(1, round(timeout * 1000))))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guarded(
            "get",
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: default,
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guarded(
            "set", lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), _none
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "touch", lambda: super(ResilientRedisCache, self).touch(key, timeout, version), _no
        )

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._guarded(
            "delete", lambda: super(ResilientRedisCache, self).delete(key, version), _no
        )

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._guarded(
            "get_many", lambda: super(ResilientRedisCache, self).get_many(keys, version), dict
        )

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._guarded(
            "has_key", lambda: super(ResilientRedisCache, self).has_key(key, version), _no
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        def missing() -> int:
            raise ValueError(f"Key '{key}' not found.")

        return self._guarded(
            "incr", lambda: super(ResilientRedisCache, self).incr(key, delta, version), missing
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "set_many",
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda: list(data),
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._guarded(
            "delete_many",
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            _none,
        )

    def clear(self) -> Any:
        return self._guarded("clear", lambda: super(ResilientRedisCache, self).clear(), _no)


def _no() -> bool:
    return False


def _none() -> None:
    return None


def cache_config(url: str) -> dict[str, Any]:
    """Django's cache settings for `url` (django-environ's schemes), Redis through this module."""
    import environ

    config: dict[str, Any] = environ.Env.cache_url_config(url)
    if config["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        config["BACKEND"] = "config.cache.ResilientRedisCache"
    return config


def cache_is_reachable(cache: Any) -> bool:
    """Whether `cache` is believed to answer (any cache but this one always is)."""
    check = getattr(cache, "is_reachable", None)
    return bool(check()) if callable(check) else True
