"""Reads of a club's seasons and series: the series table as stored, its evenings, the
honour roll. Shared by the pages, the API, the CSV and the big screen."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from club.models import Club
from tournaments.models import Tournament
from tournaments.permissions import listed_q

from .models import Season, Series, SeriesLine


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


def ranked_apart(rows: list[SeriesRow]) -> tuple[list[SeriesRow], list[SeriesRow]]:
    """The rows with a rank, then those without (fewer evenings than `min_evenings`), each
    in the order given: the table shows the second group apart, under its own heading."""
    return (
        [row for row in rows if row.line.rank is not None],
        [row for row in rows if row.line.rank is None],
    )


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


@dataclass(frozen=True, slots=True)
class HonourSeason:
    """A season on the honour roll: its series with their first placed players, who are its
    winners once the season is `over` and only its leaders so far until then."""

    season: Season
    over: bool
    series: list[tuple[Series, list[SeriesLine]]]


def season_is_over(season: Season, today: datetime.date | None = None) -> bool:
    """A season is over once its last day has passed (docs/seasons.md): until then an
    evening may still be played and its table may still change."""
    return season.ends_on < (today or timezone.localdate())


def honour_roll(club: Club, today: datetime.date | None = None) -> list[HonourSeason]:
    """Each season's series with their first placed players (shared or not), the latest
    season first: winners for a season that is over, leaders for one under way; series with
    no one placed yet are left out (three queries)."""
    firsts: dict[int, list[SeriesLine]] = {}
    for line in (
        SeriesLine.objects.filter(series__season__club=club, rank=1)
        .select_related("player")
        .order_by("position")
    ):
        firsts.setdefault(line.series_id, []).append(line)
    roll = []
    for season in seasons_of(club):
        placed = [(s, firsts[s.pk]) for s in season.series.all() if s.pk in firsts]
        if placed:
            roll.append(HonourSeason(season, season_is_over(season, today), placed))
    return roll


def player_series_lines(player: Any) -> list[SeriesLine]:
    """The player's lines in the series of seasons not over yet (the player's page, below
    seasons: a section added in seasons' AppConfig.ready)."""
    return list(
        SeriesLine.objects.filter(player=player, series__season__ends_on__gte=timezone.localdate())
        .select_related("series__season__club")
        .order_by("series__season__starts_on", "series__name")
    )
