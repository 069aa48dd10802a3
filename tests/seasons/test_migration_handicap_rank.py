"""The tables stored before `handicap_rank` followed the scratch rank without a handicap are
brought along by seasons 0002: the scratch rank copied, a handicap table's own rank kept."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from seasons.models import SeriesLine

BEFORE = [("seasons", "0001_initial")]


def migrate(targets):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def stored_before(apps):  # type: ignore[no-untyped-def]
    """A season with a series of each kind, each with a line ranked 2nd, 1st in handicap."""
    club = apps.get_model("club", "Club").objects.create(name="Lyon", slug="lyon")
    player = apps.get_model("club", "Player").objects.create(first_name="Anne", last_name="Petit")
    season = apps.get_model("seasons", "Season").objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    lines = {}
    for handicap, handicap_rank in (("none", None), ("rating", 1)):
        series = apps.get_model("seasons", "Series").objects.create(
            season=season, name=handicap, points="score", handicap=handicap
        )
        lines[handicap] = (
            apps.get_model("seasons", "SeriesLine")
            .objects.create(
                series=series,
                player=player,
                position=1,
                rank=2,
                played=3,
                total=2400,
                handicap_total=2400 if handicap == "none" else 2460,
                handicap_rank=handicap_rank,
                evenings=[],
                ranks=[],
            )
            .pk
        )
    return lines


@pytest.mark.django_db(transaction=True)
def test_a_stored_line_without_a_handicap_gets_its_scratch_rank_as_handicap_rank():
    executor = migrate(BEFORE)
    try:
        lines = stored_before(executor.loader.project_state(BEFORE).apps)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert SeriesLine.objects.get(pk=lines["none"]).handicap_rank == 2
    assert SeriesLine.objects.get(pk=lines["rating"]).handicap_rank == 1
