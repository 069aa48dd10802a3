"""Pages of the apps built on the event that the event's own pages link to (registration, the
door, the check-in, the cash): each app adds its pages here in its `AppConfig.ready`, so the
tournament's pages and the big screen link to them by name without importing them."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

__all__ = ["add_page", "page_url"]

# A page's name (the URL name without its namespace) → its URL name, namespace included.
_pages: dict[str, str] = {}


def add_page(name: str, url_name: str) -> None:
    """Make `url_name` (taking a club's and a tournament's slugs) the page called `name`."""
    _pages[name] = url_name


def page_url(name: str, tournament: Any) -> str:
    """The address of the page `name` for `tournament`, "" when no installed app adds it."""
    url_name = _pages.get(name)
    if url_name is None:
        return ""
    return reverse(url_name, args=[tournament.club.slug, tournament.slug])
