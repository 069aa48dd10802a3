"""A tournament given its series: the director ticks the series on the tournament's own form,
so each week's evening joins the season's competition without opening the series."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest

from club.errors import FieldsRefused
from club.models import Membership
from seasons.models import Series
from seasons.services import save_season, save_series, set_evening_series
from tests.factories import ClubFactory, TournamentFactory, make_staff
from tournaments.errors import NotAllowed
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SEPT, JUNE = datetime.date(2026, 9, 1), datetime.date(2027, 6, 30)


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def thursday(club, director):  # type: ignore[no-untyped-def]
    season = save_season(club=club, name="2026–27", starts_on=SEPT, ends_on=JUNE, by=director)
    return save_series(
        season=season,
        name="Thursday",
        rules={"points": "score"},
        tournaments=[],
        by=director,
    )


def new_tournament(client, club, **values):  # type: ignore[no-untyped-def]
    """POST the New tournament form as the page fills it in, with `values` typed."""
    url = f"/direct/{club.slug}/new/"
    form = client.get(url).context["form"]
    data = {}
    for name, field in form.fields.items():
        initial = form.get_initial_for_field(field, name)
        if initial in (None, "") or name == "series":
            continue
        data[name] = initial
    data.update(values)
    return client.post(url, data)


def test_the_director_ticks_the_series_on_the_new_tournament_form(client, club, director, thursday):
    client.force_login(director)
    page = client.get(f"/direct/{club.slug}/new/").content.decode()
    assert "Counts in the series" in page and "Thursday" in page
    answer = new_tournament(
        client,
        club,
        name="Jeudi 3",
        slug="jeudi-3",
        starts_on="2026-10-01",
        format="round_robin",
        series=[thursday.pk],
    )
    assert answer.status_code == 302, answer.context["form"].errors
    assert list(Tournament.objects.get(slug="jeudi-3").series.all()) == [thursday]
    edit = client.get(f"/direct/{club.slug}/jeudi-3/edit/").context["form"]
    assert list(edit["series"].initial) == [thursday]


def test_a_date_outside_the_series_season_is_refused_on_the_field_and_stores_nothing(
    client, club, director, thursday
):
    client.force_login(director)
    answer = new_tournament(
        client,
        club,
        name="Juillet",
        slug="juillet",
        starts_on="2027-07-08",
        format="round_robin",
        series=[thursday.pk],
    )
    assert answer.status_code == 200
    assert "outside its season" in answer.context["form"].errors["series"][0]
    assert not Tournament.objects.filter(slug="juillet").exists()


def test_the_service_refuses_another_clubs_series_without_its_name(club, director, thursday):
    other_club = ClubFactory()
    other = make_staff(other_club, Membership.Role.DIRECTOR, "other")
    theirs = TournamentFactory(club=other_club, starts_on=datetime.date(2026, 10, 1))
    with pytest.raises(FieldsRefused) as refused:
        set_evening_series(theirs, [thursday], by=other)
    assert refused.value.problems == {"series": [f"No series {thursday.pk}."]}
    assert not theirs.series.exists()
    with pytest.raises(NotAllowed):
        set_evening_series(theirs, [], by=director)


def test_joining_and_leaving_a_series_asks_for_its_table(club, director, thursday):
    evening = TournamentFactory(club=club, starts_on=datetime.date(2026, 10, 1))
    with mock.patch("seasons.services.seasons.record_series_change") as asked:
        set_evening_series(evening, [thursday], by=director)
        assert list(Series.objects.get(pk=thursday.pk).tournaments.all()) == [evening]
        set_evening_series(evening, [thursday], by=director)  # no change: nothing asked
        set_evening_series(evening, [], by=director)
    assert not Series.objects.get(pk=thursday.pk).tournaments.exists()
    assert asked.call_args_list == [mock.call(thursday.pk), mock.call(thursday.pk)]
