"""The standings table's rows, built in Python (tournament_tags.standings_rows): every figure
in its column, the name escaped and linked, the badges in the visitor's language, the column
that ranks first in bold, and four lines a row, the rank on its own (what the stream patches)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.pages.pages_world import build_world
from tournaments.models import Standing, Team, Tournament

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]
ROW = re.compile(r"<tr class=\"[^\"]*\">(.*?)</tr>", flags=re.S)


@pytest.fixture(autouse=True)
def _fresh():
    cache.clear()
    yield
    cache.clear()


def region(client, language: str = "en") -> str:
    cache.clear()  # the fragment is kept per version: render it again
    return client.get(
        reverse("tournaments:standings_live", args=ARGS), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()


def rows(client, language: str = "en") -> list[str]:
    return ROW.findall(region(client, language))


def team_row(found: list[str], name: str) -> str:
    (row,) = [row for row in found if f">{name}</a>" in row]
    return row


def cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)


def latest_line(team: Team) -> Standing:
    line = Standing.objects.filter(team=team).order_by("-round_number").first()
    assert line is not None
    return line


def test_each_figure_stands_in_its_column(client):
    world = build_world()
    Standing.objects.filter(team__name="Team A").update(
        played=1,
        won=1,
        drawn=0,
        lost=0,
        match_points=2,
        points_for=347,
        points_against=-12,
        point_difference=359,
        deals=3,
        contracts_taken=3,
        contracts_made=2,
        contracts_dedans=1,
        capots=4,
        belotes=5,
        litiges=6,
    )
    team = Team.objects.get(tournament=world.tournament, name="Team A")
    row = team_row(rows(client), "Team A")
    rank = str(latest_line(team).rank)
    link = reverse("tournaments:team", args=[*ARGS, team.pk])
    assert cells(row) == [
        rank,
        f'<a href="{link}">Team A</a>',
        "1", "1", "0", "0", "<strong>2</strong>", "347", "-12", "359",
        "3", "2/3", "1", "4", "5", "6",
    ]  # fmt: skip


def test_the_rows_follow_the_figures_the_name_and_the_withdrawal(client):
    world = build_world()
    before = rows(client)
    assert len(before) == 4
    team = Team.objects.get(tournament=world.tournament, name="Team A")
    line = latest_line(team)
    Standing.objects.filter(pk=line.pk).update(points_for=line.points_for + 1234)
    shown = team_row(rows(client), "Team A")
    assert f">{line.points_for + 1234}</td>" in shown, shown
    Team.objects.filter(pk=team.pk).update(name="Les Rois")
    renamed = team_row(rows(client), "Les Rois")
    Standing.objects.filter(pk=line.pk).update(withdrawn=True)
    withdrawn = re.search(r'<tr class="withdrawn">(.*?)</tr>', region(client), flags=re.S)
    assert withdrawn is not None and ">Les Rois</a>" in withdrawn[1]
    assert '<span class="badge">withdrawn</span>' in withdrawn[1]
    assert "withdrawn" not in renamed


def test_a_name_is_escaped(client):
    world = build_world()
    Team.objects.filter(tournament=world.tournament, name="Team B").update(
        name='<b>Tom & "Jerry"</b>'
    )
    body = region(client)
    assert "&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</a>" in body
    assert "<b>Tom" not in body


def test_the_badges_are_in_the_visitors_language(client):
    world = build_world()
    Standing.objects.filter(tournament=world.tournament).update(withdrawn=True)
    assert all("withdrawn" in row for row in rows(client, "en"))
    assert all("forfait" in row and "withdrawn" not in row for row in rows(client, "fr"))


def test_where_points_rank_first_they_are_in_bold_and_buchholz_has_its_column(client):
    world = build_world()
    Tournament.objects.filter(pk=world.tournament.pk).update(
        tie_breaks=["points_for", "buchholz", "match_points"]
    )
    Standing.objects.filter(team__name="Team A").update(
        match_points=4, points_for=347, point_difference=21, buchholz=9
    )
    shown = cells(team_row(rows(client), "Team A"))
    assert len(shown) == 17
    assert shown[6:11] == ["4", "<strong>347</strong>", shown[8], "21", "9"]


def test_a_row_is_four_lines_with_its_rank_on_a_line_of_its_own(client):
    build_world()
    body = region(client)
    table = body[body.index("<tbody>") : body.index("</tbody>")]
    rows_lines = [line for line in table.splitlines()[1:] if line.strip()]
    assert len(rows_lines) == 4 * 4
    for start in range(0, len(rows_lines), 4):
        opening, rank, figures, closing = rows_lines[start : start + 4]
        assert opening.strip().startswith("<tr class=") and closing.strip() == "</tr>"
        assert re.fullmatch(r'<td class="num">\d+=?</td>', rank.strip())
        assert figures.strip().startswith("<td><a href=")
