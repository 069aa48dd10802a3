"""The `actions` block of a tournament and of a round: what a director may do now, and why not,
with the codes and reasons the actions themselves answer."""

from __future__ import annotations

import pytest

from tests.factories import TeamFactory
from tournaments.models import Match, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.schedule import generate_round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(tournament):  # type: ignore[no-untyped-def]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.OPEN)
    for seed in range(1, 5):
        TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
    generate_round_robin(tournament, by=SYSTEM)
    return tournament


def test_a_director_reads_each_action_and_why_it_is_refused(director_client, scheduled):
    actions = director_client.get(f"/api/v1/tournaments/{scheduled.pk}/").json()["actions"]
    assert set(actions) == {
        "publish",
        "generate",
        "draw",
        "delete_round",
        "close_round",
        "start_final",
        "finish",
    }
    assert actions["publish"] == {"allowed": True, "code": None, "reason": None}
    assert actions["generate"]["allowed"] is True
    assert actions["start_final"]["allowed"] is False
    assert actions["start_final"]["code"] == "round_not_finished"
    assert "still has matches to finish" in actions["start_final"]["reason"]
    # What the action answers when tried anyway: the same code and reason.
    tried = director_client.post(
        f"/api/v1/tournaments/{scheduled.pk}/finals/", {"size": 2}, format="json"
    )
    assert tried.status_code == 409 and tried.json()["code"] == "round_not_finished"
    published = director_client.post(f"/api/v1/tournaments/{scheduled.pk}/publish/").json()
    assert published["actions"]["publish"]["code"] == "already_published"


def test_finish_answers_as_its_action_says(director_client, scheduled):
    url = f"/api/v1/tournaments/{scheduled.pk}/"
    director_client.post(url + "publish/")
    said = director_client.get(url).json()["actions"]["finish"]
    assert said["allowed"] is False and said["code"] == "not_ready_to_finish"
    tried = director_client.post(url + "finish/")
    assert tried.status_code == 409
    assert tried.json() == {"code": said["code"], "errors": {"detail": [said["reason"]]}}
    scheduled.matches.update(status=Match.Status.FINISHED)
    # A table the director closed unfinished counts as played, as for the next draw.
    unfinished = scheduled.matches.first()
    Match.objects.filter(pk=unfinished.pk).update(status=Match.Status.PLAYING, is_closed=True)
    assert director_client.get(url).json()["actions"]["finish"]["allowed"] is True
    finished = director_client.post(url + "finish/")
    assert finished.status_code == 200
    assert finished.json()["status"] == "finished"
    assert finished.json()["actions"]["finish"]["code"] == "already_finished"


def test_a_round_says_whether_it_may_be_closed_or_deleted(director_client, scheduled):
    first = scheduled.rounds.get(number=1)
    actions = director_client.get(f"/api/v1/rounds/{first.pk}/").json()["actions"]
    assert actions["close"]["code"] == "round_not_ready"
    assert actions["delete"]["allowed"] is False


def test_others_are_refused_every_action_and_lists_leave_them_out(
    anonymous_client, referee_client, director_client, scheduled
):
    for client in (anonymous_client, referee_client):
        actions = client.get(f"/api/v1/tournaments/{scheduled.pk}/").json()["actions"]
        assert {a["code"] for a in actions.values()} == {"forbidden"}
    listed = director_client.get("/api/v1/tournaments/").json()["results"]
    assert [t["actions"] for t in listed] == [None]
