"""The schedule generator and a director's actions, through the services."""

from __future__ import annotations

import random

import pytest

from club.models import Membership
from tests.factories import (
    TeamFactory,
    TournamentFactory,
    UserFactory,
    make_staff,
)
from tournaments.errors import Conflict, NotAllowed, ScheduleLocked, ServiceError
from tournaments.models import Deal, Match, MatchEvent, MatchSeat, Round, Tournament
from tournaments.permissions import SYSTEM
from tournaments.scheduling import round_robin
from tournaments.services import (
    assign_referee,
    close_round,
    generate_round_robin,
    reopen_round,
    set_status,
    withdraw_team,
)

pytestmark = pytest.mark.django_db


def make_tournament(n_teams: int, **kwargs):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(**kwargs)
    for seed in range(1, n_teams + 1):
        TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
    return tournament


def schedule_text(tournament: Tournament) -> list[list[str]]:
    """Each round as 'seed-seed' (NS first) in table order, byes last, as scheduling prints."""
    rounds = []
    for round in tournament.rounds.order_by("number"):
        matches = sorted(
            round.matches.select_related("ns_team", "ew_team"),
            key=lambda m: (m.table is None, m.table or 0),
        )
        rounds.append(
            [
                f"{m.ns_team.seed}-bye"
                if m.ew_team is None
                else f"{m.ns_team.seed}-{m.ew_team.seed}"
                for m in matches
            ]
        )
    return rounds


class TestGenerateRoundRobin:
    @pytest.mark.parametrize("n", [2, 5, 8])
    def test_it_creates_the_berger_rounds_with_pairing_numbers_following_the_seeds(self, n):
        tournament = make_tournament(n)
        rounds = generate_round_robin(tournament, by=SYSTEM)
        expected = [[str(p) for p in matches] for matches in round_robin(n)]
        assert len(rounds) == len(expected)
        assert schedule_text(tournament) == expected

    def test_a_double_round_robin_has_twice_the_rounds(self):
        tournament = make_tournament(4, format=Tournament.Format.DOUBLE_ROUND_ROBIN)
        generate_round_robin(tournament, by=SYSTEM)
        assert schedule_text(tournament) == [
            [str(p) for p in matches] for matches in round_robin(4, double=True)
        ]

    def test_a_bye_has_no_table_and_every_match_north_deals_first(self):
        tournament = make_tournament(5)
        generate_round_robin(tournament, by=SYSTEM)
        byes = Match.objects.filter(tournament=tournament, ew_team__isnull=True)
        assert byes.count() == 5
        assert set(byes.values_list("table", flat=True)) == {None}
        for round in tournament.rounds.all():
            tables = sorted(round.matches.exclude(table=None).values_list("table", flat=True))
            assert tables == [1, 2]
        assert set(Match.objects.values_list("first_dealer", flat=True)) == {"N"}

    def test_it_creates_the_seats_that_keep_a_team_once_a_round(self):
        tournament = make_tournament(5)
        generate_round_robin(tournament, by=SYSTEM)
        assert MatchSeat.objects.filter(round__tournament=tournament).count() == 5 * 5
        for match in Match.objects.filter(tournament=tournament):
            assert {(s.side, s.team_id) for s in match.seats.all()} == {
                (side, team)
                for side, team in (("NS", match.ns_team_id), ("EW", match.ew_team_id))
                if team is not None
            }

    def test_drawing_lots_with_a_seeded_generator_is_reproducible(self):
        first = make_tournament(8)
        generate_round_robin(first, draw_lots=True, rng=random.Random(7), by=SYSTEM)
        drawn = schedule_text(first)
        generate_round_robin(first, draw_lots=True, rng=random.Random(7), by=SYSTEM)
        assert schedule_text(first) == drawn
        assert drawn != [[str(p) for p in matches] for matches in round_robin(8)]

    def test_it_can_be_regenerated_while_no_deal_has_been_entered(self):
        tournament = make_tournament(4)
        generate_round_robin(tournament, by=SYSTEM)
        generate_round_robin(tournament, by=SYSTEM)
        assert tournament.rounds.count() == 3
        assert Match.objects.filter(tournament=tournament).count() == 6

    def test_it_refuses_to_regenerate_once_a_deal_is_entered(self):
        tournament = make_tournament(4)
        generate_round_robin(tournament, by=SYSTEM)
        match = Match.objects.filter(tournament=tournament).first()
        Deal.objects.create(match=match, number=1, entry={"taker": "N", "trump": "H"})
        with pytest.raises(ScheduleLocked) as refused:
            generate_round_robin(tournament, by=SYSTEM)
        assert refused.value.status == 409
        assert Deal.objects.filter(match=match).exists()

    def test_withdrawn_teams_are_left_out(self):
        tournament = make_tournament(5)
        tournament.teams.filter(seed=3).update(withdrawn=True)
        generate_round_robin(tournament, by=SYSTEM)
        assert tournament.rounds.count() == 3
        assert not Match.objects.filter(ns_team__seed=3).exists()
        assert not Match.objects.filter(ew_team__seed=3).exists()

    def test_it_needs_two_teams(self):
        tournament = make_tournament(1)
        with pytest.raises(ServiceError) as refused:
            generate_round_robin(tournament, by=SYSTEM)
        assert refused.value.field == "teams"

    def test_it_bumps_the_change_number_and_records_who_did_it(
        self, django_capture_on_commit_callbacks
    ):
        tournament = make_tournament(4)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        with django_capture_on_commit_callbacks() as callbacks:
            generate_round_robin(tournament, by=director)
        tournament.refresh_from_db()
        assert tournament.change_seq == 1
        assert len(callbacks) == 1
        assert MatchEvent.objects.get(tournament=tournament).by == director

    def test_a_referee_may_not_generate_the_schedule(self):
        tournament = make_tournament(4)
        referee = make_staff(tournament.club, Membership.Role.REFEREE)
        with pytest.raises(NotAllowed):
            generate_round_robin(tournament, by=referee)
        assert not Round.objects.filter(tournament=tournament).exists()


