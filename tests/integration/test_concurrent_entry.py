"""On PostgreSQL: referees and directors entering deals at the same moment lose and double
nothing; rebuilds of a club's ratings at once all end well."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from bench.bigtournament import build_round_robin_tournament
from club.models import Membership, Rating
from scoring.engine import Team
from tests.conftest import requires_postgres
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import DealAudit, Submission
from tournaments.services.deals import enter_deal, replay
from tournaments.services.ratings import recompute_ratings

pytestmark = [
    pytest.mark.postgres,
    requires_postgres,
    pytest.mark.django_db(transaction=True),
]

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}


def at_once(count: int, work: Callable[[int], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run `work(i)` in `count` threads released together; each thread closes its connection."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as error:  # reported by the test, not lost in a thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, errors


@pytest.fixture
def match():
    tournament = TournamentFactory(rules={"target": 5000})
    return MatchFactory(round__tournament=tournament, referee=UserFactory(username="ref"))


def test_eight_deals_entered_at_once_are_all_stored_with_contiguous_numbers(match):
    director = make_staff(match.tournament.club, Membership.Role.DIRECTOR, "boss")
    writers = [match.referee, director]

    _, errors = at_once(8, lambda i: enter_deal(match, MADE, by=writers[i % 2]))

    assert errors == []
    numbers = list(match.deals.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, 9))
    match.refresh_from_db()
    played = replay(match)
    assert (match.deal_count, match.ns_total, match.ew_total) == (8, 8 * 118, 8 * 64)
    assert (played.totals[Team.NS], played.totals[Team.EW]) == (match.ns_total, match.ew_total)
    assert DealAudit.objects.filter(match=match).count() == 8


def test_the_same_submission_key_posted_five_times_at_once_stores_one_deal(match):
    results, errors = at_once(
        5, lambda i: enter_deal(match, MADE, by=match.referee, submission_key="tap-tap-tap")
    )

    assert errors == []
    assert match.deals.count() == 1
    assert {deal.pk for deal in results} == {match.deals.get().pk}
    assert Submission.objects.filter(key="tap-tap-tap").count() == 1
    assert DealAudit.objects.filter(match=match).count() == 1


def test_rebuilds_of_a_clubs_ratings_at_once_all_end_well():
    """What a leading and a trailing recompute task do on workers with several processes."""
    club_id = build_round_robin_tournament(6, 2, seed=4).club_id

    for _ in range(3):
        _, errors = at_once(4, lambda i: recompute_ratings(club_id, force=True))
        assert errors == []
    assert Rating.objects.filter(club_id=club_id).count() == 12  # six teams of two
