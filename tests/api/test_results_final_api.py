"""Final results through the API: the resource says `results` and `final_at`, takes
`correction_minutes`; referees (and directors) get 409 `results_final` on every deal write;
a director reopens with a reason (issue 28 item 6, issue 22 item 8)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tournaments.models import MatchEvent, Tournament

from .conftest import DEDANS, MADE, deals_url

pytestmark = pytest.mark.django_db


def finished_long_ago(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(minutes=31),
    )


def test_the_resource_says_provisional_until_final_at(director_client, tournament):
    body = director_client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert body["results"] == "provisional" and body["final_at"] is None
    assert body["correction_minutes"] == 30
    answered = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"correction_minutes": 45}, format="json"
    )
    assert answered.status_code == 200 and answered.json()["correction_minutes"] == 45
    finished = director_client.post(
        f"/api/v1/tournaments/{tournament.pk}/status/", {"status": "finished"}, format="json"
    ).json()
    assert finished["results"] == "provisional"
    tournament.refresh_from_db()
    assert datetime.datetime.fromisoformat(finished["final_at"]) == tournament.final_at


def test_a_bad_correction_window_is_refused_naming_the_field(director_client, tournament):
    for value in (-1, 10**6, "soon", None):
        refused = director_client.patch(
            f"/api/v1/tournaments/{tournament.pk}/", {"correction_minutes": value}, format="json"
        )
        assert refused.status_code == 400, value
        assert "correction_minutes" in refused.json()["errors"]


def test_after_the_window_every_deal_write_answers_409_results_final(
    referee_client, director_client, tournament, match
):
    assert referee_client.post(deals_url(match), MADE, format="json").status_code == 201
    finished_long_ago(tournament)
    assert referee_client.get(f"/api/v1/tournaments/{tournament.pk}/").json()["results"] == "final"
    for client in (referee_client, director_client):
        for answer in (
            client.post(deals_url(match), DEDANS, format="json"),
            client.put(deals_url(match, 1), DEDANS, format="json"),
            client.delete(deals_url(match, 1)),
        ):
            assert answer.status_code == 409
            assert answer.json()["code"] == "results_final"
    assert match.deals.count() == 1


def test_final_results_refuse_a_status_change_with_results_final(director_client, tournament):
    finished_long_ago(tournament)
    refused = director_client.post(
        f"/api/v1/tournaments/{tournament.pk}/status/", {"status": "running"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "results_final"
    assert "status" in refused.json()["errors"]


def test_a_director_reopens_with_a_reason(director_client, referee_client, tournament, match):
    finished_long_ago(tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/reopen/"
    assert referee_client.post(url, {"reason": "mine"}, format="json").status_code == 403
    missing = director_client.post(url, {}, format="json")
    assert missing.status_code == 400 and "reason" in missing.json()["errors"]
    hidden = director_client.post(url, {"reason": "wrong\u200bscore"}, format="json")
    assert hidden.status_code == 400 and "reason" in hidden.json()["errors"]
    reopened = director_client.post(url, {"reason": "Table 2 miscounted"}, format="json")
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["results"] == "provisional" and reopened.json()["status"] == "running"
    assert MatchEvent.objects.filter(action="reopen_results", detail="Table 2 miscounted").exists()
    assert referee_client.post(deals_url(match), MADE, format="json").status_code == 201
    again = director_client.post(url, {"reason": "again"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_finished"


def test_the_draw_seed_is_the_directors_until_the_last_round_is_drawn(
    director_client, anonymous_client, referee_client, club
):
    from tests.factories import RoundFactory, TournamentFactory

    swiss = TournamentFactory(club=club, format="swiss", round_count=2, draw_seed=4242)
    url = f"/api/v1/tournaments/{swiss.pk}/"
    assert director_client.get(url).json()["draw_seed"] == 4242
    for client in (anonymous_client, referee_client):
        assert client.get(url).json()["draw_seed"] is None
        listed = client.get("/api/v1/tournaments/").json()["results"]
        assert [row["draw_seed"] for row in listed if row["id"] == swiss.pk] == [None]
    RoundFactory(tournament=swiss, number=1)
    assert anonymous_client.get(url).json()["draw_seed"] is None
    RoundFactory(tournament=swiss, number=2)
    assert anonymous_client.get(url).json()["draw_seed"] == 4242
    listed = anonymous_client.get("/api/v1/tournaments/").json()["results"]
    assert [row["draw_seed"] for row in listed if row["id"] == swiss.pk] == [4242]
