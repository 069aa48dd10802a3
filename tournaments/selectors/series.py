"""Reads of a club's seasons and series: the series table as stored, its evenings, the
honour roll. Shared by the pages, the API, the CSV and the big screen (`selectors.series.<name>`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from club.models import Club, Season, Series, SeriesLine

from ..models import Tournament
from ..permissions import listed_q


def seasons_of(club: Club) -> QuerySet[Season]:
    """The club's seasons, the latest first, each with its series."""
    return Season.objects.filter(club=club).order_by("-starts_on").prefetch_related("series")


def season_tournaments(season: Season, viewer: Any) -> QuerySet[Tournament]:
    """The club's tournaments whose date falls in the season, that `viewer` may see listed."""
    return (
        Tournament.objects.filter(
            club_id=season.club_id,
            starts_on__gte=season.starts_on,
            starts_on__lte=season.ends_on,
        )
        .filter(listed_q(viewer))
        .order_by("starts_on", "pk")
    )


@dataclass(frozen=True, slots=True)
class EveningColumn:
    """An evening of the series with results: its tournament, and whether they are final."""

    tournament: Tournament
    number: int

    @property
    def final(self) -> bool:
        # Finished is not enough: its referees may still correct it until `final_at`.
        return self.tournament.results_are_final()


@dataclass(frozen=True, slots=True)
class SeriesCell:
    points: int
    counted: bool
    played: bool
    handicap_points: int
    handicap_counted: bool


@dataclass(frozen=True, slots=True)
class SeriesRow:
    line: SeriesLine
    cells: list[SeriesCell]

    @property
    def player(self) -> Any:
        return self.line.player


@dataclass(frozen=True, slots=True)
class SeriesView:
    series: Series
    evenings: list[EveningColumn]
    rows: list[SeriesRow]

    @property
    def handicap_rows(self) -> list[SeriesRow]:
        """The rows in the handicap table's order (ranked first, by handicap rank)."""
        return sorted(
            self.rows,
            key=lambda row: (
                row.line.handicap_rank is None,
                row.line.handicap_rank or 0,
                -row.line.handicap_total,
                row.line.position,
            ),
        )

    @property
    def provisional(self) -> bool:
        return any(not evening.final for evening in self.evenings)


def series_view(series: Series) -> SeriesView:
    """The stored series table with its evenings (three queries)."""
    lines = list(
        SeriesLine.objects.filter(series=series).select_related("player").order_by("position")
    )
    played_ids: list[int] = []
    for line in lines[:1]:
        played_ids = [cell[0] for cell in line.evenings]
    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(pk__in=played_ids).only(
            "id",
            "name",
            "slug",
            "starts_on",
            "status",
            "club_id",
            "finished_at",
            "created_at",
            "correction_minutes",
        )
    }
    evenings = [
        EveningColumn(tournaments[tid], number)
        for number, tid in enumerate(played_ids, 1)
        if tid in tournaments
    ]
    rows = [
        SeriesRow(
            line,
            [SeriesCell(c[1], bool(c[2]), bool(c[3]), c[4], bool(c[5])) for c in line.evenings],
        )
        for line in lines
    ]
    return SeriesView(series=series, evenings=evenings, rows=rows)


def rank_history(
    view: SeriesView, limit: int | None = None
) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each player's rank after every evening, for the chart (ranked players, best first)."""
    history = []
    for row in view.rows[:limit] if limit else view.rows:
        data = [
            (float(number), float(rank))
            for number, rank in enumerate(row.line.ranks, 1)
            if rank is not None
        ]
        if data:
            history.append((row.player.full_name, data))
    return history


def series_of_tournament(tournament: Tournament) -> list[Series]:
    """The series the tournament is an evening of."""
    return list(tournament.series.select_related("season").order_by("season__starts_on", "pk"))