class TestWithdrawTeam:
    def test_the_remaining_matches_of_the_team_become_byes_for_its_opponents(self):
        tournament = make_tournament(4)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        generate_round_robin(tournament, by=SYSTEM)
        team = tournament.teams.get(seed=1)
        played = Match.objects.get(round__number=1, ns_team=team)  # 1-4
        Deal.objects.create(match=played, number=1, entry={})
        byes = withdraw_team(team, by=director)
        team.refresh_from_db()
        assert team.withdrawn and team.withdrawn_at is not None
        assert sorted(m.ns_team.seed for m in byes) == [2, 3]
        assert all(m.is_bye and m.table is None for m in byes)
        assert Match.objects.get(pk=played.pk).ew_team.seed == 4
        assert not MatchSeat.objects.filter(team=team).exclude(match=played).exists()
        assert MatchEvent.objects.filter(tournament=tournament, action="bye").count() == 2
        tournament.refresh_from_db()
        assert tournament.change_seq == 2

    def test_the_withdrawn_teams_own_bye_disappears(self):
        tournament = make_tournament(3)
        generate_round_robin(tournament, by=SYSTEM)
        team = tournament.teams.get(seed=1)
        withdraw_team(team, by=SYSTEM)
        assert not Match.objects.filter(ns_team=team).exists()
        assert not Match.objects.filter(ew_team=team).exists()
        # The two others now each have a bye in the rounds they met team 1, and still meet.
        assert Match.objects.filter(tournament=tournament, ew_team__isnull=True).count() == 4

    def test_a_team_cannot_withdraw_twice(self):
        tournament = make_tournament(4)
        team = tournament.teams.get(seed=2)
        withdraw_team(team, by=SYSTEM)
        with pytest.raises(Conflict):
            withdraw_team(team, by=SYSTEM)

    def test_a_referee_may_not_withdraw_a_team(self):
        tournament = make_tournament(4)
        referee = make_staff(tournament.club, Membership.Role.REFEREE)
        with pytest.raises(NotAllowed):
            withdraw_team(tournament.teams.first(), by=referee)


