"""The prize list's pages: a section of the tournament's page, slides on the big screen, and the
director's printed sheet with a signature for each cash prize."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from club.models import Club
from seasons.models import Season, Series
from seasons.selectors import SeriesView, series_view
from tournaments.models import Tournament
from tournaments.permissions import is_director
from tournaments.services.setting_checks import SettingsRefused
from tournaments.views.director import director_required

from .forms import SeriesPrizesForm
from .selectors import (
    PrizesShown,
    fees_due,
    prizes_shown,
    series_prize_table,
    series_prizes_shown,
    series_ranked_count,
)
from .services import set_series_prizes


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


# --- a series' prizes ------------------------------------------------------------------------


def series_section(
    *, series: Series, view: SeriesView, request: HttpRequest | None = None, **_objects: Any
) -> str:
    """The series' prize list on its page, under its table; a director's link to set it."""
    shown = series_prizes_shown(view)
    director = request is not None and is_director(request.user, series.season.club_id)
    if shown is None and not director:
        return ""
    return render_to_string(
        "prizes/_series_section.html",
        {"series": series, "prizes": shown, "is_director": director},
        request=request,
    )


def season_section(*, season: Season, **_objects: Any) -> str:
    """The archive of a season: the prize winners of each of its series with a prize table."""
    shown = [
        (series, found)
        for series in season.series.filter(prize_table__isnull=False).order_by("name", "pk")
        if (found := series_prizes_shown(series_view(series))) is not None
    ]
    if not shown:
        return ""
    return render_to_string("prizes/_season_section.html", {"shown": shown})


@director_required
def series_prizes_edit(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """A director sets the series' prize table (the rows of the tournament form)."""
    series = get_object_or_404(Series.objects.select_related("season"), pk=pk, season__club=club)
    table = series_prize_table(series)
    initial = {"prizes": table.prizes if table is not None else None}
    form = SeriesPrizesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            set_series_prizes(series, by=request.user, prizes=form.cleaned_data["prizes"])
        except SettingsRefused as refused:
            form.show(refused)
        else:
            messages.success(request, _("The prize table is saved."))
            return redirect("seasons:series", club_slug=club.slug, pk=series.pk)
    return render(
        request,
        "prizes/series_prizes_form.html",
        {
            "club": club,
            "series": series,
            "form": form,
            "entry_count": series_ranked_count(series),
        },
    )


# --- the evening's cash ----------------------------------------------------------------------


def cash_section(
    *, tournament: Tournament, summary: Any, request: HttpRequest | None = None, **_objects: Any
) -> str:
    """On the evening's cash: the fees due, what was received, the prizes and what the club
    retains (docs/prizes.md)."""
    if tournament.prizes is None:
        return ""
    return render_to_string(
        "prizes/_cash_section.html",
        {
            "tournament": tournament,
            "summary": summary,
            "fees_due": fees_due(tournament),
            "prizes": prizes_shown(tournament),
            "currency": settings.BELOTE_CURRENCY,
        },
        request=request,
    )


def cash_rows(*, tournament: Tournament, **_objects: Any) -> list[list[str]]:
    """The evening's cash CSV, after its totals: the fees due, each cash prize, the prizes and
    what is retained (the columns: entry, players, attendance, paid, amount, due)."""
    if tournament.prizes is None:
        return []
    found = [["fees due", "", "", "", "", f"{fees_due(tournament):.2f}"]]
    shown = prizes_shown(tournament)
    if shown is None:
        return found
    stored = shown.stored
    found.append(["prize pool", "", "", "", f"{stored.pool:.2f}", ""])
    for line in shown.lines:
        if line["amount"] is not None:
            place = f"{line['place']}{'=' if line['shared_place'] else ''}"
            found.append(
                [f"prize {place}", line["entry"]["name"], "", line["kind"], line["amount"], ""]
            )
    found.append(["prizes", "", "", "", f"{stored.awarded:.2f}", ""])
    found.append(["retained", "", "", "", f"{stored.retained:.2f}", ""])
    return found
