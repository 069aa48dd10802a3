"""Substitutes, withdrawal and reinstatement, manual draw edits and calls to the director,
through the services (docs/director.md)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from club.models import Membership, Rating
from entries.services.check_in import check_in
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    TeamFactory,
    make_staff,
)
from tournaments import selectors
from tournaments.errors import Conflict, NotAllowed, ServiceError
from tournaments.models import (
    SEATS_PREFETCH,
    DirectorCall,
    Match,
    MatchEvent,
    MatchSeat,
    SitOut,
    Substitution,
    Team,
    Tournament,
)
from tournaments.services import generate_round_robin, withdraw_team
from tournaments.services.calls import answer_call, call_director
from tournaments.services.deals import enter_deal
from tournaments.services.draw_edits import swap_sides, swap_teams
from tournaments.services.draws import draw_next_round
from tournaments.services.entrants import register_entrants, reinstate_entrant, withdraw_entrant
from tournaments.services.lineup import substitute
from tournaments.services.ratings import recompute_ratings
from tournaments.services.settings import create_tournament
from tournaments.services.status import publish_tournament
from tournaments.services.table_referees import assign_referee
from tournaments.services.withdrawals import reinstate_team

pytestmark = pytest.mark.django_db

ONE_DEAL = {"target": None, "max_deals": 1}
NS_TAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory()


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def teams_tournament(club, director, n: int = 4, **settings: Any) -> Tournament:  # type: ignore[no-untyped-def]
    values = {
        "name": "Evening",
        "starts_on": datetime.date(2027, 1, 9),
        "rules": ONE_DEAL,
        "draw_seed": 7,
        **settings,
    }
    tournament = create_tournament(club, by=director, **values)
    for seed in range(1, n + 1):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    return tournament


def member(club):  # type: ignore[no-untyped-def]
    return MembershipFactory(club=club).player


def match_of(team: Team, number: int) -> Match:
    return (
        Match.objects.filter(round__number=number, seats__team=team)
        .select_related("ns_team__first_player", "ns_team__second_player", "ew_team__first_player")
        .prefetch_related(SEATS_PREFETCH)
        .get()
    )


def play(match: Match, director: Any) -> None:
    enter_deal(
        Match.objects.select_related("tournament", "round").get(pk=match.pk), NS_TAKES, by=director
    )


class TestSubstitutes:
    def test_a_substitute_sits_from_the_round_on_and_the_team_keeps_its_results(
        self, club, director
    ):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        publish_tournament(tournament, by=director)  # a draft counts in no rating
        team = tournament.teams.get(seed=1)
        out, into = team.first_player, member(club)
        play(match_of(team, 1), director)

        substitute(team, out=out, into=into, from_round=2, by=director)

        assert {p.pk for p in match_of(team, 1).line_up(match_of(team, 1).side_of(team))} == {
            out.pk,
            team.second_player_id,
        }
        for number in (2, 3):
            match = match_of(team, number)
            assert [p.pk for p in match.line_up(match.side_of(team))] == [
                into.pk,
                team.second_player_id,
            ]
        team.refresh_from_db()
        assert team.first_player_id == out.pk  # registered as it was
        assert MatchEvent.objects.filter(tournament=tournament, action="substitute").count() == 1

    def test_the_sheet_the_players_page_and_the_ratings_follow_who_sat(self, club, director):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        publish_tournament(tournament, by=director)  # a draft counts in no rating
        team = tournament.teams.get(seed=1)
        out, into = team.first_player, member(club)
        play(match_of(team, 1), director)
        substitute(team, out=out, into=into, from_round=2, by=director)
        play(match_of(team, 2), director)

        seats = dict(match_of(team, 2).seated_players())
        assert into in seats.values() and out not in seats.values()
        (row,) = selectors.player_teams(into)
        assert [r["match"].round.number for r in row["rows"]] == [2, 3]
        (row,) = selectors.player_teams(out)
        assert [r["match"].round.number for r in row["rows"]] == [1]
        recompute_ratings(club.pk)
        rated = set(Rating.objects.filter(club=club).values_list("player_id", flat=True))
        assert into.pk in rated and out.pk in rated

    def test_a_round_drawn_later_seats_the_substitute(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_1 = draw_next_round(tournament, by=director)
        team = tournament.teams.get(seed=2)
        into = member(club)
        substitute(team, out=team.second_player, into=into, from_round=2, by=director)
        for match in round_1.matches.all():
            play(match, director)
        draw_next_round(tournament, by=director)
        match = match_of(team, 2)
        assert into in match.line_up(match.side_of(team))

    @pytest.mark.parametrize(
        ("case", "field"),
        [
            ("plays", "in"),
            ("not_in_team", "out"),
            ("finished", "from_round"),
            ("no_round", "from_round"),
        ],
    )
    def test_bad_substitutions_name_the_field_and_store_nothing(self, club, director, case, field):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        team, other = tournament.teams.get(seed=1), tournament.teams.get(seed=2)
        out, into, from_round = team.first_player, member(club), 2
        if case == "plays":
            into = other.first_player
        elif case == "not_in_team":
            out = other.first_player
        elif case == "finished":
            play(match_of(team, 1), director)
            from_round = 1
        else:
            from_round = 9
        with pytest.raises(ServiceError) as refused:
            substitute(team, out=out, into=into, from_round=from_round, by=director)
        assert refused.value.field == field
        assert not Substitution.objects.exists()
        if case == "finished":
            assert refused.value.code == "round_finished"
            assert refused.value.status == 409

    def test_a_player_of_a_team_that_was_not_drawn_is_told_to_withdraw_that_team_first(
        self, club, director
    ):
        # A Swiss with check-in: team 5 did not come, so round 1 was drawn without it; its
        # player who did come is still that team's, not "playing in round 1".
        tournament = teams_tournament(
            club, director, n=5, format=Tournament.Format.SWISS, round_count=3, check_in="on"
        )
        for team in tournament.teams.exclude(seed=5):
            check_in(team, by=director, present=True)
        draw_next_round(tournament, by=director)
        team, absent = tournament.teams.get(seed=1), tournament.teams.get(seed=5)
        with pytest.raises(ServiceError) as refused:
            substitute(
                team, out=team.first_player, into=absent.first_player, from_round=1, by=director
            )
        assert refused.value.field == "in"
        assert "withdraw that team first" in refused.value.message
        withdraw_team(absent, by=director)
        substitute(team, out=team.first_player, into=absent.first_player, from_round=1, by=director)

    def test_only_a_director_substitutes(self, club, director):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        team = tournament.teams.get(seed=1)
        referee = make_staff(club, Membership.Role.REFEREE, "ref")
        with pytest.raises(NotAllowed):
            substitute(team, out=team.first_player, into=member(club), from_round=1, by=referee)

    def test_a_withdrawn_melee_player_is_replaced_in_the_round_drawn(self, club, director):
        tournament = create_tournament(
            club,
            by=director,
            name="Mêlée",
            starts_on=datetime.date(2027, 1, 9),
            format=Tournament.Format.INDIVIDUAL,
            round_count=3,
            rules=ONE_DEAL,
        )
        register_entrants(
            tournament,
            "\n".join(f"{n} Martin" for n in ["Anne", "Bea", "Cleo", "Dana", "Emma"]),
            by=director,
        )
        round_ = draw_next_round(tournament, by=director)
        (sitting,) = SitOut.objects.filter(round=round_)
        partnership = Team.objects.filter(round=round_).first()
        assert partnership is not None
        leaving = partnership.first_player
        withdraw_entrant(tournament.entrants.get(player=leaving), by=director)

        substitute(partnership, out=leaving, into=sitting.entrant.player, from_round=1, by=director)

        partnership.refresh_from_db()
        assert partnership.first_player == sitting.entrant.player
        assert str(sitting.entrant.player) in partnership.name
        assert not SitOut.objects.filter(round=round_).exists()
        match = match_of(partnership, 1)
        assert sitting.entrant.player in dict(match.seated_players()).values()


class TestWithdrawAndReinstate:
    def test_reinstating_undoes_the_byes_of_the_withdrawal(self, club, director):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        team = tournament.teams.get(seed=1)
        before = sorted(
            Match.objects.filter(tournament=tournament).values_list(
                "round__number", "table", "ns_team", "ew_team"
            )
        )
        withdraw_team(team, by=director)
        assert Match.objects.filter(tournament=tournament, ew_team__isnull=True).count() == 3

        reinstate_team(team, by=director)

        team.refresh_from_db()
        assert not team.withdrawn
        after = sorted(
            Match.objects.filter(tournament=tournament).values_list(
                "round__number", "table", "ns_team", "ew_team"
            )
        )
        assert after == before
        assert MatchEvent.objects.filter(action="reinstate").count() == 1

    def test_a_team_is_not_reinstated_once_the_next_round_is_drawn(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_1 = draw_next_round(tournament, by=director)
        for match in round_1.matches.all():
            play(match, director)
        team = tournament.teams.get(seed=1)
        withdraw_team(team, by=director)
        draw_next_round(tournament, by=director)
        with pytest.raises(Conflict) as refused:
            reinstate_team(team, by=director)
        assert refused.value.status == 409
        assert refused.value.code == "next_round_drawn"
        team.refresh_from_db()
        assert team.withdrawn

    def test_a_melee_player_is_reinstated_until_the_next_draw(self, club, director):
        tournament = create_tournament(
            club,
            by=director,
            name="Mêlée",
            starts_on=datetime.date(2027, 1, 9),
            format=Tournament.Format.INDIVIDUAL,
            round_count=3,
            rules=ONE_DEAL,
        )
        register_entrants(
            tournament,
            "\n".join(f"{n} Martin" for n in ["Anne", "Bea", "Cleo", "Dana", "Emma"]),
            by=director,
        )
        entrant = tournament.entrants.first()
        withdraw_entrant(entrant, by=director)
        reinstate_entrant(entrant, by=director)
        entrant.refresh_from_db()
        assert not entrant.withdrawn
        withdraw_entrant(entrant, by=director)
        draw_next_round(tournament, by=director)
        with pytest.raises(Conflict):
            reinstate_entrant(entrant, by=director)


class TestDrawEdits:
    def test_two_teams_swap_tables_and_the_edit_is_audited(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_ = draw_next_round(tournament, by=director)
        first, second = round_.matches.order_by("table")
        a, b = first.ns_team, second.ew_team

        edit = swap_teams(round_, a=a.pk, b=b.pk, by=director)

        first.refresh_from_db()
        second.refresh_from_db()
        assert first.ns_team == b and second.ew_team == a
        assert edit.warnings == []
        assert MatchEvent.objects.filter(action="swap").count() == 1
        assert MatchSeat.objects.filter(round=round_).count() == 4

    def test_the_edit_says_what_it_breaks(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_1 = draw_next_round(tournament, by=director)
        for match in round_1.matches.all():
            play(match, director)
        round_2 = draw_next_round(tournament, by=director)
        winners = {m.ns_team_id for m in round_1.matches.all()}
        first_round_pairs = {(m.ns_team_id, m.ew_team_id) for m in round_1.matches.all()}
        match = round_2.matches.order_by("table").first()
        # Swap one team of table 1 for the team it met in round 1 (a loser: a score gap too).
        met = next(
            (ew if ns == match.ns_team_id else ns)
            for ns, ew in first_round_pairs
            if match.ns_team_id in (ns, ew)
        )
        edit = swap_teams(round_2, a=match.ew_team_id, b=met, by=director)
        assert "repeat_opponents" in edit.warnings
        assert ("score_gap" in edit.warnings) == (match.ns_team_id in winners)

    def test_the_sides_of_a_table_swap(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_ = draw_next_round(tournament, by=director)
        match = round_.matches.order_by("table").first()
        ns, ew = match.ns_team, match.ew_team
        swap_sides(match, by=director)
        match.refresh_from_db()
        assert (match.ns_team, match.ew_team) == (ew, ns)
        assert set(match.seats.values_list("side", "team")) == {("NS", ew.pk), ("EW", ns.pk)}

    def test_a_round_with_a_deal_is_not_edited(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_ = draw_next_round(tournament, by=director)
        first, second = round_.matches.order_by("table")
        play(first, director)
        with pytest.raises(Conflict) as refused:
            swap_teams(round_, a=first.ns_team_id, b=second.ns_team_id, by=director)
        assert refused.value.code == "round_started"
        second.refresh_from_db()
        assert second.ns_team_id != first.ns_team_id
        assert not MatchEvent.objects.filter(action="swap").exists()

    def test_a_team_not_in_the_round_is_named(self, club, director):
        tournament = teams_tournament(club, director, format=Tournament.Format.SWISS, round_count=3)
        round_ = draw_next_round(tournament, by=director)
        first = round_.matches.first()
        with pytest.raises(ServiceError) as refused:
            swap_teams(round_, a=first.ns_team_id, b=999999, by=director)
        assert refused.value.field == "b"

    def test_two_melee_players_swap_and_a_sit_out_takes_a_seat(self, club, director):
        tournament = create_tournament(
            club,
            by=director,
            name="Mêlée",
            starts_on=datetime.date(2027, 1, 9),
            format=Tournament.Format.INDIVIDUAL,
            round_count=3,
            rules=ONE_DEAL,
        )
        register_entrants(
            tournament,
            "\n".join(f"{n} Martin" for n in ["Anne", "Bea", "Cleo", "Dana", "Emma"]),
            by=director,
        )
        round_ = draw_next_round(tournament, by=director)
        (sitting,) = SitOut.objects.filter(round=round_)
        seated = Team.objects.filter(round=round_).first()
        assert seated is not None
        player = seated.second_player
        swap_teams(round_, a=player.pk, b=sitting.entrant.player_id, by=director)
        seated.refresh_from_db()
        assert seated.second_player_id == sitting.entrant.player_id
        assert SitOut.objects.get(round=round_).entrant.player == player


class TestCalls:
    def test_the_referee_calls_and_a_director_answers(self, club, director):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        publish_tournament(tournament, by=director)  # a draft is its directors' alone
        referee = make_staff(club, Membership.Role.REFEREE, "ref")
        match = Match.objects.filter(tournament=tournament, ew_team__isnull=False).first()
        assign_referee(match, referee, by=director)
        match = Match.objects.select_related("tournament").get(pk=match.pk)

        call = call_director(match, reason="  a dispute   on deal 3 ", by=referee)

        assert call.reason == "a dispute on deal 3"
        assert list(selectors.open_calls(tournament)) == [call]
        with pytest.raises(Conflict):
            call_director(match, by=referee)
        answer_call(call, by=director)
        assert list(selectors.open_calls(tournament)) == []
        with pytest.raises(Conflict):
            answer_call(call, by=director)

    def test_only_the_tables_referee_or_a_director_calls(self, club, director):
        tournament = teams_tournament(club, director)
        generate_round_robin(tournament, by=director)
        match = (
            Match.objects.select_related("tournament")
            .filter(tournament=tournament, ew_team__isnull=False)
            .first()
        )
        other = make_staff(club, Membership.Role.REFEREE, "other")
        with pytest.raises(NotAllowed):
            call_director(match, by=other)
        with pytest.raises(ServiceError) as refused:
            call_director(match, reason="x" * 201, by=director)
        assert refused.value.field == "reason"
        assert not DirectorCall.objects.exists()
        call = call_director(match, by=director)
        with pytest.raises(NotAllowed):
            answer_call(call, by=other)
