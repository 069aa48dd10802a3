"""A tournament's live versions as live/ reads them (its `Source`, registered in apps.py), and
what the live pages show of the matches in play."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from live.versions import LiveState, Source

from ..models import Match, Tournament
from .standings import standings_version


def state_of(tournament: Tournament) -> LiveState:
    """The versions of a tournament already read (its row as `get_tournament` reads it)."""
    return LiveState(
        tournament.pk,
        tournament.is_public,
        str(tournament.change_seq),
        standings_version(tournament),
    )


def _read(tournaments: QuerySet[Tournament]) -> tuple[tuple[str, str], LiveState] | None:
    """The address and the state of the (one) tournament of `tournaments`, read (one query)."""
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
    return (club_slug, slug), state_of(tournament)


def _by_address(club_slug: str, slug: str) -> LiveState | None:
    read = _read(Tournament.objects.filter(club__slug=club_slug, slug=slug))
    return None if read is None else read[1]


# How live/ reads a tournament's versions when the cache has none.
LIVE_SOURCE = Source(
    by_id=lambda pk: _read(Tournament.objects.filter(pk=pk)), by_address=_by_address
)


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
