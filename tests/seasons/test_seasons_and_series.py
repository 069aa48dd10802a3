"""Seasons and series: set by the club's directors, the table stored and kept current."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.core.cache import cache

from club.errors import FieldsRefused
from club.models import Membership
from config.celery_app import app
from seasons import tasks as series_tasks
from seasons.models import Season, Series, SeriesLine
from seasons.services import recompute_series, save_season, save_series
from tests.factories import (
    MatchFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
    seat_teams,
)
from tournaments import tasks
from tournaments.errors import NotAllowed
from tournaments.models import Standing, Tournament
from tournaments.services.deals import correct_deal, enter_deal

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
DEDANS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 60}}
SEPT = datetime.date(2026, 9, 1)
JUNE = datetime.date(2027, 6, 30)


@pytest.fixture
def club():
    return TournamentFactory().club


@pytest.fixture
def director(club):
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def season(club, director):
    return save_season(club=club, name="2026–27", starts_on=SEPT, ends_on=JUNE, by=director)


def evening(club, day, *teams, status=Tournament.Status.FINISHED):
    """A tournament whose stored standings place `teams` [(first, second, rank, points)]."""
    tournament = TournamentFactory(club=club, starts_on=day, status=status)
    entries = []
    for first, second, rank, points in teams:
        team = TeamFactory(tournament=tournament, first_player=first, second_player=second)
        entries.append(team)
        Standing.objects.create(
            tournament=tournament,
            round_number=1,
            team=team,
            rank=rank,
            points_for=points,
            match_points=2 if rank == 1 else 0,
        )
    seat_teams(tournament, entries)
    return tournament


# --- seasons -------------------------------------------------------------------------------


def test_a_director_creates_a_season_and_an_overlapping_one_is_refused_naming_the_field(
    club, director, season
):
    with pytest.raises(FieldsRefused) as refused:
        save_season(
            club=club,
            name="Spring",
            starts_on=datetime.date(2027, 6, 1),
            ends_on=datetime.date(2027, 8, 31),
            by=director,
        )
    assert list(refused.value.errors()) == ["starts_on"]
    with pytest.raises(FieldsRefused) as refused:
        save_season(
            club=club,
            name="Summer",
            starts_on=datetime.date(2026, 7, 1),
            ends_on=datetime.date(2026, 9, 1),
            by=director,
        )
    assert list(refused.value.errors()) == ["ends_on"]
    assert list(Season.objects.values_list("name", flat=True)) == ["2026–27"]
    save_season(
        club=club,
        name="Summer",
        starts_on=datetime.date(2027, 7, 1),
        ends_on=datetime.date(2027, 8, 31),
        by=director,
    )
    assert Season.objects.count() == 2


def test_a_season_ending_before_it_starts_is_refused(club, director):
    with pytest.raises(FieldsRefused) as refused:
        save_season(club=club, name="Back", starts_on=JUNE, ends_on=SEPT, by=director)
    assert list(refused.value.errors()) == ["ends_on"]


def test_only_a_director_of_the_club_sets_seasons(club):
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    with pytest.raises(NotAllowed):
        save_season(club=club, name="x", starts_on=SEPT, ends_on=JUNE, by=referee)
    assert not Season.objects.exists()


# --- series rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"best_of": 0}, "best_of"),
        ({"place_points": [10, 12, 8]}, "place_points"),
        ({"points": "place", "place_points": []}, "place_points"),
        ({"points": "goals"}, "points"),
    ],
)
def test_bad_rules_are_refused_naming_the_field_and_store_nothing(season, director, rules, field):
    with pytest.raises(FieldsRefused) as refused:
        save_series(
            season=season,
            name="Thursday",
            rules={"place_points": [10, 7, 5], **rules},
            tournaments=[],
            by=director,
        )
    assert field in refused.value.errors()
    assert not Series.objects.exists()


def test_an_evening_outside_the_seasons_dates_is_refused_naming_tournaments(club, season, director):
    summer = TournamentFactory(club=club, starts_on=datetime.date(2026, 8, 20))
    with pytest.raises(FieldsRefused) as refused:
        save_series(
            season=season,
            name="Thursday",
            rules={"points": "score"},
            tournaments=[summer],
            by=director,
        )
    assert list(refused.value.errors()) == ["tournaments"]
    assert not Series.objects.exists()


# --- the stored table ----------------------------------------------------------------------


def test_the_stored_table_is_the_series_table_of_the_evenings_standings(
    club, season, director, django_capture_on_commit_callbacks
):
    a, b, c, d = PlayerFactory.create_batch(4)
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    second = evening(club, datetime.date(2026, 9, 10), (a, c, 1, 800), (b, d, 2, 780))
    with django_capture_on_commit_callbacks(execute=True):
        series = save_series(
            season=season,
            name="Thursday",
            rules={"points": "place", "place_points": [10, 6]},
            tournaments=[first, second],
            by=director,
        )
    lines = list(SeriesLine.objects.filter(series=series).order_by("position"))
    # a 10 + 10; b 10 + 6 and c 6 + 10, level but for the latest evening; d 6 + 6.
    assert [(line.player_id, line.rank, line.total) for line in lines] == [
        (a.pk, 1, 20),
        (c.pk, 2, 16),
        (b.pk, 3, 16),
        (d.pk, 4, 12),
    ]
    assert lines[0].evenings == [
        [first.pk, 10, True, True, 10, True],
        [second.pk, 10, True, True, 10, True],
    ]
    assert recompute_series(series.pk) is False  # nothing changed since


def test_a_private_evening_counts_in_no_public_series_table(
    club, season, director, django_capture_on_commit_callbacks
):
    """A series table is public, like the ratings: a private tournament's players and points
    stay out of it, and making an evening private takes it out."""
    a, b, c, d = PlayerFactory.create_batch(4)
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    hidden = TournamentFactory(club=club, starts_on=datetime.date(2026, 9, 10), is_public=False)
    e, f = PlayerFactory.create_batch(2)
    team = TeamFactory(tournament=hidden, first_player=e, second_player=f)
    Standing.objects.create(tournament=hidden, round_number=1, team=team, rank=1, points_for=900)
    with django_capture_on_commit_callbacks(execute=True):
        series = save_series(
            season=season,
            name="Thursday",
            rules={"points": "place", "place_points": [10, 6]},
            tournaments=[first, hidden],
            by=director,
        )
    players = set(SeriesLine.objects.filter(series=series).values_list("player_id", flat=True))
    assert players == {a.pk, b.pk, c.pk, d.pk}
    line = SeriesLine.objects.get(series=series, player=a)
    assert [evening[0] for evening in line.evenings] == [first.pk]


def test_a_corrected_deal_on_an_evening_updates_the_series_table(
    club, season, director, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(
        club=club, starts_on=datetime.date(2026, 10, 1), rules={"target": None, "max_deals": 1}
    )
    match = MatchFactory(round__tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        series = save_series(
            season=season,
            name="Thursday",
            rules={"points": "score"},
            tournaments=[tournament],
            by=director,
        )
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(match, MADE, by=director)
    ns = match.ns_team.first_player_id
    before = SeriesLine.objects.get(series=series, player_id=ns)
    assert before.rank == 1
    with django_capture_on_commit_callbacks(execute=True):
        correct_deal(match, 1, DEDANS, by=director)
    after = SeriesLine.objects.get(series=series, player_id=ns)
    # The two east–west players now share first place.
    assert after.rank == 3 and after.total < before.total


def test_a_deleted_evening_leaves_the_series_table(
    club, season, director, django_capture_on_commit_callbacks
):
    a, b = PlayerFactory.create_batch(2)
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900))
    second = evening(club, datetime.date(2026, 9, 10), (a, b, 1, 800))
    with django_capture_on_commit_callbacks(execute=True):
        series = save_series(
            season=season,
            name="T",
            rules={"points": "score"},
            tournaments=[first, second],
            by=director,
        )
    assert SeriesLine.objects.get(series=series, player=a).total == 1700
    with django_capture_on_commit_callbacks(execute=True):
        second.delete()
    assert SeriesLine.objects.get(series=series, player=a).total == 900


def test_a_burst_of_changes_on_an_evening_sends_one_series_recompute_per_window(
    club, season, director, django_capture_on_commit_callbacks
):
    tournament = evening(club, datetime.date(2026, 9, 3), *[])
    with django_capture_on_commit_callbacks(execute=True):
        series = save_series(
            season=season,
            name="T",
            rules={"points": "score"},
            tournaments=[tournament],
            by=director,
        )
    cache.clear()
    app.conf.task_always_eager = False
    try:
        with (
            mock.patch.object(tasks, "recompute_standings", return_value=True),
            mock.patch.object(tasks, "schedule_ratings"),
            mock.patch.object(series_tasks.recompute_series_table, "apply_async") as sent,
        ):
            # Five recomputes of the evening's standings inside one window (a burst).
            for _ in range(5):
                tasks.recompute_tournament.run(tournament.pk)
    finally:
        app.conf.task_always_eager = True
        cache.clear()
    # The first at once, the others on one trailing task.
    assert [c.args[0] for c in sent.call_args_list] == [(series.pk,), (series.pk,)]


# --- pages ---------------------------------------------------------------------------------


@pytest.fixture
def played_series(club, season, director, django_capture_on_commit_callbacks):
    a, b, c, d = (
        PlayerFactory(first_name=name, last_name="Dupont")
        for name in ("Anne", "Bert", "Cleo", "Dirk")
    )
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    second = evening(club, datetime.date(2026, 9, 10), (a, c, 1, 800), (b, d, 2, 780))
    with django_capture_on_commit_callbacks(execute=True):
        return save_series(
            season=season,
            name="Thursday mêlée",
            rules={"points": "place", "place_points": [10, 6], "handicap": "rating"},
            tournaments=[first, second],
            by=director,
        )


def test_everyone_reads_the_series_table_its_chart_and_csv(client, club, played_series):
    page = client.get(f"/clubs/{club.slug}/series/{played_series.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Anne Dupont" in html and "<svg" in html
    assert f"/clubs/{club.slug}/series/{played_series.pk}/series.csv" in html
    handicap = client.get(f"/clubs/{club.slug}/series/{played_series.pk}/?table=handicap")
    assert "Handicap table" in handicap.content.decode()
    csv = client.get(f"/clubs/{club.slug}/series/{played_series.pk}/series.csv")
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("rank,player,played,")
    assert lines[1].startswith("1,Anne Dupont,2,10*,10*,20,")


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("en", "09/03", "09/10"),
        ("nl", "3-9", "10-9"),
        ("fr", "03/09", "10/09"),
        ("fi", "3.9.", "10.9."),
    ],
)
def test_the_evening_columns_are_headed_by_their_date_as_the_reader_writes_it(
    client, club, played_series, language, first, second
):
    one, two = played_series.tournaments.order_by("starts_on")
    page = client.get(
        f"/clubs/{club.slug}/series/{played_series.pk}/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert f'<time datetime="2026-09-03">{first}</time>' in page
    assert f'<time datetime="2026-09-10">{second}</time>' in page
    # The evening's name: in the link's title and for a screen reader.
    assert (
        f'title="{one.name}, ' in page
        and f'<span class="visually-hidden"> {two.name}</span>' in page
    )
    csv = client.get(f"/clubs/{club.slug}/series/{played_series.pk}/series.csv")
    header = csv.content.decode("utf-8-sig").splitlines()[0]
    assert f"2026-09-03 {one.name},2026-09-10 {two.name}" in header


@pytest.fixture
def series_with_newcomers(club, season, director, django_capture_on_commit_callbacks):
    """Ranked after two evenings: Anne, Bert, Cleo and Dirk played both; Emma and Fred only
    the second, which they won."""
    a, b, c, d, e, f = (
        PlayerFactory(first_name=name, last_name="Martin")
        for name in ("Anne", "Bert", "Cleo", "Dirk", "Emma", "Fred")
    )
    first = evening(club, datetime.date(2026, 9, 3), (a, b, 1, 900), (c, d, 2, 700))
    second = evening(
        club, datetime.date(2026, 9, 10), (e, f, 1, 950), (a, c, 2, 800), (b, d, 3, 780)
    )
    with django_capture_on_commit_callbacks(execute=True):
        return save_series(
            season=season,
            name="Thursday",
            rules={"points": "place", "place_points": [10, 6, 4], "min_evenings": 2},
            tournaments=[first, second],
            by=director,
        )


def test_players_under_the_minimum_are_listed_apart_after_the_ranked_ones(
    client, club, series_with_newcomers
):
    page = client.get(f"/clubs/{club.slug}/series/{series_with_newcomers.pk}/").content.decode()
    ranked, _sep, unranked = page.partition("Not yet ranked: fewer than 2 evenings")
    assert unranked, "no heading for the unranked players"
    # Anne 10 + 6 = 16, Bert 10 + 4 = 14, Cleo 6 + 6 = 12, Dirk 6 + 4 = 10: ranked, above
    # the heading; Emma and Fred, 10 over one evening, below it, without a rank.
    assert all(f"{name} Martin" in ranked for name in ("Anne", "Bert", "Cleo", "Dirk"))
    assert not any(f"{name} Martin" in ranked for name in ("Emma", "Fred"))
    assert "Emma Martin" in unranked and "Fred Martin" in unranked
    assert 'scope="rowgroup"' in page
    rows = client.get(f"/api/v1/series/{series_with_newcomers.pk}/standings/").json()
    assert [(r["player"]["name"], r["rank"], r["total"]) for r in rows] == [
        ("Anne Martin", 1, 16),
        ("Bert Martin", 2, 14),
        ("Cleo Martin", 3, 12),
        ("Dirk Martin", 4, 10),
        ("Emma Martin", None, 10),
        ("Fred Martin", None, 10),
    ]
    assert [r["handicap_rank"] for r in rows] == [1, 2, 3, 4, None, None]


def test_the_big_screen_lists_the_unranked_players_apart_too(client, club, series_with_newcomers):
    last = series_with_newcomers.tournaments.order_by("starts_on").last()
    page = client.get(f"/clubs/{club.slug}/{last.slug}/screen/").content.decode()
    slide = page[page.index("slide-series") :]
    ranked, _sep, unranked = slide.partition("Not yet ranked: fewer than 2 evenings")
    assert "Dirk Martin" in ranked and "Emma Martin" not in ranked
    assert "Emma Martin" in unranked


def test_the_club_page_shows_the_honour_roll_and_the_season_pages_are_permanent(
    client, club, season, played_series
):
    home = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Honour roll" in home and "Anne Dupont" in home
    assert client.get(f"/clubs/{club.slug}/seasons/").status_code == 200
    assert client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").status_code == 200
    assert client.get(f"/clubs/{club.slug}/seasons/{season.pk + 99}/").status_code == 404


def test_a_club_without_seasons_keeps_its_calendar_year_table(client, club):
    assert client.get(f"/clubs/{club.slug}/ranking/").status_code == 200
    page = client.get(f"/clubs/{club.slug}/seasons/").content.decode()
    assert "calendar year" in page


def test_the_director_sets_a_series_from_the_clubs_pages_and_bad_rules_show_on_their_field(
    client, club, season, director
):
    client.force_login(director)
    url = f"/direct/{club.slug}/seasons/{season.pk}/series/new/"
    assert client.get(url).status_code == 200
    bad = client.post(
        url,
        {
            "name": "Thursday",
            "points": "place",
            "place_points": "10, 12",
            "participation_points": 0,
            "best_of": 0,
            "absent_points": 0,
            "min_evenings": 0,
            "handicap": "none",
        },
    )
    assert bad.status_code == 200
    form = bad.context["form"]
    assert set(form.errors) == {"place_points", "best_of"}
    assert not Series.objects.exists()
    good = client.post(
        url,
        {
            "name": "Thursday",
            "points": "place",
            "place_points": "10, 6, 3",
            "participation_points": 1,
            "best_of": "",
            "absent_points": 0,
            "min_evenings": 2,
            "handicap": "none",
        },
    )
    assert good.status_code == 302
    assert Series.objects.get().place_points == [10, 6, 3]


def test_the_director_adds_a_season_and_overlapping_dates_show_on_their_field(
    client, club, season, director
):
    client.force_login(director)
    url = f"/direct/{club.slug}/seasons/new/"
    bad = client.post(url, {"name": "Summer", "starts_on": "2027-06-01", "ends_on": "2027-08-31"})
    assert set(bad.context["form"].errors) == {"starts_on"}
    assert Season.objects.count() == 1


def test_the_season_forms_are_for_the_clubs_directors_only(client, club, season):
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    client.force_login(referee)
    assert client.get(f"/direct/{club.slug}/seasons/new/").status_code == 403
    assert client.get(f"/direct/{club.slug}/seasons/{season.pk}/series/new/").status_code == 403
    client.logout()
    assert client.get(f"/direct/{club.slug}/seasons/new/").status_code == 302


def test_the_big_screen_shows_the_series_of_the_evening(client, club, played_series):
    evening_one = played_series.tournaments.order_by("starts_on").first()
    page = client.get(f"/clubs/{club.slug}/{evening_one.slug}/screen/").content.decode()
    assert "slide-series" in page and "Thursday mêlée" in page


def test_the_series_pages_issue_a_bounded_number_of_queries(
    client, club, season, played_series, django_assert_max_num_queries
):
    for url in (
        f"/clubs/{club.slug}/series/{played_series.pk}/",
        f"/clubs/{club.slug}/series/{played_series.pk}/?table=handicap",
        f"/clubs/{club.slug}/series/{played_series.pk}/series.csv",
        f"/clubs/{club.slug}/seasons/",
        f"/clubs/{club.slug}/seasons/{season.pk}/",
        f"/api/v1/series/{played_series.pk}/standings/",
    ):
        with django_assert_max_num_queries(8):
            assert client.get(url).status_code == 200, url
