"""What the live pages poll: each tournament's versions, kept in the cache."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import QuerySet

from ..models import Match, Tournament
from .standings import standings_version

log = logging.getLogger(__name__)

# --- what the live pages poll --------------------------------------------------------------

# How long a tournament's versions are kept in the cache before they are read again: the
# writers set them after each change (changes.publish_live), so this only bounds how late a
# page learns of a change made where the cache is not shared (a worker's own memory).
LIVE_SECONDS = 1  # whole seconds: Redis keeps no fractions


class LiveState(NamedTuple):
    """What a polling page compares with its own version, without a database query.

    `changes` moves with every change of a deal, match, team or setting (the schedule, the
    match sheets, the team pages); `standings` when a recompute stores new standings.
    """

    tournament_id: int
    public: bool
    changes: str
    standings: str

    @property
    def both(self) -> str:
        return f"{self.changes}.{self.standings}"


def live_key(club_slug: str, slug: str) -> str:
    return f"belote:live:{club_slug}/{slug}"


def read_live_state(tournaments: QuerySet[Tournament]) -> tuple[str, LiveState] | None:
    """The cache key and the state of the (one) tournament of `tournaments`, read (one query)."""
    row = tournaments.values_list(
        "pk",
        "club__slug",
        "slug",
        "is_public",
        "change_seq",
        "standings_seq",
        "standings_computed_at",
    ).first()
    if row is None:
        return None
    pk, club_slug, slug, public, change_seq, standings_seq, computed_at = row
    tournament = Tournament(
        pk=pk,
        is_public=public,
        change_seq=change_seq,
        standings_seq=standings_seq,
        standings_computed_at=computed_at,
    )
    return live_key(club_slug, slug), state_of(tournament)


def state_of(tournament: Tournament) -> LiveState:
    """The versions of a tournament already read (its row as `get_tournament` reads it)."""
    return LiveState(
        tournament.pk,
        tournament.is_public,
        str(tournament.change_seq),
        standings_version(tournament),
    )


def live_state(club_slug: str, slug: str) -> LiveState | None:
    """The tournament's versions: from the cache, else read and kept for LIVE_SECONDS.

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
    read = read_live_state(Tournament.objects.filter(club__slug=club_slug, slug=slug))
    if read is None:
        return None
    try:
        # add, not set: a writer's fresher value, set meanwhile, wins over this read.
        cache.add(key, read[1], timeout=LIVE_SECONDS)
    except Exception:
        log.warning("cache unavailable: live state not kept", exc_info=True)
    return read[1]


def last_update(rows: Iterable[Any]) -> Any:
    """The latest `updated_at` of matches or deals: when what a page shows last changed."""
    return max((row.updated_at for row in rows if row.updated_at), default=None)


def matches_in_play(tournament: Tournament) -> list[Match]:
    """The matches the live table counts on their current totals, in table order."""
    return list(
        tournament.matches.filter(status=Match.Status.PLAYING, ew_team__isnull=False)
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number", "table")
    )