class TestRounds:
    def test_closing_a_round_closes_its_matches_and_reopening_reopens_them(self):
        tournament = make_tournament(4)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        generate_round_robin(tournament, by=SYSTEM)
        round = tournament.rounds.get(number=2)
        close_round(round, by=director, force=True)
        assert Round.objects.get(pk=round.pk).is_closed
        assert set(round.matches.values_list("is_closed", flat=True)) == {True}
        assert not Match.objects.filter(round__number=1, is_closed=True).exists()
        reopen_round(round, by=director)
        assert not Round.objects.get(pk=round.pk).is_closed
        assert set(round.matches.values_list("is_closed", flat=True)) == {False}
        actions = list(MatchEvent.objects.values_list("action", flat=True))
        assert actions[-2:] == ["close_round", "reopen_round"]

    def test_an_anonymous_user_may_not_close_a_round(self):
        from django.contrib.auth.models import AnonymousUser

        tournament = make_tournament(2)
        generate_round_robin(tournament, by=SYSTEM)
        with pytest.raises(NotAllowed):
            close_round(tournament.rounds.first(), by=AnonymousUser(), force=True)


class TestAssignReferee:
    def test_a_referee_of_the_club_can_be_assigned_then_removed(self):
        tournament = make_tournament(4)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        referee = make_staff(tournament.club, Membership.Role.REFEREE)
        generate_round_robin(tournament, by=SYSTEM)
        match = Match.objects.filter(tournament=tournament).first()
        assign_referee(match, referee, by=director)
        assert Match.objects.get(pk=match.pk).referee == referee
        assign_referee(match, None, by=director)
        assert Match.objects.get(pk=match.pk).referee is None

    def test_a_director_can_referee_a_table(self):
        tournament = make_tournament(2)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        generate_round_robin(tournament, by=SYSTEM)
        match = Match.objects.get(tournament=tournament)
        assign_referee(match, director, by=director)
        assert Match.objects.get(pk=match.pk).referee == director

    @pytest.mark.parametrize("who", ["member", "other club referee", "no player"])
    def test_it_refuses_someone_who_is_not_a_referee_of_the_club(self, who):
        tournament = make_tournament(2)
        generate_round_robin(tournament, by=SYSTEM)
        match = Match.objects.get(tournament=tournament)
        if who == "member":
            user = make_staff(tournament.club, Membership.Role.MEMBER)
        elif who == "other club referee":
            user = make_staff(TournamentFactory().club, Membership.Role.REFEREE)
        else:
            user = UserFactory()
        with pytest.raises(ServiceError) as refused:
            assign_referee(match, user, by=SYSTEM)
        assert refused.value.field == "referee"
        assert Match.objects.get(pk=match.pk).referee is None

    def test_a_bye_gets_no_referee(self):
        tournament = make_tournament(3)
        referee = make_staff(tournament.club, Membership.Role.REFEREE)
        generate_round_robin(tournament, by=SYSTEM)
        bye = Match.objects.filter(tournament=tournament, ew_team=None).first()
        with pytest.raises(ServiceError) as refused:
            assign_referee(bye, referee, by=SYSTEM)
        assert refused.value.field == "referee"


class TestSetStatus:
    def test_a_director_moves_the_tournament_along(self):
        tournament = make_tournament(2, status=Tournament.Status.DRAFT)
        director = make_staff(tournament.club, Membership.Role.DIRECTOR)
        for status in ("open", "running", "finished"):
            set_status(tournament, status, by=director)
            assert Tournament.objects.get(pk=tournament.pk).status == status

    def test_an_unknown_status_is_refused_on_its_field(self):
        tournament = make_tournament(2)
        with pytest.raises(ServiceError) as refused:
            set_status(tournament, "postponed", by=SYSTEM)
        assert refused.value.field == "status"

    def test_a_director_of_another_club_may_not(self):
        tournament = make_tournament(2)
        other = make_staff(TournamentFactory().club, Membership.Role.DIRECTOR)
        with pytest.raises(NotAllowed):
            set_status(tournament, "finished", by=other)
