"""Sections an app above adds to a page of an app below it (a hook, docs/architecture.md).

The app above registers a function in its `AppConfig.ready` (`add_section`); the page's view
asks for its sections (`sections`) and its template shows them where it says. Each function
takes the page's objects as keywords and returns its HTML, or "" to add nothing. So a page
below shows what is built on it without importing it (e.g. a club's honour roll, seasons/).
A page's CSV export takes rows the same way (`add_rows`, `rows`).
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


# Rows an app above adds to a page's CSV export (the prizes of the evening's cash, prizes/):
# each function takes the page's objects as keywords and returns its rows (none: []).
Rows = Callable[..., list[list[str]]]

_rows: dict[str, list[Rows]] = {}


def add_rows(page: str, rows_of: Rows) -> None:
    """Append the rows of `rows_of` to the CSV of `page` (a URL name), after those added before."""
    added = _rows.setdefault(page, [])
    if rows_of not in added:
        added.append(rows_of)


def rows(page: str, **objects: Any) -> list[list[str]]:
    """The rows the apps above add to the CSV of `page`, for these objects of the page."""
    return [row for rows_of in _rows.get(page, []) for row in rows_of(**objects)]
