"""The streamed regions: views the event marks as such, found again by the URL configuration.

A view that answers a region every open page of a subject watches (the same bytes for
every visitor, in a language and a variant) carries a `LiveRegion` (`@streamed(...)`). The
stream host resolves a request's path with Django's URL resolver and streams it only when
the view it lands on carries one: its paths are the site's, never a copy of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

View = TypeVar("View", bound=Callable[..., Any])

MARK = "live_region"


@dataclass(frozen=True)
class LiveRegion:
    """A streamed region: the name of its events (the page's `data-stream`), the version it
    follows (a field of `versions.LiveState`: "changes" or "standings"), the URL arguments
    that make its live key (`versions.live_key`), and the query names that choose its
    variant (digits)."""

    name: str
    version: str
    address: tuple[str, str]
    variants: tuple[str, ...] = ()


def streamed(region: LiveRegion) -> Callable[[View], View]:
    """Mark a view as the region's (outermost or not: Django's decorators keep the mark)."""

    def mark(view: View) -> View:
        setattr(view, MARK, region)
        return view

    return mark


def region_of(view: Callable[..., Any]) -> LiveRegion | None:
    found = getattr(view, MARK, None)
    return found if isinstance(found, LiveRegion) else None
