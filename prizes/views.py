"""The prize list's pages: a section of the tournament's page, slides on the big screen, and the
director's printed sheet with a signature for each cash prize."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from tournaments.models import Tournament
from tournaments.permissions import is_director
from tournaments.views.director import director_required

from .selectors import PrizesShown, prizes_shown


def _context(tournament: Tournament, shown: PrizesShown) -> dict[str, Any]:
    return {"tournament": tournament, "prizes": shown, "lines": shown.lines}


def overview_section(
    *, tournament: Tournament, request: HttpRequest | None = None, **_objects: Any
) -> str:
    """The prize list on the tournament's page, once the last round is finished."""
    shown = prizes_shown(tournament)
    if shown is None:
        return ""
    director = request is not None and is_director(request.user, tournament.club_id)
    return render_to_string(
        "prizes/_overview_panel.html",
        {**_context(tournament, shown), "is_director": director},
        request=request,
    )


def screen_slides(*, tournament: Tournament, lines_per_slide: int, **_objects: Any) -> str:
    """The prize list on the big screen: slides after the final standings."""
    shown = prizes_shown(tournament)
    if shown is None:
        return ""
    lines = shown.lines
    slides = [
        lines[start : start + lines_per_slide] for start in range(0, len(lines), lines_per_slide)
    ]
    return render_to_string(
        "prizes/_screen_slides.html", {**_context(tournament, shown), "slides": slides}
    )


@director_required
def print_prizes(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One sheet: the prize list, with a signature for each cash prize handed over."""
    shown = prizes_shown(tournament)
    if shown is None:
        raise Http404("no prize list yet")
    return render(request, "prizes/print.html", _context(tournament, shown))
