"""A series' evenings through the API name only the tournaments the reader may read: a draft
is its directors' alone and a private tournament is not everyone's (tournaments.permissions)."""

from __future__ import annotations

import datetime

import pytest

from seasons.models import Series
from seasons.services import save_season, save_series
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def evenings(club, director):  # type: ignore[no-untyped-def]
    season = save_season(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        by=director,
    )
    day = datetime.date(2026, 10, 1)
    public = TournamentFactory(club=club, starts_on=day, status=Tournament.Status.FINISHED)
    draft = TournamentFactory(club=club, starts_on=day, status=Tournament.Status.DRAFT)
    private = TournamentFactory(club=club, starts_on=day, is_public=False)
    series = save_series(
        season=season,
        name="Thursday",
        rules={"points": "score"},
        tournaments=[public, draft, private],
        by=director,
    )
    return season, series, public, draft, private


def test_anyone_reads_only_the_public_published_evenings_of_a_series(anonymous_client, evenings):
    season, series, public, _draft, _private = evenings
    assert anonymous_client.get(f"/api/v1/series/{series.pk}/").json()["tournaments"] == [public.pk]
    listed = anonymous_client.get(f"/api/v1/seasons/{season.pk}/series/").json()
    assert [s["tournaments"] for s in listed] == [[public.pk]]
    detail = anonymous_client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert [s["tournaments"] for s in detail["series"]] == [[public.pk]]
    assert detail["tournaments"] == [public.pk]


def test_the_clubs_directors_read_every_evening(director_client, evenings):
    season, series, public, draft, private = evenings
    every = sorted([public.pk, draft.pk, private.pk])
    assert director_client.get(f"/api/v1/series/{series.pk}/").json()["tournaments"] == every
    listed = director_client.get(f"/api/v1/seasons/{season.pk}/series/").json()
    assert [s["tournaments"] for s in listed] == [every]


def test_a_referee_of_a_private_evening_reads_it_but_never_a_draft(
    referee, referee_client, evenings
):
    _season, series, public, draft, private = evenings
    MatchFactory(round__tournament=private, tournament=private, referee=referee)
    MatchFactory(round__tournament=draft, tournament=draft, referee=referee)
    got = referee_client.get(f"/api/v1/series/{series.pk}/").json()["tournaments"]
    assert got == sorted([public.pk, private.pk])
    assert Series.objects.get(pk=series.pk).tournaments.count() == 3
