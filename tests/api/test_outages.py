"""A cache or broker outage never fails a request whose data is in the database.

The cache here is the site's Redis cache pointed at a port where nothing listens: Redis is
down. Deal entry answers 201, reads answer 200 from the database, and the change is kept
for the recompute that the reconcile sends once the broker is back.
"""

from __future__ import annotations

import socket
from unittest import mock

import pytest
from django.core.cache import cache
from kombu.exceptions import OperationalError

from config.cache import cache_config, cache_is_reachable
from config.celery_app import app
from tournaments import tasks
from tournaments.models import Tournament

from .conftest import MADE, deals_url

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A local port where nothing listens (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {"default": cache_config(f"rediscache://127.0.0.1:{closed_port()}/1")}
    yield


class Broker:
    """A broker that refuses every connection until it is `back()`."""

    def __init__(self) -> None:
        refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.patches = [
            mock.patch.object(task, "apply_async", side_effect=refused)
            for task in (tasks.recompute_tournament, tasks.recompute_club_ratings)
        ]
        self.sent = self.patches[0].start()
        self.patches[1].start()
        app.conf.task_always_eager = False

    def back(self) -> None:
        for patch in self.patches:
            patch.stop()
        self.patches = []
        app.conf.task_always_eager = True  # in process: the tasks run as the worker would


@pytest.fixture
def broker_down():
    broker = Broker()
    yield broker
    broker.back()


def test_with_the_cache_down_a_deal_is_stored_and_answered_201(
    redis_down, referee_client, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = referee_client.post(
            deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="k1"
        )

    assert response.status_code == 201, response.content
    assert match.deals.count() == 1
    assert not cache_is_reachable(cache)


def test_with_cache_and_broker_down_deals_are_committed_and_caught_up_by_the_reconcile(
    redis_down, broker_down, referee_client, match, django_capture_on_commit_callbacks
):
    statuses = []
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            statuses.append(referee_client.post(deals_url(match), MADE, format="json").status_code)

    assert statuses == [201, 201, 201]
    assert match.deals.count() == 3
    assert broker_down.sent.call_count == 3  # each change tried to send its recompute
    tournament = Tournament.objects.get(pk=match.tournament_id)
    assert tournament.standings_seq < tournament.change_seq
    # The broker is back: the worker's reconcile on reconnection catches the standings up.
    broker_down.back()
    assert tasks.reconcile_standings.delay().get() == 1
    tournament.refresh_from_db()
    assert tournament.standings_seq == tournament.change_seq == 3


def test_with_the_cache_down_standings_deals_and_schedule_are_read_from_the_database(
    redis_down, referee_client, anonymous_client, match
):
    referee_client.post(deals_url(match), MADE, format="json")
    tournament_url = f"/api/v1/tournaments/{match.tournament_id}/"

    for url in (
        deals_url(match),
        tournament_url + "standings/",
        tournament_url + "schedule/",
        tournament_url,
        f"/api/v1/matches/{match.pk}/",
    ):
        response = anonymous_client.get(url)
        assert response.status_code == 200, (url, response.content)
    assert anonymous_client.get(deals_url(match)).json()["results"][0]["number"] == 1


def test_a_cache_that_is_down_answers_as_an_empty_cache_and_is_left_alone_for_a_while(redis_down):
    assert cache.get("anything", "default") == "default"
    assert cache.add("key", 1) is False
    assert cache.set("key", 1) is None
    assert cache.get_many(["a", "b"]) == {}
    assert cache.delete("key") is False
    with pytest.raises(ValueError):
        cache.incr("counter")
    assert not cache_is_reachable(cache)
