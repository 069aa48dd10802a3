"""Who plays tonight: one owner (selectors.players) for every draw, the preview's "left out"
and the standings. An entry that never sat at a table is not a player of the evening."""

from __future__ import annotations

import datetime

import pytest

from club.models import Membership
from seasons.models import SeriesLine
from seasons.services.seasons import save_season, save_series
from seasons.services.tables import recompute_series
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Attendance, Entrant, Match, Standing, Team, Tournament
from tournaments.selectors.players import entries_in_play, entries_left_out
from tournaments.services.draws import draw_next_round
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def concours(club, n_teams=6):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(
        club=club, format=Tournament.Format.CONCOURS, round_count=2, check_in="on"
    )
    for seed in range(1, n_teams + 1):
        TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
    return tournament


def mark_attendance(team, *, present) -> None:  # type: ignore[no-untyped-def]
    """What the check-in stores (entries/ owns the action): present, absent or expected."""
    attendance = {True: Attendance.PRESENT, False: Attendance.ABSENT, None: Attendance.EXPECTED}
    Team.objects.filter(pk=team.pk).update(attendance=attendance[present])


def play(round_) -> None:  # type: ignore[no-untyped-def]
    """Every match of the round finished, north-south winning 300 to 200."""
    Match.objects.filter(round=round_).exclude(ew_team=None).update(
        status=Match.Status.FINISHED, ns_total=300, ew_total=200, winner="NS"
    )
    Match.objects.filter(round=round_, ew_team=None).update(status=Match.Status.FINISHED)


def standing_names(tournament) -> list[str]:  # type: ignore[no-untyped-def]
    recompute_standings(tournament.pk, force=True)
    latest = max(
        Standing.objects.filter(tournament=tournament).values_list("round_number", flat=True)
    )
    return list(
        Standing.objects.filter(tournament=tournament, round_number=latest)
        .order_by("rank", "team__seed")
        .values_list("team__name", flat=True)
    )


def test_a_team_absent_at_check_in_has_no_place_in_the_evenings_standings(club, director):
    tournament = concours(club)
    for team in tournament.teams.all():
        mark_attendance(team, present=team.seed != 6)
    for _ in range(2):
        play(draw_next_round(tournament, by=director))
    names = standing_names(tournament)
    assert len(names) == 5
    assert "Team 6" not in names


def test_a_withdrawn_team_that_played_keeps_its_place_in_the_standings(club, director):
    tournament = concours(club, n_teams=4)
    for team in tournament.teams.all():
        mark_attendance(team, present=True)
    play(draw_next_round(tournament, by=director))
    # Withdrawn after its round (withdraw_team would make a match without deals a bye).
    Team.objects.filter(tournament=tournament, seed=4).update(withdrawn=True)
    play(draw_next_round(tournament, by=director))
    names = standing_names(tournament)
    assert len(names) == 4
    assert names[-1] == "Team 4"


def test_the_draw_and_the_preview_read_the_same_owner(club):
    tournament = concours(club, n_teams=5)
    for team in tournament.teams.all():
        mark_attendance(team, present=None if team.seed == 5 else team.seed != 4)
    assert [t.seed for t in entries_in_play(tournament)] == [1, 2, 3]
    assert [(e.name, reason) for e, reason in entries_left_out(tournament)] == [
        ("Team 4", "absent"),
        ("Team 5", "not checked in"),
    ]


def test_without_check_in_every_entry_not_withdrawn_plays(club):
    tournament = TournamentFactory(club=club, format=Tournament.Format.INDIVIDUAL)
    for seed in range(1, 5):
        Entrant.objects.create(tournament=tournament, player=PlayerFactory(), seed=seed)
    assert [e.seed for e in entries_in_play(tournament)] == [1, 2, 3, 4]
    assert entries_left_out(tournament) == []


def test_a_no_show_scores_nothing_in_the_series_of_the_evening(club, director):
    season = save_season(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        by=director,
    )
    tournament = concours(club)
    series = save_series(
        season=season,
        name="Thursday",
        rules={"points": "place", "place_points": [25, 20, 16, 13, 11, 10]},
        tournaments=[tournament],
        by=director,
    )
    for team in tournament.teams.all():
        mark_attendance(team, present=team.seed != 6)
    for _ in range(2):
        play(draw_next_round(tournament, by=director))
    recompute_standings(tournament.pk, force=True)
    recompute_series(series.pk, force=True)
    no_show = tournament.teams.get(seed=6)
    lines = {line.player_id: line for line in SeriesLine.objects.filter(series=series)}
    assert len(lines) == 10
    assert no_show.first_player_id not in lines and no_show.second_player_id not in lines
    assert all(line.played == 1 for line in lines.values())
