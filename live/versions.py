"""Live versions: the key, the state a polling page compares, its read and its publication.

After a change commits and after a recompute stores standings, the event calls
`publish_live`: the versions go into the cache, so a polling page answers "nothing changed"
without the database (`live_state` reads them), and are announced to the stream hosts
(`announce.announce`, Redis pub/sub), which push them to the pages that follow a stream.
Where the versions come from when the cache has none is the event's to say: it registers a
`Source` at start-up (TournamentsConfig.ready), so this module imports nothing above it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.core.cache import cache

from .announce import announce

log = logging.getLogger(__name__)

# How long a subject's versions are kept in the cache before they are read again: the
# writers set them after each change (`publish_live`), so this only bounds how late a page
# learns of a change made where the cache is not shared (a worker's own memory).
LIVE_SECONDS = 1  # whole seconds: Redis keeps no fractions


class LiveState(NamedTuple):
    """What a polling page compares with its own version, without a database query.

    `changes` moves with every change of a deal, match, team or setting (the schedule, the
    match sheets, the team pages); `standings` when a recompute stores new standings.
    `subject_id` is the row whose pages these are (a tournament's id).
    """

    subject_id: int
    public: bool
    changes: str
    standings: str

    @property
    def both(self) -> str:
        return f"{self.changes}.{self.standings}"


def live_key(club_slug: str, slug: str) -> str:
    """The cache key of a subject's versions, and its pub/sub channel: the address of its
    pages (`/clubs/<club_slug>/<slug>/…`), which the stream host reads off a path too."""
    return f"belote:live:{club_slug}/{slug}"


@dataclass(frozen=True)
class Source:
    """How the versions are read from the database, registered by the app that owns them.

    `by_id(subject_id)`: its address (club slug, slug) and its state; `by_address(club_slug,
    slug)`: its state. Each None when there is no such subject.
    """

    by_id: Callable[[int], tuple[tuple[str, str], LiveState] | None]
    by_address: Callable[[str, str], LiveState | None]


_sources: list[Source] = []


def register_source(source: Source) -> None:
    """The one source of the versions (the event's, in its AppConfig.ready)."""
    _sources[:] = [source]


def _source() -> Source:
    if not _sources:
        raise RuntimeError(
            "no live source registered: is the app that owns the versions installed?"
        )
    return _sources[0]


def live_state(club_slug: str, slug: str) -> LiveState | None:
    """The subject's versions: from the cache, else read and kept for LIVE_SECONDS.

    A cache that fails (Redis down) is skipped: the state is read from the database.
    """
    key = live_key(club_slug, slug)
    try:
        state = cache.get(key)
    except Exception:
        log.warning("cache unavailable: live state read from the database", exc_info=True)
        state = None
    if isinstance(state, LiveState):
        return state
    read = _source().by_address(club_slug, slug)
    if read is None:
        return None
    try:
        # add, not set: a writer's fresher value, set meanwhile, wins over this read.
        cache.add(key, read, timeout=LIVE_SECONDS)
    except Exception:
        log.warning("cache unavailable: live state not kept", exc_info=True)
    return read


def publish_live(subject_id: int) -> None:
    """Put the subject's committed versions in the cache, for the pages that poll them, and
    announce them to the stream hosts.

    Called after a change commits and after a recompute stores the standings. A page that
    polls then answers "nothing new" from the cache alone, and learns of a change at once.
    A cache that fails is skipped: the pages read the versions from the database instead.
    """
    read = None
    try:
        read = _source().by_id(subject_id)
        if read is not None:
            cache.set(live_key(*read[0]), read[1], timeout=LIVE_SECONDS)
    except Exception:
        # The change is committed; pages then learn of it within LIVE_SECONDS all the same.
        log.warning("live state of %s not published", subject_id, exc_info=True)
    if read is not None:
        announce(live_key(*read[0]), read[1].both)


def take_window(key: str, seconds: float) -> bool:
    """Take the window `key` for `seconds` if it is free; also True when the cache cannot
    tell (down). The recompute's send throttle's (tournaments/tasks.py), and the live
    fragments' one render per version (`fragments`)."""
    if cache.add(key, 1, timeout=seconds):
        return True
    # Taken, or a cache that stores nothing (config.cache's, while Redis is down): only a
    # value read back proves a window.
    reachable = getattr(cache, "is_reachable", None)
    return (callable(reachable) and not reachable()) or cache.get(key) is None
