"""Seasons and series through the API: the contract's paths, rows and refusals."""

from __future__ import annotations

import datetime

import pytest

from club.models import Membership
from seasons.models import Season, Series, SeriesLine
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
    seat_teams,
)
from tournaments.models import Standing, Tournament

pytestmark = pytest.mark.django_db


def season_body(**changes):
    return {"name": "2026–27", "starts_on": "2026-09-01", "ends_on": "2027-06-30", **changes}


@pytest.fixture
def season(club, director_client):
    response = director_client.post(
        f"/api/v1/clubs/{club.pk}/seasons/", season_body(), format="json"
    )
    assert response.status_code == 201, response.json()
    return Season.objects.get(pk=response.json()["id"])


def evening(club, day, *teams):
    tournament = TournamentFactory(club=club, starts_on=day, status=Tournament.Status.FINISHED)
    entries = []
    for first, second, rank, points in teams:
        team = TeamFactory(tournament=tournament, first_player=first, second_player=second)
        entries.append(team)
        Standing.objects.create(
            tournament=tournament, round_number=1, team=team, rank=rank, points_for=points
        )
    seat_teams(tournament, entries)
    return tournament


def test_a_director_adds_a_season_and_everyone_reads_it(club, season, anonymous_client):
    listed = anonymous_client.get(f"/api/v1/clubs/{club.pk}/seasons/").json()
    assert [(s["name"], s["starts_on"], s["ends_on"]) for s in listed] == [
        ("2026–27", "2026-09-01", "2027-06-30")
    ]
    inside = TournamentFactory(club=club, starts_on=datetime.date(2026, 10, 1))
    TournamentFactory(club=club, starts_on=datetime.date(2027, 7, 1))
    detail = anonymous_client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert detail["tournaments"] == [inside.pk]
    assert detail["series"] == []


def test_overlapping_dates_answer_400_naming_the_field(club, season, director_client):
    response = director_client.post(
        f"/api/v1/clubs/{club.pk}/seasons/",
        season_body(name="Summer", starts_on="2027-06-15", ends_on="2027-08-31"),
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["starts_on"]
    assert Season.objects.count() == 1


def test_only_a_director_adds_a_season(club, referee_client, anonymous_client):
    url = f"/api/v1/clubs/{club.pk}/seasons/"
    assert referee_client.post(url, season_body(), format="json").status_code == 403
    assert anonymous_client.post(url, season_body(), format="json").status_code == 401
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"best_of": 0}, "best_of"),
        ({"place_points": [10, 12]}, "place_points"),
        ({"points": "goals"}, "points"),
        ({"tournaments": [987654]}, "tournaments"),
    ],
)
def test_bad_series_rules_answer_400_naming_the_field_and_store_nothing(
    season, director_client, body, field
):
    response = director_client.post(
        f"/api/v1/seasons/{season.pk}/series/",
        {"name": "Thursday", "points": "place", "place_points": [10, 7], **body},
        format="json",
    )
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not Series.objects.exists()


