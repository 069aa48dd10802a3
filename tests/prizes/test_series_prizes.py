"""A series' prize table over its table's ranks: set by a director, shown on the series page
and in the season's archive (docs/prizes.md)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client

from club.models import Membership
from prizes.models import SeriesPrizes
from prizes.selectors import series_prizes_shown
from seasons.models import Season, Series, SeriesLine
from seasons.selectors import series_view
from tests.factories import ClubFactory, PlayerFactory, make_staff

pytestmark = pytest.mark.django_db

TABLE = {
    "pool": {"added": 100},
    "rounding": 1,
    "lines": [
        {"place": 1, "percent": 50},
        {"place": 2, "percent": 30},
        {"last": True, "kind": "Wooden spoon"},
    ],
}


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    season = Season.objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    series = Series.objects.create(season=season, name="Thursday")
    # Anna 1, Bram and Cato 2= (they share places 2 and 3), Dirk 4, Eva unranked.
    for position, (name, rank, shared) in enumerate(
        [
            ("Anna", 1, False),
            ("Bram", 2, True),
            ("Cato", 2, True),
            ("Dirk", 4, False),
            ("Eva", None, False),
        ],
        start=1,
    ):
        SeriesLine.objects.create(
            series=series,
            player=PlayerFactory(first_name=name, last_name="Martin"),
            position=position,
            rank=rank,
            shared_rank=shared,
        )
    return {
        "club": club,
        "season": season,
        "series": series,
        "director": make_staff(club, Membership.Role.DIRECTOR, "dora"),
        "referee": make_staff(club, Membership.Role.REFEREE, "remi"),
    }


def test_the_series_prizes_follow_its_ranks(world):
    SeriesPrizes.objects.create(series=world["series"], prizes=TABLE)
    shown = series_prizes_shown(series_view(world["series"]))
    # 50 % of 100 to Anna; Bram and Cato share places 2 and 3: 30 + 0 = 15.00 each.
    assert [(line["entry"]["name"], line["amount"], line["kind"]) for line in shown.lines] == [
        ("Anna Martin", "50.00", ""),
        ("Bram Martin", "15.00", ""),
        ("Cato Martin", "15.00", ""),
        ("Dirk Martin", None, "Wooden spoon"),
    ]
    assert shown.awarded.retained == 20


def edit_url(world) -> str:  # type: ignore[no-untyped-def]
    return f"/direct/les-atouts/series/{world['series'].pk}/prizes/"


def test_a_director_sets_the_series_prize_table(world):
    client = Client()
    client.force_login(world["director"])
    assert client.get(edit_url(world)).status_code == 200
    response = client.post(edit_url(world), {"prizes": json.dumps(TABLE)})
    assert response.status_code == 302
    assert SeriesPrizes.objects.get().prizes == TABLE
    page = client.get(f"/clubs/les-atouts/series/{world['series'].pk}/").content.decode()
    assert 'id="series-prizes-title"' in page and "Wooden spoon" in page
    assert "Change the prize table" in page


def test_a_series_refuses_a_share_of_fees_and_categories_naming_the_line(world):
    client = Client()
    client.force_login(world["director"])
    table = {
        "pool": {"percent_of_fees": 50},
        "lines": [{"category": "Ladies", "place": 1, "amount": 5}],
    }
    html = client.post(edit_url(world), {"prizes": json.dumps(table)}).content.decode()
    assert "A series has no entry fees of its own: give the pool as money added." in html
    assert (
        "Line 1, category: A series ranks players, who have no category: give places instead."
        in html
    )
    assert not SeriesPrizes.objects.exists()


def test_emptying_the_field_removes_the_table(world):
    SeriesPrizes.objects.create(series=world["series"], prizes=TABLE)
    client = Client()
    client.force_login(world["director"])
    assert client.post(edit_url(world), {"prizes": ""}).status_code == 302
    assert not SeriesPrizes.objects.exists()


def test_a_referee_and_a_visitor_may_not_set_it(world):
    referee = Client()
    referee.force_login(world["referee"])
    assert referee.post(edit_url(world), {"prizes": json.dumps(TABLE)}).status_code == 403
    assert Client().post(edit_url(world), {"prizes": json.dumps(TABLE)}).status_code == 302
    assert not SeriesPrizes.objects.exists()


def test_a_visitor_sees_the_prizes_on_the_series_page_and_in_the_archive(world):
    SeriesPrizes.objects.create(series=world["series"], prizes=TABLE)
    visitor = Client()
    page = visitor.get(f"/clubs/les-atouts/series/{world['series'].pk}/").content.decode()
    assert "50.00 EUR" in page and "Change the prize table" not in page
    assert "Pool 100.00 EUR · cash awarded 80.00 EUR · retained 20.00 EUR" in page
    archive = visitor.get(f"/clubs/les-atouts/seasons/{world['season'].pk}/").content.decode()
    assert 'id="season-prizes-title"' in archive and "Anna Martin" in archive


def test_a_series_without_prizes_shows_none_to_a_visitor(world):
    page = Client().get(f"/clubs/les-atouts/series/{world['series'].pk}/").content.decode()
    assert "series-prizes-title" not in page
