"""A standings row's cells are rendered once per process for the same key
(tournament_tags.standing_cells): what they show still follows the figures, the name, the
withdrawal, the language and the columns; the memory they take is bounded."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.pages_world import build_world
from tournaments.models import Standing, Team
from tournaments.templatetags import tournament_tags

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture(autouse=True)
def _fresh():
    cache.clear()
    tournament_tags._ROW_CELLS.clear()
    yield
    cache.clear()


def rows(client, language: str = "en") -> list[str]:
    cache.clear()  # the fragment is kept per version: render it again
    body = client.get(
        reverse("tournaments:standings_live", args=ARGS), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    return re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", body, flags=re.S)


def team_row(found: list[str], name: str) -> str:
    (row,) = [row for row in found if f">{name}</a>" in row]
    return row


def test_the_cells_follow_the_figures_the_name_and_the_withdrawal(client):
    world = build_world()
    before = rows(client)
    assert len(before) == 4 and tournament_tags._ROW_CELLS
    team = Team.objects.get(tournament=world.tournament, name="Team A")
    line = Standing.objects.filter(team=team).order_by("-round_number").first()
    assert line is not None
    Standing.objects.filter(pk=line.pk).update(points_for=line.points_for + 1234)
    shown = team_row(rows(client), "Team A")
    assert f">{line.points_for + 1234}</td>" in shown, shown
    Team.objects.filter(pk=team.pk).update(name="Les Rois")
    renamed = team_row(rows(client), "Les Rois")
    Standing.objects.filter(pk=line.pk).update(withdrawn=True)
    assert "withdrawn" in team_row(rows(client), "Les Rois") and "withdrawn" not in renamed


def test_the_cells_are_in_the_visitors_language(client):
    world = build_world()
    Standing.objects.filter(tournament=world.tournament).update(withdrawn=True)
    assert all("withdrawn" in row for row in rows(client, "en"))
    assert all("forfait" in row and "withdrawn" not in row for row in rows(client, "fr"))


def test_the_kept_cells_are_bounded(client, monkeypatch):
    build_world(n_teams=8)
    monkeypatch.setattr(tournament_tags, "ROW_CELLS_AT_MOST", 3)
    assert len(rows(client)) == 8
    assert len(tournament_tags._ROW_CELLS) <= 3
