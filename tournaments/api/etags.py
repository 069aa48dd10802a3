"""ETags for the reads clients poll (standings, schedule): tied to the tournament's change numbers."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.http import HttpResponse, HttpResponseBase
from django.utils.http import parse_etags
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Match, Tournament

# Versions are in the keys, so an entry is never stale; the timeout only bounds memory.
CACHE_SECONDS = 300


def standings_etag(tournament: Tournament, after_round: int | None) -> str:
    """Standings change when a recompute stores them (standings_seq, computed_at); the body
    also says how many changes they lag behind (change_seq), so that is in the tag too."""
    computed = tournament.standings_computed_at
    stamp = computed.timestamp() if computed else 0
    return (
        f'"standings-{tournament.pk}-{tournament.standings_seq}-{tournament.change_seq}'
        f'-{stamp:.6f}-{after_round}"'
    )


def schedule_etag(tournament: Tournament) -> str:
    """Every change of a deal, match or team moves change_seq; director actions that only touch
    a match row (referee, closing) move its updated_at, and closing a round its flag."""
    seen = tournament.matches.aggregate(
        updated=Max("updated_at"),
        matches=Count("id"),
        closed_rounds=Count("round", filter=Q(round__is_closed=True), distinct=True),
    )
    updated = seen["updated"].timestamp() if seen["updated"] else 0
    return (
        f'"schedule-{tournament.pk}-{tournament.change_seq}-{seen["matches"]}'
        f'-{seen["closed_rounds"]}-{updated:.6f}"'
    )


def deals_etag(match: Match) -> str:
    """Every change of a deal bumps its tournament's change_seq in the same transaction."""
    return f'"deals-{match.pk}-{match.tournament.change_seq}-{match.deal_count}"'


def versioned_response(request: Request, etag: str, build: Callable[[], Any]) -> Any:
    """A 304, or the body for this version: built and rendered once, then kept in the cache.

    The key holds the version (the ETag) and the full URL (page links carry the host).
    Clients that ask for JSON get the stored bytes as they are; the browsable API renders.
    """
    if cached := not_modified(request, etag):
        return cached
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or renderer.format != "json":
        return tagged(Response(build()), etag)
    key = "api:" + hashlib.sha256((etag + request.build_absolute_uri()).encode()).hexdigest()
    content = cache.get(key)
    if content is None:
        content = renderer.render(build(), request.accepted_media_type, {"request": request})
        cache.set(key, content, timeout=CACHE_SECONDS)
    return tagged(HttpResponse(content, content_type="application/json"), etag)


def not_modified(request: Request, etag: str) -> Response | None:
    """A 304 when the client already holds this version (If-None-Match), else None."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return None
    wanted = parse_etags(header)
    if "*" in wanted or etag in wanted or f"W/{etag}" in wanted:
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
        response["ETag"] = etag
        return response
    return None


def tagged(response: HttpResponseBase, etag: str) -> Any:
    response["ETag"] = etag
    # Clients must revalidate: standings move during a tournament.
    response["Cache-Control"] = "no-cache"
    return response
