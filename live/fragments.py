"""The render-once cache of a region every open page watches: one render per version.

A new version of such a region (the standings, the schedule) is asked for by all the open
pages within one poll: it is rendered once (400 standings lines: ~65 ms, 230 kB of HTML)
and kept compressed (7 kB) for the others, who get those bytes as they are. The version is
in the key, so an entry is never stale; the timeout only bounds memory. The views that
render the regions are the event's (tournaments/views/live.py); this is their cache.
"""

from __future__ import annotations

import gzip
import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from .versions import take_window

log = logging.getLogger(__name__)

FRAGMENT_SECONDS = 300
# One request renders a new version; the others asking meanwhile (on a busy evening, every
# open page within a poll) get the newest version kept, not a render of their own each. A
# render that failed holds the others no longer than this.
RENDER_SECONDS = 10


def fragment_key(subject_id: int, part: str, version: str, variant: str) -> str:
    """The cache key of a region: its subject, the version it follows, that version, its
    variant (what the view reads of the query) and the language it is rendered in."""
    language = translation.get_language()
    return f"belote:fragment:{subject_id}:{part}:{version}:{variant}:{language}"


def kept_region(
    request: HttpRequest, subject_id: int, part: str, version: str, variant: str
) -> HttpResponse | None:
    """The region at `version` when it is kept: no query at all; else None."""
    kept = _cached(fragment_key(subject_id, part, version, variant))
    return _gzipped(request, kept) if isinstance(kept, bytes) else None


def render_once(
    request: HttpRequest,
    *,
    subject_id: int,
    part: str,
    version: str,
    variant: str,
    order: tuple[float, ...],
    render: Callable[[], str],
) -> HttpResponse:
    """The region at `version` (the subject's current one): from the cache, else rendered by
    `render` and kept there; 204 when the visitor shows it already (`?v=`). Who may read the
    region was checked by the caller.

    While another request renders this version, the newest version kept is sent instead (or
    204): `order` ranks versions, so renders that end in either order keep the later one.
    """
    wanted = request.GET.get("v")
    if wanted == version:
        return HttpResponse(status=204)
    key = fragment_key(subject_id, part, version, variant)
    compressed = _cached(key)
    if isinstance(compressed, bytes):
        return _gzipped(request, compressed)
    newest = fragment_key(subject_id, part, "newest", variant)
    if not _renders(f"{key}:rendering"):
        kept = _cached(newest)
        if isinstance(kept, tuple) and len(kept) == 3 and kept[1] != wanted:
            return _gzipped(request, kept[2])
        return HttpResponse(status=204)  # nothing newer than the page's yet
    compressed = gzip.compress(render().encode(), compresslevel=6)
    _keep(key, compressed)
    kept = _cached(newest)
    if not (isinstance(kept, tuple) and len(kept) == 3 and kept[0] > order):
        _keep(newest, (order, version, compressed))
    return _gzipped(request, compressed)


def _renders(key: str) -> bool:
    """This request renders the version (`key` taken), or the cache cannot tell."""
    try:
        return take_window(key, RENDER_SECONDS)
    except Exception:
        log.warning("cache unavailable: fragment rendered afresh", exc_info=True)
        return True


def _gzipped(request: HttpRequest, compressed: bytes) -> HttpResponse:
    """The compressed bytes to a client that accepts gzip (every browser), else unpacked."""
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(compressed)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(compressed))
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _cached(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # the cache down: render, as without it
        log.warning("cache unavailable: fragment rendered afresh", exc_info=True)
        return None


def _keep(key: str, kept: Any) -> None:
    try:
        cache.set(key, kept, timeout=FRAGMENT_SECONDS)
    except Exception:
        log.warning("cache unavailable: fragment not kept", exc_info=True)