def test_an_evening_outside_the_season_is_refused_naming_tournaments(club, season, director_client):
    summer = TournamentFactory(club=club, starts_on=datetime.date(2026, 8, 1))
    response = director_client.post(
        f"/api/v1/seasons/{season.pk}/series/",
        {"name": "Thursday", "points": "score", "tournaments": [summer.pk]},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["tournaments"]


def test_the_series_standings_rows_follow_the_contract(
    club, season, director_client, anonymous_client, django_capture_on_commit_callbacks
):
    a, b, c, d = PlayerFactory.create_batch(4)
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    second = evening(club, datetime.date(2026, 9, 10), (a, c, 1, 800))
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(
            f"/api/v1/seasons/{season.pk}/series/",
            {
                "name": "Thursday",
                "points": "place",
                "place_points": [10, 6],
                "best_of": 1,
                "absent_points": 1,
                "tournaments": [second.pk, first.pk],
            },
            format="json",
        )
    assert response.status_code == 201, response.json()
    series = response.json()
    assert series["tournaments"] == sorted([first.pk, second.pk])
    rows = anonymous_client.get(f"/api/v1/series/{series['id']}/standings/").json()
    by_name = {row["player"]["name"]: row for row in rows}
    # Best of one: a and c 10 over two evenings, equal on everything; b 10 over one.
    assert [(row["player"]["id"], row["rank"]) for row in rows][:2] == [(a.pk, 1), (c.pk, 1)]
    b_row = by_name[b.full_name]
    assert b_row["rank"] == 3
    assert b_row["evenings"] == [
        {"tournament": first.pk, "points": 10, "counted": True, "played": True},
        {"tournament": second.pk, "points": 1, "counted": False, "played": False},
    ]
    assert (b_row["total"], b_row["handicap_total"]) == (10, 10)
    assert by_name[a.full_name]["needs"] is None
    assert set(rows[0]) >= {"player", "rank", "evenings", "total", "handicap_total", "needs"}
    detail = anonymous_client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert [s["id"] for s in detail["series"]] == [series["id"]]


# --- changing a series: its rules and its evenings -------------------------------------------


@pytest.fixture
def thursday(club, season, director_client, django_capture_on_commit_callbacks):
    """A place series (10, 6) over one evening: a and b first (10 each), c and d second (6)."""
    a, b, c, d = (PlayerFactory(first_name=n, last_name="Roux") for n in "ABCD")
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(
            f"/api/v1/seasons/{season.pk}/series/",
            {
                "name": "Thursday",
                "points": "place",
                "place_points": [10, 6],
                "tournaments": [first.pk],
            },
            format="json",
        )
    assert response.status_code == 201, response.json()
    return Series.objects.get(pk=response.json()["id"]), first, (a, b, c, d)


def test_a_director_adds_an_evening_with_patch_and_the_table_follows(
    club, thursday, director_client, anonymous_client, django_capture_on_commit_callbacks
):
    series, first, (a, b, c, d) = thursday
    # The second evening reverses the order: c and d first, a and b second.
    second = evening(club, datetime.date(2026, 9, 10), (c, d, 1, 880), (a, b, 2, 640))
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.patch(
            f"/api/v1/series/{series.pk}/",
            {"tournaments": [first.pk, second.pk], "best_of": 1},
            format="json",
        )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["tournaments"] == [first.pk, second.pk]
    # What the body left out is kept: the name and the place table.
    assert (body["name"], body["place_points"], body["best_of"]) == ("Thursday", [10, 6], 1)
    rows = anonymous_client.get(f"/api/v1/series/{series.pk}/standings/").json()
    # Best of one: everyone's best evening is worth 10; c and d won the latest evening.
    assert [(row["player"]["name"], row["rank"], row["total"]) for row in rows] == [
        ("C Roux", 1, 10),
        ("D Roux", 1, 10),
        ("A Roux", 3, 10),
        ("B Roux", 3, 10),
    ]


def test_an_evening_outside_the_season_is_refused_on_patch_naming_tournaments(
    club, thursday, director_client
):
    series, first, _players = thursday
    summer = TournamentFactory(club=club, starts_on=datetime.date(2026, 8, 20))
    response = director_client.patch(
        f"/api/v1/series/{series.pk}/",
        {"tournaments": [first.pk, summer.pk], "name": "Renamed"},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["tournaments"]
    series.refresh_from_db()
    assert series.name == "Thursday"
    assert list(series.tournaments.values_list("pk", flat=True)) == [first.pk]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"best_of": 0}, "best_of"),
        ({"place_points": [6, 10]}, "place_points"),
        ({"name": " "}, "name"),
    ],
)
def test_a_bad_rule_on_patch_is_refused_naming_the_field_as_on_the_form(
    thursday, director_client, body, field
):
    series, _first, _players = thursday
    response = director_client.patch(f"/api/v1/series/{series.pk}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    series.refresh_from_db()
    assert (series.best_of, series.place_points, series.name) == (None, [10, 6], "Thursday")


def test_put_replaces_the_whole_series(club, thursday, director_client):
    series, first, _players = thursday
    response = director_client.put(
        f"/api/v1/series/{series.pk}/",
        {"name": "Thursday score", "points": "score", "tournaments": [first.pk]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    series.refresh_from_db()
    # Left out of a PUT: the default (the place table is no longer needed by `score`).
    assert (series.name, series.points, series.place_points) == ("Thursday score", "score", [])


def test_only_the_clubs_directors_change_or_delete_a_series(
    thursday, referee_client, anonymous_client
):
    series, _first, _players = thursday
    url = f"/api/v1/series/{series.pk}/"
    assert referee_client.patch(url, {"name": "Mine"}, format="json").status_code == 403
    assert referee_client.delete(url).status_code == 403
    assert anonymous_client.patch(url, {"name": "Mine"}, format="json").status_code == 401
    assert anonymous_client.delete(url).status_code == 401
    elsewhere = client_for(make_staff(ClubFactory(), Membership.Role.DIRECTOR, "elsewhere"))
    assert elsewhere.patch(url, {"name": "Mine"}, format="json").status_code == 403
    assert Series.objects.get(pk=series.pk).name == "Thursday"


def test_a_director_deletes_a_series_and_its_table_its_evenings_stay(
    thursday, director_client, anonymous_client
):
    series, first, _players = thursday
    assert SeriesLine.objects.filter(series=series).count() == 4
    assert director_client.delete(f"/api/v1/series/{series.pk}/").status_code == 204
    assert not Series.objects.exists()
    assert not SeriesLine.objects.exists()
    assert Tournament.objects.filter(pk=first.pk).exists()
    assert anonymous_client.get(f"/api/v1/series/{series.pk}/").status_code == 404
    assert director_client.delete(f"/api/v1/series/{series.pk}/").status_code == 404
