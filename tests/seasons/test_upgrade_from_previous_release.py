"""A database made by the previous release (seasons in club/, the calendar-year table as
`SeasonEntry`) migrated by this one: every season, series, series line, evening of a series
and year ranking line is there as it was, read through the new models (seasons/, YearRanking).

Runs on the database the suite runs on (SQLite, or PostgreSQL with DATABASE_URL set):
    .venv/bin/python -m pytest tests/seasons/test_upgrade_from_previous_release.py
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from club.models import YearRanking
from seasons.models import Season, Series, SeriesLine
from tournaments.models import Tournament

# The latest migrations of the previous release.
PREVIOUS_RELEASE = [
    ("club", "0003_seasons_and_series"),
    ("tournaments", "0019_past_rounds_not_stored"),
    ("pad", "0001_friendly_games"),
]


def migrate(targets):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def latest():  # type: ignore[no-untyped-def]
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def made_by_the_previous_release(apps):  # type: ignore[no-untyped-def]
    """A club with a season, a series of two evenings with its table, and a year ranking,
    written through the previous release's models."""
    club = apps.get_model("club", "Club").objects.create(name="Lyon", slug="lyon")
    player_model = apps.get_model("club", "Player")
    anne = player_model.objects.create(first_name="Anne", last_name="Petit")
    paul = player_model.objects.create(first_name="Paul", last_name="Roux")
    tournament_model = apps.get_model("tournaments", "Tournament")
    evenings = [
        tournament_model.objects.create(
            club=club, name=f"Jeudi {n}", slug=f"jeudi-{n}", starts_on=day, rules={}
        )
        for n, day in enumerate((datetime.date(2026, 9, 3), datetime.date(2026, 9, 10)), 1)
    ]
    season = apps.get_model("club", "Season").objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    series = apps.get_model("club", "Series").objects.create(
        season=season,
        name="Thursday",
        points="place",
        place_points=[25, 20, 16],
        participation_points=5,
        best_of=6,
        absent_points=2,
        min_evenings=1,
        handicap="rating",
        computed_from="d" * 64,
    )
    for evening in evenings:
        evening.series.add(series)  # the link was declared by the tournament then
    line_model = apps.get_model("club", "SeriesLine")
    for position, (player, total) in enumerate(((anne, 45), (paul, 36))):
        line_model.objects.create(
            series=series,
            player=player,
            position=position,
            rank=position + 1,
            played=2,
            total=total,
            handicap_total=total + 3,
            handicap_rank=position + 1,
            needs=None if position == 0 else 10,
            evenings=[[evenings[0].pk, 25 - 5 * position, True, True, 0, True]],
            ranks=[1, position + 1],
        )
    apps.get_model("club", "SeasonEntry").objects.create(
        club=club,
        season=2026,
        player=anne,
        tournaments_played=2,
        matches_played=6,
        matches_won=4,
        average_place=1.5,
        computed_at=timezone.now(),
    )
    return club, [anne, paul], evenings, season, series


@pytest.mark.django_db(transaction=True)
def test_the_previous_releases_seasons_series_and_year_ranking_survive_the_upgrade(client):
    executor = migrate(PREVIOUS_RELEASE)
    try:
        old = executor.loader.project_state(PREVIOUS_RELEASE).apps
        club, (anne, paul), evenings, old_season, old_series = made_by_the_previous_release(old)
    finally:
        # Whatever happens, the test database is left at the latest migrations.
        migrate(latest())

    season = Season.objects.get()
    assert (season.pk, season.club_id, season.name, season.starts_on, season.ends_on) == (
        old_season.pk,
        club.pk,
        "2026–27",
        datetime.date(2026, 9, 1),
        datetime.date(2027, 6, 30),
    )
    series = Series.objects.get()
    assert series.pk == old_series.pk and series.season == season
    rules = [
        series.points,
        series.place_points,
        series.participation_points,
        series.best_of,
        series.absent_points,
        series.min_evenings,
        series.handicap,
        series.computed_from,
    ]
    assert rules == ["place", [25, 20, 16], 5, 6, 2, 1, "rating", "d" * 64]
    # The link between a tournament and its series, read from both sides.
    assert sorted(series.tournaments.values_list("pk", flat=True)) == [e.pk for e in evenings]
    assert [s.pk for s in Tournament.objects.get(pk=evenings[1].pk).series.all()] == [series.pk]
    lines = [
        (
            line.player_id,
            line.position,
            line.rank,
            line.played,
            line.total,
            line.handicap_total,
            line.needs,
            line.evenings,
            line.ranks,
        )
        for line in SeriesLine.objects.filter(series=series).order_by("position")
    ]
    assert lines == [
        (anne.pk, 0, 1, 2, 45, 48, None, [[evenings[0].pk, 25, True, True, 0, True]], [1, 1]),
        (paul.pk, 1, 2, 2, 36, 39, 10, [[evenings[0].pk, 20, True, True, 0, True]], [1, 2]),
    ]
    ranking = YearRanking.objects.get()
    assert (ranking.club_id, ranking.year, ranking.player_id) == (club.pk, 2026, anne.pk)
    assert (ranking.tournaments_played, ranking.matches_played, ranking.matches_won) == (2, 6, 4)
    assert ranking.average_place == 1.5

    # And the API answers from them as it did (its names unchanged: `season` for the year).
    standings = client.get(f"/api/v1/series/{series.pk}/standings/").json()
    assert [(row["player"]["name"], row["rank"], row["total"]) for row in standings] == [
        ("Anne Petit", 1, 45),
        ("Paul Roux", 2, 36),
    ]
    assert client.get(f"/api/v1/seasons/{season.pk}/").json()["series"][0]["name"] == "Thursday"
    year = client.get(f"/api/v1/clubs/{club.pk}/season/").json()
    rows = year["results"] if isinstance(year, dict) else year
    assert [(row["season"], row["player"]["id"]) for row in rows] == [(2026, anne.pk)]
