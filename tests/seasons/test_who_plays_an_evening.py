"""Who played an evening, as a series reads it: an entry that never sat at a table (a team
marked absent at check-in, never drawn) has no place in the evening and no evening in any
series (docs/seasons.md: players with no evening in the series are not listed), and the
other players' evenings, ranks and `needs` are what they would be had it never registered."""

from __future__ import annotations

import datetime

import pytest

from club.models import Membership
from entries.services.check_in import check_in
from seasons.models import SeriesLine
from seasons.services import recompute_series, save_season, save_series
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Match, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
PLACES = [10, 8, 6, 4, 2]


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


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


@pytest.fixture
def pairs():  # type: ignore[no-untyped-def]
    """Four pairs who come every Thursday, and a fifth who registered once and stayed home."""
    return [
        (PlayerFactory(first_name=f"North{n}"), PlayerFactory(first_name=f"South{n}"))
        for n in range(1, 6)
    ]


def thursday(club, director, day, pairs, *, absent=(), capture):  # type: ignore[no-untyped-def]
    """A Swiss evening of one round of one deal a table with check-in: the pairs of `absent`
    (indexes) are marked absent at the door, the others present; every table deals once."""
    tournament = TournamentFactory(
        club=club,
        starts_on=day,
        format=Tournament.Format.SWISS,
        round_count=1,
        check_in=Tournament.CheckIn.ON,
        rules={"target": None, "max_deals": 1},
        draw_seed=7,
    )
    for seed, (first, second) in enumerate(pairs, 1):
        team = TeamFactory(
            tournament=tournament, seed=seed, first_player=first, second_player=second
        )
        check_in(team, by=director, present=(seed - 1) not in absent)
    with capture(execute=True):
        round_ = draw_next_round(tournament, by=director)
    for match in Match.objects.filter(round=round_, ew_team__isnull=False).order_by("table"):
        with capture(execute=True):
            enter_deal(match, MADE, by=director)
    return tournament


def table_of(series):  # type: ignore[no-untyped-def]
    """Each listed player's evenings played, rank, total and needs."""
    return {
        line.player_id: (line.played, line.rank, line.total, line.needs)
        for line in SeriesLine.objects.filter(series=series)
    }


def test_a_team_absent_at_check_in_scores_nothing_and_changes_no_one_elses_table(
    club, director, season, pairs, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    first = thursday(club, director, datetime.date(2026, 9, 3), pairs[:4], capture=capture)
    # The fifth pair registered for the second Thursday and was marked absent at the door.
    second = thursday(
        club, director, datetime.date(2026, 9, 10), pairs, absent={4}, capture=capture
    )
    rules = {"points": "place", "place_points": PLACES, "min_evenings": 2}
    with capture(execute=True):
        series = save_series(
            season=season, name="Thursday", rules=rules, tournaments=[first, second], by=director
        )

    absent_players = {player.pk for player in pairs[4]}
    lines = table_of(series)
    assert absent_players.isdisjoint(lines)
    # Everyone listed played both Thursdays: ranked under `min_evenings` 2, none at 1.
    assert len(lines) == 8
    assert {played for played, _rank, _total, _needs in lines.values()} == {2}
    assert all(rank is not None for _played, rank, _total, _needs in lines.values())

    # Had the fifth pair never registered, the table would be the very same.
    with capture(execute=True):
        second.teams.get(seed=5).delete()
    recompute_series(series.pk, force=True)
    assert table_of(series) == lines
    by_pair = [lines[first_player.pk][1:3] for first_player, _second in pairs[:4]]
    # Pairs 1 and 4 won both Thursdays (10 + 10), pairs 2 and 3 lost both (6 + 6: third
    # place each time, though the standings list the absent pair among them).
    assert by_pair == [(1, 20), (5, 12), (5, 12), (1, 20)]
