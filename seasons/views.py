"""A club's seasons and series: the public tables (page, CSV) at permanent addresses, and the
director's forms that set them (never the admin)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from club.models import Club
from club.pages import sections
from tournaments.permissions import is_director
from tournaments.views.director import director_required
from tournaments.views.director_print import csv_response

from . import selectors
from .forms import SeasonForm, SeriesForm
from .models import Season, Series

# --- public ----------------------------------------------------------------------------------


def seasons(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's seasons, each with its series and their winners: the archive."""
    club = get_object_or_404(Club, slug=club_slug)
    return render(
        request,
        "seasons/seasons.html",
        {
            "club": club,
            "seasons": selectors.seasons_of(club),
            "is_director": is_director(request.user, club.pk),
        },
    )


def season(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    found = get_object_or_404(Season, club=club, pk=pk)
    return render(
        request,
        "seasons/season.html",
        {
            "club": club,
            "season": found,
            "series_list": found.series.order_by("name", "pk"),
            "tournaments": selectors.season_tournaments(found, request.user),
            "is_director": is_director(request.user, club.pk),
            # What apps above add to a season's archive (its series' prizes, prizes/).
            "sections": sections("seasons:season", season=found, request=request),
        },
    )


def _series(club_slug: str, pk: int) -> Series:
    series = get_object_or_404(
        Series.objects.select_related("season__club"), pk=pk, season__club__slug=club_slug
    )
    return series


def series(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """The series table: scratch, and handicap beside it when the series has one."""
    found = _series(club_slug, pk)
    view = selectors.series_view(found)
    table = request.GET.get("table")
    handicap = found.has_handicap and table == "handicap"
    ranked, unranked = selectors.ranked_apart(view.handicap_rows if handicap else view.rows)
    return render(
        request,
        "seasons/series.html",
        {
            "club": found.season.club,
            "season": found.season,
            "series": found,
            "view": view,
            "rows": ranked + unranked,
            # The ranked rows, then those under `min_evenings` under their own heading.
            "ranked_groups": [ranked, unranked],
            # The group heading spans the whole table: #, player, evenings, total, (needs),
            # then a column per evening.
            "columns": 4 + (0 if handicap else 1) + len(view.evenings),
            "handicap": handicap,
            "history": selectors.rank_history(view),
            "is_director": is_director(request.user, found.season.club_id),
            # What apps above add under the table (the series' prizes, prizes/).
            "sections": sections("seasons:series", series=found, view=view, request=request),
        },
    )


def series_csv(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """The series table as CSV: one line per player, a column per evening (counted ones
    starred), then the totals and `needs`."""
    found = _series(club_slug, pk)
    view = selectors.series_view(found)
    response, writer = csv_response(f"series-{found.pk}.csv")
    evenings = [f"{e.tournament.starts_on.isoformat()} {e.tournament.name}" for e in view.evenings]
    writer.writerow(
        ["rank", "player", "played", *evenings, "total", "handicap_total", "handicap_rank", "needs"]
    )
    for row in view.rows:
        cells = [
            f"{c.points}{'*' if c.counted else ''}{'' if c.played else ' (absent)'}"
            for c in row.cells
        ]
        line = row.line
        writer.writerow(
            [
                line.rank_label,
                row.player.full_name,
                line.played,
                *cells,
                line.total,
                line.handicap_total,
                line.handicap_rank,
                line.needs,
            ]
        )
    return response


# --- the director's forms ------------------------------------------------------------------


@director_required
def season_edit(request: HttpRequest, club: Club, pk: int | None = None) -> HttpResponse:
    found = get_object_or_404(Season, club=club, pk=pk) if pk is not None else None
    form = SeasonForm(request.POST or None, season=found)
    if request.method == "POST" and form.is_valid():
        saved = form.save(club=club, by=request.user)
        if saved is not None:
            messages.success(request, _("The season is saved."))
            return redirect("seasons:season", club_slug=club.slug, pk=saved.pk)
    return render(
        request,
        "seasons/season_form.html",
        {"club": club, "season": found, "form": form},
    )


@director_required
def series_edit(
    request: HttpRequest, club: Club, season_pk: int | None = None, pk: int | None = None
) -> HttpResponse:
    if pk is not None:
        found: Series | None = get_object_or_404(
            Series.objects.select_related("season"), season__club=club, pk=pk
        )
        assert found is not None
        owner = found.season
    elif season_pk is not None:
        found = None
        owner = get_object_or_404(Season, club=club, pk=season_pk)
    else:
        raise Http404
    form = SeriesForm(request.POST or None, season=owner, series=found)
    if request.method == "POST" and form.is_valid():
        saved = form.save(by=request.user)
        if saved is not None:
            messages.success(request, _("The series is saved; its table follows in a moment."))
            return redirect("seasons:series", club_slug=club.slug, pk=saved.pk)
    return render(
        request,
        "seasons/series_form.html",
        {"club": club, "season": owner, "series": found, "form": form},
    )
