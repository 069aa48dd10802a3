"""Sections an app above adds to a page of an app below it (a hook, docs/architecture.md).

The app above registers a function in its `AppConfig.ready` (`add_section`); the page's view
asks for its sections (`sections`) and its template shows them where it says. Each function
takes the page's objects as keywords and returns its HTML, or "" to add nothing. So a page
below shows what is built on it without importing it (e.g. a club's honour roll, seasons/).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString, mark_safe

Section = Callable[..., str]

_sections: dict[str, list[Section]] = {}


def add_section(page: str, section: Section) -> None:
    """Show `section` on `page` (a URL name, e.g. "club:detail"), after those added before."""
    added = _sections.setdefault(page, [])
    if section not in added:
        added.append(section)


def sections(page: str, **objects: Any) -> list[SafeString]:
    """The HTML of the sections added to `page`, for these objects of the page."""
    # Each section renders its own template, whose variables are escaped.
    return [mark_safe(html) for section in _sections.get(page, []) if (html := section(**objects))]
