"""The prizes in the evening's cash summary and its CSV: fees due, received, prizes, retained."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from prizes.services import recompute_prize_list
from tests.prizes.world import build_world
from tournaments.models import Team

pytestmark = pytest.mark.django_db

CASH = "/direct/les-atouts/concours/cash/"


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    world = build_world()
    # Four teams paid 10.00 each (two in cash, two by card); the pool counts all six drawn.
    for name, way in (
        ("Team A", "cash"),
        ("Team B", "cash"),
        ("Team C", "card"),
        ("Team D", "card"),
    ):
        Team.objects.filter(name=name).update(
            paid=way, fee_paid=Decimal("10.00"), attendance="present"
        )
    Team.objects.filter(name="Team E").update(category="Ladies")
    recompute_prize_list(world.tournament.pk)
    return world


def test_the_cash_page_shows_the_fees_due_the_prizes_and_what_is_retained(world):
    client = Client()
    client.force_login(world.director)
    html = client.get(CASH).content.decode()
    section = html[html.index('id="cash-prizes-title"') :]
    assert "60.00 EUR" in section  # fees due: six teams at 10.00
    assert "40.00 EUR" in section  # received
    assert "50.00 EUR" in section  # the pool: 20.00 added + half the fees
    assert "45.00 EUR" in section  # prizes in cash
    assert "5.00 EUR" in section  # retained


def test_the_cash_csv_ends_with_the_prizes(world):
    client = Client()
    client.force_login(world.director)
    response = client.get("/direct/les-atouts/concours/export/cash.csv")
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    tail = lines[-7:]
    assert tail == [
        ["fees due", "", "", "", "", "60.00"],
        ["prize pool", "", "", "", "50.00", ""],
        ["prize 1", "Team A", "", "", "25.00", ""],
        ["prize 2", "Team B", "", "", "15.00", ""],
        ["prize 5", "Team E", "", "", "5.00", ""],
        ["prizes", "", "", "", "45.00", ""],
        ["retained", "", "", "", "5.00", ""],
    ]


def test_a_referee_does_not_see_the_cash(world):
    client = Client()
    client.force_login(world.referee)
    assert client.get(CASH).status_code == 403
    assert Client().get(CASH).status_code == 302
