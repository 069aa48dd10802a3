"""Live versions: what the polling pages compare, put in the cache by the writers.

After a change commits and after a recompute stores standings, `publish_live` puts the
tournament's versions in the cache, so a polling page answers "nothing changed" without the
database (`selectors.live_state` reads them), and announces them to the stream hosts
(`announce`, Redis pub/sub), which push them to the pages that follow a stream. The task
module calls it (tasks.py): after the change hook (`changes.change_committed`) and after a
recompute.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from .models import Tournament
from .selectors import LIVE_SECONDS, read_live_state

log = logging.getLogger(__name__)


def publish_live(tournament_id: int) -> None:
    """Put the tournament's committed versions in the cache, for the pages that poll them.

    Called after a change commits and after a recompute stores the standings. A page that
    polls then answers "nothing new" from the cache alone, and learns of a change at once.
    A cache that fails is skipped: the pages read the versions from the database instead.
    """
    read = None
    try:
        read = read_live_state(Tournament.objects.filter(pk=tournament_id))
        if read is not None:
            cache.set(*read, timeout=LIVE_SECONDS)
    except Exception:
        # The change is committed; pages then learn of it within LIVE_SECONDS all the same.
        log.warning("live state of tournament %s not published", tournament_id, exc_info=True)
    if read is not None:
        announce(read[0], read[1].both)


# A Redis that fails is left alone this long: a write must not wait for it once per change.
ANNOUNCE_PAUSE_SECONDS = 2.0
# Channels whose announcement failed, announced again after the next one that works; a
# bound, so that a long outage does not grow it without end (the pages' 30 s version check
# and the hosts' refresh after they subscribe again cover what is left out).
MISSED_AT_MOST = 1000
_announcer: dict[str, Any] = {}
_missed: set[str] = set()


def announce(channel: str, versions: str) -> None:
    """Tell the stream hosts (tournaments/stream.py) that `channel`'s tournament (its live
    key) has new versions, on Redis pub/sub; nothing without a stream host
    (settings.LIVE_REDIS_URL empty).

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


def take_window(key: str, seconds: float) -> bool:
    """Take the window `key` for `seconds` if it is free; also True when the cache cannot
    tell (down). The recompute's send throttle's (tasks.py), and the live fragments' one
    render per version."""
    if cache.add(key, 1, timeout=seconds):
        return True
    # Taken, or a cache that stores nothing (config.cache's, while Redis is down): only a
    # value read back proves a window.
    reachable = getattr(cache, "is_reachable", None)
    return (callable(reachable) and not reachable()) or cache.get(key) is None
