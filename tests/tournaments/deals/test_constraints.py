"""Each invariant of the data model is refused by the database itself, not only by forms."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.factories import (
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
)
from tournaments.models import Deal, Match, MatchSeat, Team, Tournament

pytestmark = pytest.mark.django_db


def refused(create):  # type: ignore[no-untyped-def]
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


@pytest.fixture
def match():  # type: ignore[no-untyped-def]
    return MatchFactory(table=1)


def test_a_team_cannot_play_twice_in_a_round(match):
    other = TeamFactory(tournament=match.tournament)
    # Through the model: the seat rows Match.save keeps refuse it.
    refused(
        lambda: Match.objects.create(
            round=match.round,
            tournament=match.tournament,
            table=2,
            ns_team=match.ns_team,
            ew_team=other,
        )
    )
    # Through a bulk insert of the seat rows themselves.
    second = Match.objects.bulk_create(
        [Match(round=match.round, tournament=match.tournament, table=3, ns_team=other)]
    )[0]
    refused(
        lambda: MatchSeat.objects.bulk_create(
            [MatchSeat(match=second, round=match.round, team=match.ew_team, side="EW")]
        )
    )


def test_a_team_can_play_in_the_next_round(match):
    next_round = RoundFactory(tournament=match.tournament)
    Match.objects.create(
        round=next_round,
        tournament=match.tournament,
        table=1,
        ns_team=match.ew_team,
        ew_team=match.ns_team,
    )
    assert MatchSeat.objects.filter(team=match.ns_team).count() == 2


def test_a_table_number_is_used_once_in_a_round(match):
    a, b = TeamFactory(tournament=match.tournament), TeamFactory(tournament=match.tournament)
    refused(
        lambda: Match.objects.bulk_create(
            [Match(round=match.round, tournament=match.tournament, table=1, ns_team=a, ew_team=b)]
        )
    )


def test_several_byes_of_a_round_need_no_table(match):
    a, b = TeamFactory(tournament=match.tournament), TeamFactory(tournament=match.tournament)
    Match.objects.bulk_create(
        [
            Match(round=match.round, tournament=match.tournament, table=None, ns_team=a),
            Match(round=match.round, tournament=match.tournament, table=None, ns_team=b),
        ]
    )


def test_a_match_between_two_teams_needs_a_table(match):
    a, b = TeamFactory(tournament=match.tournament), TeamFactory(tournament=match.tournament)
    refused(
        lambda: Match.objects.bulk_create(
            [
                Match(
                    round=match.round, tournament=match.tournament, table=None, ns_team=a, ew_team=b
                )
            ]
        )
    )


def test_a_deal_number_is_used_once_in_a_match(match):
    Deal.objects.create(match=match, number=1, entry={})
    refused(lambda: Deal.objects.bulk_create([Deal(match=match, number=1, entry={})]))
    refused(lambda: Deal.objects.create(match=match, number=0, entry={}))


def test_a_team_cannot_meet_itself(match):
    team = TeamFactory(tournament=match.tournament)
    refused(
        lambda: Match.objects.bulk_create(
            [
                Match(
                    round=match.round,
                    tournament=match.tournament,
                    table=9,
                    ns_team=team,
                    ew_team=team,
                )
            ]
        )
    )
    refused(lambda: Match.objects.filter(pk=match.pk).update(ew_team=match.ns_team))


def test_a_team_needs_two_different_players():
    player = PlayerFactory()
    tournament = TournamentFactory()
    refused(
        lambda: Team.objects.create(
            tournament=tournament, name="Alone", first_player=player, second_player=player, seed=1
        )
    )


def test_team_names_and_seeds_are_unique_in_a_tournament():
    team = TeamFactory(seed=1, name="Les As")
    refused(lambda: TeamFactory(tournament=team.tournament, seed=1))
    refused(lambda: TeamFactory(tournament=team.tournament, name="Les As", seed=2))


@pytest.mark.parametrize(
    "win, draw, loss",
    [(1, 2, 0), (2, 0, 1), (0, 1, 2)],
)
def test_match_points_must_be_ordered_win_draw_loss(win, draw, loss):
    refused(lambda: TournamentFactory(points_win=win, points_draw=draw, points_loss=loss))


def test_match_points_may_be_equal():
    tournament = TournamentFactory(points_win=3, points_draw=3, points_loss=0)
    refused(lambda: Tournament.objects.filter(pk=tournament.pk).update(points_loss=4))


def test_a_director_can_delete_a_whole_tournament_with_its_schedule_and_deals():
    match = MatchFactory()
    tournament = match.tournament
    tournament.delete()
    assert not Match.objects.filter(pk=match.pk).exists()


def test_a_team_that_has_matches_cannot_be_deleted_on_its_own():
    from django.db.models import RestrictedError

    match = MatchFactory()
    with pytest.raises(RestrictedError):
        match.ns_team.delete()
