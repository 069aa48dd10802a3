"""The series as the spec has it (docs/seasons.md): an evening provisional until its results
are final, the honour roll's winners only for a season that is over, and the points of a team
to whoever sat for it."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import Membership
from seasons.models import SeriesLine
from seasons.selectors import honour_roll, series_view
from seasons.services import recompute_series, save_season, save_series
from tests.factories import (
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
    seat_teams,
)
from tournaments.models import Standing, Tournament
from tournaments.services import generate_round_robin
from tournaments.services.lineup import substitute
from tournaments.services.settings import create_tournament
from tournaments.services.status import publish_tournament

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 2)


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return TournamentFactory().club


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def season(club, director):  # type: ignore[no-untyped-def]
    return save_season(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        by=director,
    )


def finished_evening(club, day, finished_at, *teams):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(
        club=club, starts_on=day, status=Tournament.Status.FINISHED, correction_minutes=30
    )
    Tournament.objects.filter(pk=tournament.pk).update(finished_at=finished_at)
    entries = []
    for first, second, rank, points in teams:
        team = TeamFactory(tournament=tournament, first_player=first, second_player=second)
        entries.append(team)
        Standing.objects.create(
            tournament=tournament, round_number=1, team=team, rank=rank, points_for=points
        )
    seat_teams(tournament, entries)
    return tournament


def series_of(season, director, *tournaments, **rules):  # type: ignore[no-untyped-def]
    rules.setdefault("points", "score")
    series = save_series(
        season=season, name="Thursday", rules=rules, tournaments=tournaments, by=director
    )
    recompute_series(series.pk, force=True)
    return series


# --- provisional until the results are final -----------------------------------------------


def test_a_finished_evening_stays_provisional_until_its_correction_window_is_over(
    client, club, season, director
):
    anne, bob, carl, dora = (PlayerFactory() for _ in range(4))
    just_now = timezone.now() - datetime.timedelta(minutes=5)
    evening = finished_evening(
        club, datetime.date(2026, 10, 1), just_now, (anne, bob, 1, 300), (carl, dora, 2, 200)
    )
    series = series_of(season, director, evening)

    view = series_view(series)
    assert [e.final for e in view.evenings] == [False]
    assert view.provisional
    page = client.get(f"/clubs/{club.slug}/series/{series.pk}/").content.decode()
    assert "Provisional" in page

    Tournament.objects.filter(pk=evening.pk).update(
        finished_at=timezone.now() - datetime.timedelta(minutes=31)
    )
    view = series_view(series)
    assert [e.final for e in view.evenings] == [True]
    assert not view.provisional
    page = client.get(f"/clubs/{club.slug}/series/{series.pk}/").content.decode()
    assert "Provisional" not in page


# --- the honour roll -----------------------------------------------------------------------


def test_the_honour_roll_names_winners_only_once_the_season_is_over(client, club, season, director):
    past = save_season(
        club=club,
        name="2025–26",
        starts_on=datetime.date(2025, 9, 1),
        ends_on=datetime.date(2026, 6, 30),
        by=director,
    )
    anne, bob, carl, dora = (
        PlayerFactory(first_name=f, last_name="Roux") for f in ("Anne", "Bob", "Carl", "Dora")
    )
    long_ago = timezone.now() - datetime.timedelta(days=200)
    last_year = finished_evening(
        club, datetime.date(2026, 3, 5), long_ago, (anne, bob, 1, 300), (carl, dora, 2, 200)
    )
    this_year = finished_evening(
        club, datetime.date(2026, 10, 1), long_ago, (carl, dora, 1, 300), (anne, bob, 2, 200)
    )
    series_of(past, director, last_year)
    series_of(season, director, this_year)

    roll = honour_roll(club, today=TODAY)
    assert [(entry.season.name, entry.over) for entry in roll] == [
        ("2026–27", False),
        ("2025–26", True),
    ]
    assert [line.player.first_name for line in roll[1].series[0][1]] == ["Anne", "Bob"]
    # The last day itself is still the season's: over from the day after.
    assert not honour_roll(club, today=datetime.date(2027, 6, 30))[0].over
    assert honour_roll(club, today=datetime.date(2027, 7, 1))[0].over

    home = client.get(f"/clubs/{club.slug}/").content.decode()
    roll_html = home[home.index("Honour roll") :]
    under_way = roll_html[: roll_html.index("2025–26")]
    assert "Under way" in under_way and "leaders so far" in under_way
    over = roll_html[roll_html.index("2025–26") :]
    assert "leaders so far" not in over and "<strong>Anne Roux</strong>" in over


# --- substitutes ---------------------------------------------------------------------------


def teams_evening(club, director, *, rounds_in_standings: int):  # type: ignore[no-untyped-def]
    """A published round robin of four teams (three rounds), its standings after
    `rounds_in_standings` rounds ranking team 1 first."""
    tournament = create_tournament(
        club,
        by=director,
        name="Evening",
        starts_on=datetime.date(2026, 11, 12),
        rules={"target": None, "max_deals": 1},
        draw_seed=7,
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    generate_round_robin(tournament, by=director)
    publish_tournament(tournament, by=director)
    return tournament


def stand(tournament, number):  # type: ignore[no-untyped-def]
    for team in tournament.teams.filter(round__isnull=True):
        Standing.objects.create(
            tournament=tournament,
            round_number=number,
            team=team,
            rank=team.seed,
            points_for=1000 - 100 * team.seed,
        )


def credited(series):  # type: ignore[no-untyped-def]
    return {
        line.player_id: line.total
        for line in SeriesLine.objects.filter(series=series)
        if any(cell[3] for cell in line.evenings)
    }


def test_every_player_who_sat_for_the_team_scores_its_evening(club, season, director):
    tournament = teams_evening(club, director, rounds_in_standings=3)
    team = tournament.teams.get(seed=1)
    out, keeps = team.first_player, team.second_player
    into = MembershipFactory(club=club).player
    substitute(team, out=out, into=into, from_round=2, by=director)
    stand(tournament, 3)

    series = series_of(season, director, tournament)

    got = credited(series)
    assert got[into.pk] == got[out.pk] == got[keeps.pk] == 900


def test_a_player_replaced_from_the_first_round_scores_nothing(club, season, director):
    tournament = teams_evening(club, director, rounds_in_standings=3)
    team = tournament.teams.get(seed=1)
    out, keeps = team.first_player, team.second_player
    into = MembershipFactory(club=club).player
    substitute(team, out=out, into=into, from_round=1, by=director)
    stand(tournament, 3)

    series = series_of(season, director, tournament)

    got = credited(series)
    assert got[into.pk] == got[keeps.pk] == 900
    assert out.pk not in got


def test_a_substitute_for_a_round_not_in_the_standings_yet_scores_nothing_yet(
    club, season, director
):
    tournament = teams_evening(club, director, rounds_in_standings=1)
    team = tournament.teams.get(seed=1)
    out = team.first_player
    into = MembershipFactory(club=club).player
    substitute(team, out=out, into=into, from_round=2, by=director)
    stand(tournament, 1)

    series = series_of(season, director, tournament)

    got = credited(series)
    assert got[out.pk] == 900
    assert into.pk not in got
