"""The announcement of new versions to the stream hosts, on Redis pub/sub."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

# A Redis that fails is left alone this long: a write must not wait for it once per change.
ANNOUNCE_PAUSE_SECONDS = 2.0
# Channels whose announcement failed, announced again after the next one that works; a
# bound, so that a long outage does not grow it without end (the pages' 30 s version check
# and the hosts' refresh after they subscribe again cover what is left out).
MISSED_AT_MOST = 1000
_announcer: dict[str, Any] = {}
_missed: set[str] = set()


def announce(channel: str, versions: str) -> None:
    """Tell the stream hosts (live/stream/) that `channel`'s subject (its live key) has new
    versions, on Redis pub/sub; nothing without a stream host (settings.LIVE_REDIS_URL
    empty).

    A failure is not made up at once: the channel is announced again, with no versions (the
    hosts fetch its regions and find what moved), after the next announcement that gets
    through; a streaming page also checks its version every 30 s (static/js/live.js)."""
    url = settings.LIVE_REDIS_URL
    if not url:
        return
    if time.monotonic() < _announcer.get("paused_until", 0.0):
        _miss(channel)
        return
    try:
        client = _announcer.get(url)
        if client is None:
            import redis

            client = _announcer[url] = redis.Redis.from_url(
                url, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        client.publish(channel, versions)
    except Exception:
        _failed(channel)
        return
    _missed.discard(channel)
    while True:
        try:
            missed = _missed.pop()
        except KeyError:  # empty, perhaps emptied by another thread meanwhile
            return
        try:
            client.publish(missed, "")
        except Exception:
            _failed(missed)
            return


def _failed(channel: str) -> None:
    _announcer["paused_until"] = time.monotonic() + ANNOUNCE_PAUSE_SECONDS
    _miss(channel)
    log.warning("live versions of %s not announced", channel, exc_info=True)


def _miss(channel: str) -> None:
    if len(_missed) < MISSED_AT_MOST:
        _missed.add(channel)
