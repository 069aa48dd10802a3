"""The API of the evening's changes: substitutes, reinstatement, draw edits, calls to the
director; each with a director, a referee, another club's director and an anonymous caller."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from club.models import Membership
from tests.api.conftest import MADE, client_for
from tests.factories import ClubFactory, MembershipFactory, TeamFactory, make_staff
from tournaments.models import DirectorCall, Match, MatchEvent, Substitution, Tournament
from tournaments.services import generate_round_robin, withdraw_team
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round
from tournaments.services.settings import create_tournament
from tournaments.services.table_referees import assign_referee

pytestmark = pytest.mark.django_db


@pytest.fixture
def outsider():  # type: ignore[no-untyped-def]
    """A director of another club."""
    return make_staff(ClubFactory(), Membership.Role.DIRECTOR, "outsider")


def evening(club, director, **settings: Any) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        starts_on=datetime.date(2027, 1, 14),
        rules={"target": None, "max_deals": 1},
        **settings,
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


@pytest.fixture
def round_robin(club, director):  # type: ignore[no-untyped-def]
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    return tournament


@pytest.fixture
def swiss(club, director):  # type: ignore[no-untyped-def]
    tournament = evening(club, director, format=Tournament.Format.SWISS, round_count=3)
    draw_next_round(tournament, by=director)
    return tournament


def first_match(tournament: Tournament, number: int = 1) -> Match:
    return (
        Match.objects.filter(tournament=tournament, round__number=number, ew_team__isnull=False)
        .select_related("tournament", "round")
        .order_by("table")
        .first()
    )


class TestSubstitutes:
    def url(self, team: Any) -> str:
        return f"/api/v1/teams/{team.pk}/substitutes/"

    def test_a_director_substitutes_from_a_round_on(self, round_robin, director, club):
        team = round_robin.teams.get(seed=1)
        into = MembershipFactory(club=club).player
        body = {"out": team.first_player_id, "in": into.pk, "from_round": 2}
        answer = client_for(director).post(self.url(team), body, format="json")
        assert answer.status_code == 201, answer.json()
        data = answer.json()
        assert data["out"]["id"] == team.first_player_id
        assert data["in"]["id"] == into.pk
        assert data["from_round"] == 2
        match = Match.objects.filter(round__number=2, seats__team=team).get()
        seated = client_for(director).get(f"/api/v1/matches/{match.pk}/").json()["players"]
        assert into.pk in [s["player"]["id"] for s in seated]
        listed = client_for(None).get(self.url(team)).json()
        assert [s["in"]["id"] for s in listed] == [into.pk]

    def test_after_final_a_substitute_is_409_results_final(self, round_robin, director, club):
        """Issue 41 item 5: who sat at the table moves the ratings, fixed with the results."""
        import datetime

        from django.utils import timezone

        Tournament.objects.filter(pk=round_robin.pk).update(
            status=Tournament.Status.FINISHED,
            finished_at=timezone.now() - datetime.timedelta(minutes=31),
        )
        team = round_robin.teams.get(seed=1)
        into = MembershipFactory(club=club).player
        body = {"out": team.first_player_id, "in": into.pk, "from_round": 2}
        answer = client_for(director).post(self.url(team), body, format="json")
        assert answer.status_code == 409 and answer.json()["code"] == "results_final"

    @pytest.mark.parametrize(
        ("change", "field", "status"),
        [
            ({"in": "plays"}, "in", 400),
            ({"out": "other"}, "out", 400),
            ({"in": 999999}, "in", 400),
            ({"from_round": 0}, "from_round", 400),
            ({"from_round": 1, "finish": True}, "from_round", 409),
            ({"in": None}, "in", 400),
        ],
    )
    def test_bad_input_names_the_field_and_stores_nothing(
        self, round_robin, director, club, change, field, status
    ):
        team, other = round_robin.teams.get(seed=1), round_robin.teams.get(seed=2)
        body: dict[str, Any] = {
            "out": team.first_player_id,
            "in": MembershipFactory(club=club).player.pk,
            "from_round": 2,
        }
        if change.get("in") == "plays":
            body["in"] = other.first_player_id
        elif change.get("out") == "other":
            body["out"] = other.first_player_id
        else:
            body.update({k: v for k, v in change.items() if k != "finish"})
        if change.get("finish"):
            match = (
                Match.objects.filter(round__number=1, seats__team=team)
                .select_related("tournament", "round")
                .get()
            )
            enter_deal(match, MADE, by=director)
        answer = client_for(director).post(self.url(team), body, format="json")
        assert answer.status_code == status, answer.json()
        assert field in answer.json()["errors"]
        assert not Substitution.objects.exists()

    @pytest.mark.parametrize("who", ["referee", "outsider", "anonymous"])
    def test_only_a_director_of_the_club_substitutes(
        self, round_robin, club, who, referee, outsider
    ):
        user = {"referee": referee, "outsider": outsider, "anonymous": None}[who]
        team = round_robin.teams.get(seed=1)
        body = {
            "out": team.first_player_id,
            "in": MembershipFactory(club=club).player.pk,
            "from_round": 1,
        }
        answer = client_for(user).post(self.url(team), body, format="json")
        assert answer.status_code == {"referee": 403, "outsider": 403, "anonymous": 401}[who]
        assert not Substitution.objects.exists()


class TestReinstate:
    def test_a_director_reinstates_a_withdrawn_team(self, round_robin, director):
        team = round_robin.teams.get(seed=1)
        withdraw_team(team, by=director)
        answer = client_for(director).post(f"/api/v1/teams/{team.pk}/reinstate/")
        assert answer.status_code == 200
        assert answer.json()["withdrawn"] is False
        assert Match.objects.filter(tournament=round_robin, ew_team__isnull=True).count() == 0

    def test_after_the_next_draw_it_is_409(self, swiss, director):
        for match in Match.objects.filter(tournament=swiss).select_related("tournament", "round"):
            enter_deal(match, MADE, by=director)
        team = swiss.teams.get(seed=1)
        withdraw_team(team, by=director)
        draw_next_round(swiss, by=director)
        answer = client_for(director).post(f"/api/v1/teams/{team.pk}/reinstate/")
        assert answer.status_code == 409
        assert answer.json()["code"] == "next_round_drawn"

    def test_a_team_not_withdrawn_is_refused(self, round_robin, director, referee):
        team = round_robin.teams.get(seed=1)
        assert client_for(director).post(f"/api/v1/teams/{team.pk}/reinstate/").status_code == 409
        assert client_for(referee).post(f"/api/v1/teams/{team.pk}/reinstate/").status_code == 403


class TestSwap:
    def url(self, round_: Any) -> str:
        return f"/api/v1/rounds/{round_.pk}/swap/"

    def test_a_director_swaps_two_teams_and_reads_the_warnings(self, swiss, director):
        round_ = swiss.rounds.get()
        first, second = round_.matches.order_by("table")
        body = {"a": first.ns_team_id, "b": second.ns_team_id}
        answer = client_for(director).post(self.url(round_), body, format="json")
        assert answer.status_code == 200, answer.json()
        data = answer.json()
        assert data["id"] == round_.pk
        assert data["warnings"] == []
        tables = {m["table"]: m["ns_team"]["id"] for m in data["matches"]}
        assert tables[first.table] == second.ns_team_id
        assert MatchEvent.objects.filter(action="swap").count() == 1

    def test_the_sides_of_a_table(self, swiss, director):
        round_ = swiss.rounds.get()
        match = round_.matches.order_by("table").first()
        body = {"table": match.pk, "sides": True}
        answer = client_for(director).post(self.url(round_), body, format="json")
        assert answer.status_code == 200
        row = next(m for m in answer.json()["matches"] if m["id"] == match.pk)
        assert (row["ns_team"]["id"], row["ew_team"]["id"]) == (match.ew_team_id, match.ns_team_id)

    def test_a_repeat_is_a_warning(self, swiss, director):
        for match in Match.objects.filter(tournament=swiss).select_related("tournament", "round"):
            enter_deal(match, MADE, by=director)
        round_1 = swiss.rounds.get(number=1)
        round_2 = draw_next_round(swiss, by=director)
        met = {m.ns_team_id: m.ew_team_id for m in round_1.matches.all()}
        match = round_2.matches.order_by("table").first()
        body = {"a": match.ew_team_id, "b": met[match.ns_team_id]}
        answer = client_for(director).post(self.url(round_2), body, format="json")
        assert answer.status_code == 200
        # Round 2 pairs the winners of round 1: a loser brought in is also a score gap.
        assert answer.json()["warnings"] == ["repeat_opponents", "score_gap"]

    def test_once_the_round_has_a_deal_it_is_409_round_started(self, swiss, director):
        round_ = swiss.rounds.get()
        first, second = round_.matches.select_related("tournament", "round").order_by("table")
        enter_deal(first, MADE, by=director)
        body = {"a": first.ns_team_id, "b": second.ns_team_id}
        answer = client_for(director).post(self.url(round_), body, format="json")
        assert answer.status_code == 409
        assert answer.json()["code"] == "round_started"
        second.refresh_from_db()
        assert second.ns_team_id == body["b"]

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"a": 1}, "b"),
            ({}, "a"),
            ({"a": "x", "b": 2}, "a"),
            ({"sides": True}, "table"),
            ({"table": 999999, "sides": True}, "table"),
            ({"a": 999999, "b": "team"}, "a"),
        ],
    )
    def test_bad_input_names_the_field(self, swiss, director, body, field):
        round_ = swiss.rounds.get()
        if body.get("b") == "team":
            body = {**body, "b": round_.matches.first().ns_team_id}
        answer = client_for(director).post(self.url(round_), body, format="json")
        assert answer.status_code == 400, answer.json()
        assert field in answer.json()["errors"]
        assert not MatchEvent.objects.filter(action="swap").exists()

    @pytest.mark.parametrize("who", ["referee", "outsider", "anonymous"])
    def test_only_a_director_of_the_club_edits_a_draw(self, swiss, who, referee, outsider):
        user = {"referee": referee, "outsider": outsider, "anonymous": None}[who]
        round_ = swiss.rounds.get()
        first, second = round_.matches.order_by("table")
        body = {"a": first.ns_team_id, "b": second.ns_team_id}
        answer = client_for(user).post(self.url(round_), body, format="json")
        assert answer.status_code == {"referee": 403, "outsider": 403, "anonymous": 401}[who]
        assert not MatchEvent.objects.filter(action="swap").exists()


class TestCalls:
    @pytest.fixture
    def refereed(self, round_robin, director, referee):  # type: ignore[no-untyped-def]
        match = first_match(round_robin)
        assign_referee(match, referee, by=director)
        return match

    def test_the_referee_calls_and_the_director_answers(
        self, refereed, round_robin, referee, director
    ):
        answer = client_for(referee).post(
            f"/api/v1/matches/{refereed.pk}/calls/", {"reason": "a revoke"}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        call = answer.json()
        assert call["reason"] == "a revoke"
        assert call["answered"] is False
        assert call["table"] == refereed.table
        listed = client_for(director).get(f"/api/v1/tournaments/{round_robin.pk}/calls/").json()
        assert [c["id"] for c in listed] == [call["id"]]
        answered = client_for(director).post(f"/api/v1/calls/{call['id']}/answer/")
        assert answered.status_code == 200
        assert answered.json()["answered"] is True
        again = client_for(director).post(f"/api/v1/calls/{call['id']}/answer/")
        assert again.status_code == 409

    def test_a_call_without_a_reason(self, refereed, director):
        answer = client_for(director).post(
            f"/api/v1/matches/{refereed.pk}/calls/", {}, format="json"
        )
        assert answer.status_code == 201
        assert answer.json()["reason"] == ""

    @pytest.mark.parametrize("who", ["other", "outsider", "anonymous"])
    def test_only_the_tables_referee_or_a_director_calls(
        self, refereed, who, other_referee, outsider
    ):
        user = {"other": other_referee, "outsider": outsider, "anonymous": None}[who]
        answer = client_for(user).post(
            f"/api/v1/matches/{refereed.pk}/calls/", {"reason": "x"}, format="json"
        )
        assert answer.status_code == {"other": 403, "outsider": 403, "anonymous": 401}[who]
        assert not DirectorCall.objects.exists()

    def test_a_reason_too_long_is_named(self, refereed, referee):
        answer = client_for(referee).post(
            f"/api/v1/matches/{refereed.pk}/calls/", {"reason": "x" * 201}, format="json"
        )
        assert answer.status_code == 400
        assert "reason" in answer.json()["errors"]
        assert not DirectorCall.objects.exists()

    @pytest.mark.parametrize("who", ["referee", "outsider", "anonymous"])
    def test_only_directors_read_and_answer_the_calls(
        self, refereed, round_robin, director, who, referee, outsider
    ):
        call = (
            client_for(director)
            .post(f"/api/v1/matches/{refereed.pk}/calls/", {}, format="json")
            .json()
        )
        user = {"referee": referee, "outsider": outsider, "anonymous": None}[who]
        listed = client_for(user).get(f"/api/v1/tournaments/{round_robin.pk}/calls/")
        assert listed.status_code == {"referee": 403, "outsider": 403, "anonymous": 401}[who]
        answered = client_for(user).post(f"/api/v1/calls/{call['id']}/answer/")
        assert answered.status_code in (401, 404)
        assert not DirectorCall.objects.get().answered
