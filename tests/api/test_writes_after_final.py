"""Writes after final (issue 41 item 5): withdrawing and reinstating, moving the date,
confirming or disputing a sheet, closing or reopening a match or a round all succeeded once
the results were final (the date moved a tournament out of its season). Each now answers
409 `results_final` and changes nothing, for the club's own director too."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.factories import TeamFactory
from tournaments.models import Match, MatchConfirmation, Team, Tournament
from tournaments.services.deals import enter_deal

from .conftest import client_for

pytestmark = pytest.mark.django_db

NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_MAKES = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}


def finished_long_ago(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(minutes=31),
    )


@pytest.fixture
def finished(match, referee):
    match.tournament.rules = {"target": None, "max_deals": 2}
    match.tournament.save(update_fields=["rules"])
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    return match


def refused_as_final(answer) -> bool:  # type: ignore[no-untyped-def]
    return answer.status_code == 409 and answer.json()["code"] == "results_final"


def test_withdrawing_a_team_after_final_is_409_results_final(director_client, finished):
    finished_long_ago(finished.tournament)
    answer = director_client.post(f"/api/v1/teams/{finished.ns_team_id}/withdraw/")
    assert refused_as_final(answer), answer.json()
    assert not Team.objects.get(pk=finished.ns_team_id).withdrawn


def test_reinstating_a_team_after_final_is_409_results_final(director_client, finished):
    assert director_client.post(f"/api/v1/teams/{finished.ns_team_id}/withdraw/").status_code == 200
    finished_long_ago(finished.tournament)
    answer = director_client.post(f"/api/v1/teams/{finished.ns_team_id}/reinstate/")
    assert refused_as_final(answer), answer.json()
    assert Team.objects.get(pk=finished.ns_team_id).withdrawn


def test_moving_the_date_after_final_is_409_results_final(director_client, finished):
    tournament = finished.tournament
    finished_long_ago(tournament)
    answer = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"starts_on": "2027-03-01"}, format="json"
    )
    assert refused_as_final(answer), answer.json()
    assert "starts_on" in answer.json()["errors"]
    assert Tournament.objects.get(pk=tournament.pk).starts_on == tournament.starts_on


def test_renaming_after_final_is_still_allowed(director_client, finished):
    tournament = finished.tournament
    finished_long_ago(tournament)
    answer = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": "Coupe d'hiver 2026"}, format="json"
    )
    assert answer.status_code == 200, answer.json()


def test_confirming_or_disputing_a_sheet_after_final_is_409_results_final(
    referee, director_client, finished
):
    finished_long_ago(finished.tournament)
    url = f"/api/v1/matches/{finished.pk}/confirmations/"
    for client in (client_for(referee), director_client):
        for agree in (True, False):
            answer = client.post(url, {"team": "NS", "agree": agree}, format="json")
            assert refused_as_final(answer), answer.json()
    assert not MatchConfirmation.objects.filter(match=finished).exists()


def test_closing_or_reopening_a_match_or_round_after_final_is_409_results_final(
    director_client, finished, tournament
):
    open_match = Match.objects.create(
        round=finished.round,
        tournament=tournament,
        table=9,
        ns_team=TeamFactory(tournament=tournament),
        ew_team=TeamFactory(tournament=tournament),
    )
    Match.objects.filter(pk=finished.pk).update(is_closed=True)
    finished_long_ago(tournament)
    for url in (
        f"/api/v1/matches/{open_match.pk}/close/",
        f"/api/v1/matches/{finished.pk}/reopen/",
        f"/api/v1/rounds/{finished.round_id}/close/?force=true",
        f"/api/v1/rounds/{finished.round_id}/reopen/",
    ):
        assert refused_as_final(director_client.post(url)), url
    assert not Match.objects.get(pk=open_match.pk).is_closed
    assert Match.objects.get(pk=finished.pk).is_closed


def test_the_actions_say_a_round_cannot_close_after_final(director_client, finished, tournament):
    finished_long_ago(tournament)
    round_ = director_client.get(f"/api/v1/rounds/{finished.round_id}/").json()
    assert round_["actions"]["close"] == {
        "allowed": False,
        "code": "results_final",
        "reason": round_["actions"]["close"]["reason"],
    }
    listed = director_client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert listed["actions"]["close_round"]["code"] == "results_final"


def test_the_teams_page_offers_no_withdraw_after_final(client, director, finished):
    from django.urls import reverse

    tournament = finished.tournament
    client.force_login(director)
    url = reverse("tournaments:director_teams", args=[tournament.club.slug, tournament.slug])
    withdraw = reverse(
        "tournaments:director_withdraw",
        args=[tournament.club.slug, tournament.slug, finished.ns_team_id],
    )
    assert withdraw in client.get(url).content.decode()
    finished_long_ago(tournament)
    assert withdraw not in client.get(url).content.decode()
