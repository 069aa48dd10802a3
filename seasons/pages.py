"""What seasons/ adds to the pages of the apps below it (club.pages, the tournament's form's
parts), registered in apps.py: the club's honour roll, the director's seasons and series,
a slide per series on the big screen, and the series an evening counts in on its form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from club.models import Club
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

from . import selectors
from .models import Series
from .services import evening_series_problems, set_evening_series


def honour_roll(*, club: Club, **_objects: Any) -> str:
    """The club page's honour roll: each season's series winners (leaders while under way)."""
    roll = selectors.honour_roll(club)
    if not roll:
        return ""
    return render_to_string("seasons/_honour_roll.html", {"club": club, "honour_roll": roll})


def player_series(*, player: Any, **_objects: Any) -> str:
    """The player's page: their rows in the series of seasons not over yet."""
    lines = selectors.player_series_lines(player)
    if not lines:
        return ""
    return render_to_string("seasons/_player_series.html", {"series_rows": lines})


def director_club(*, club: Club, request: Any = None, **_objects: Any) -> str:
    """The director's club page: its seasons and series, each with its forms."""
    seasons = selectors.seasons_of(club)
    return render_to_string(
        "seasons/_director_club.html", {"club": club, "seasons": seasons}, request=request
    )


def screen_slides(*, tournament: Tournament, lines_per_slide: int, **_objects: Any) -> str:
    """The big screen: the head of each table of the series the evening counts in."""
    slides = [
        (view, *_slide_rows(view, lines_per_slide))
        for view in map(selectors.series_view, selectors.series_of_tournament(tournament))
        if view.rows
    ]
    if not slides:
        return ""
    return render_to_string("seasons/_screen_slides.html", {"series_slides": slides})


def _slide_rows(
    view: selectors.SeriesView, lines: int
) -> tuple[list[selectors.SeriesRow], list[selectors.SeriesRow]]:
    """The head of the table that fits `lines` lines: the ranked rows, then the unranked ones
    under their heading, which takes a line of its own."""
    ranked, unranked = selectors.ranked_apart(view.rows[:lines])
    if unranked:
        ranked, unranked = selectors.ranked_apart(view.rows[: max(lines - 1, 1)])
    return ranked, unranked


class EveningSeries:
    """The tournament's side of a series' evenings, on the tournament's own form: offered once
    the club has a series; the tournament's date must fall in each chosen series' season."""

    NAME = "series"

    def add_fields(self, form: TournamentForm) -> list[str]:
        club_series = Series.objects.filter(season__club=form.club).select_related("season")
        if not club_series.exists():
            return []
        tournament = form.tournament
        form.fields[self.NAME] = forms.ModelMultipleChoiceField(
            label=_("Counts in the series"),
            queryset=club_series.order_by("-season__starts_on", "name"),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=list(tournament.series.all()) if tournament is not None else [],
            help_text=_("An evening of these series of the club (its date in their season)."),
        )
        return [self.NAME]

    def clean(self, form: TournamentForm, cleaned: dict[str, Any]) -> None:
        if self.NAME in form.fields and cleaned.get("starts_on"):
            chosen = list(cleaned.get(self.NAME) or [])
            for problem in evening_series_problems(form.club.pk, cleaned["starts_on"], chosen):
                form.add_error(self.NAME, problem)

    def save(self, form: TournamentForm, tournament: Tournament, *, by: Any) -> None:
        if self.NAME in form.fields:
            set_evening_series(tournament, form.cleaned_data[self.NAME], by=by)
