"""What every page's header needs to know: whether to show the Direct link, where live streams are."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from club.permissions import directs_any as user_directs_any


def director_link(request: HttpRequest) -> dict[str, Any]:
    """`directs_any`: the visitor directs a club (read only when a page's header asks)."""

    def directs_any() -> bool:
        return user_directs_any(getattr(request, "user", None))

    return {"directs_any": SimpleLazyObject(directs_any)}


def live_stream(request: HttpRequest) -> dict[str, Any]:
    """`live_stream`: where the pages open their live stream ("" when they poll)."""
    return {"live_stream": settings.LIVE_STREAM_URL}
