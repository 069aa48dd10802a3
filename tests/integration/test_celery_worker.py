"""With the real Redis broker and a real `celery worker` process on the test's PostgreSQL database:
deals entered through the service show up in the standings within seconds, and a worker
killed in the middle of its work and restarted leaves the standings correct."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from club.models import Membership, RatingChange
from config.celery_app import app
from tests.conftest import requires_postgres, requires_redis
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory, make_staff
from tests.integration.services import stored_rounds
from tournaments.models import Match, Standing, Tournament
from tournaments.selectors.results import table_of
from tournaments.services.deals import enter_deal

from .services import Worker

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    requires_redis,
    requires_postgres,
    pytest.mark.django_db(transaction=True),
]

NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_WINS = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 110}}


@pytest.fixture
def worker(tmp_path) -> Iterator[Worker]:
    app.control.purge()  # nothing left over from an earlier run on this broker database
    running = Worker(tmp_path / "worker.log", os.environ["CELERY_BROKER_URL"])
    running.start()
    yield running
    running.stop()


@pytest.fixture
def tournament_of_four():
    tournament = TournamentFactory(
        rules={"target": None, "max_deals": 2}, status=Tournament.Status.RUNNING
    )
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "director")
    teams = [TeamFactory(tournament=tournament, seed=i, name=f"T{i}") for i in range(1, 5)]
    matches = []
    for number, boards in enumerate([[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]], 1):
        round_ = RoundFactory(tournament=tournament, number=number)
        for table, (ns, ew) in enumerate(boards, 1):
            matches.append(
                MatchFactory(
                    round=round_,
                    tournament=tournament,
                    table=table,
                    ns_team=teams[ns],
                    ew_team=teams[ew],
                )
            )
    return tournament, director, matches


def wait_until_current(tournament: Tournament, worker: Worker, timeout: float = 30) -> float:
    """Seconds until the stored standings were computed from the latest change."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        tournament.refresh_from_db()
        if tournament.standings_computed_at and tournament.standings_seq == tournament.change_seq:
            return time.monotonic() - start
        time.sleep(0.2)
    pytest.fail(
        f"standings still at change {tournament.standings_seq} of {tournament.change_seq}"
        f" after {timeout}s; worker log:\n{worker.tail()}"
    )


def stored(tournament: Tournament) -> list[tuple[int, int, int, int, int, int]]:
    return sorted(
        Standing.objects.filter(tournament=tournament).values_list(
            "round_number", "team_id", "rank", "match_points", "points_for", "deals"
        )
    )


def computed(tournament: Tournament) -> list[tuple[int, int, int, int, int, int]]:
    return sorted(
        (r, line.team_id, line.rank, line.match_points, line.points_for, line.deals)
        for r, lines in stored_rounds(table_of(tournament)).items()
        for line in lines
    )


def play(match: Match, director, deals) -> None:
    for entry in deals:
        enter_deal(match, entry, by=director)


def test_deals_show_up_in_the_standings_within_seconds_and_survive_a_killed_worker(
    worker, tournament_of_four
):
    tournament, director, matches = tournament_of_four
    round_1 = matches[:2]
    play(round_1[0], director, [NS_WINS, NS_WINS])
    play(round_1[1], director, [EW_WINS, NS_WINS])

    took = wait_until_current(tournament, worker, timeout=45)  # includes the worker's start
    assert stored(tournament) == computed(tournament)
    assert Standing.objects.filter(tournament=tournament, round_number=1).count() == 4

    # Round 2 with the worker warm: the standings follow within a few seconds.
    play(matches[2], director, [NS_WINS, EW_WINS])
    play(matches[3], director, [EW_WINS, EW_WINS])
    took = wait_until_current(tournament, worker, timeout=15)
    assert took < 10, f"standings took {took:.1f}s"
    assert Standing.objects.filter(tournament=tournament, round_number=2).count() == 4

    # Kill the worker while it holds the task for the next deal, then play on without it.
    enter_deal(matches[4], NS_WINS, by=director)
    time.sleep(0.3)
    worker.kill()
    # The restarted worker's reconcile (on connecting) catches up whatever the dead one held.
    time.sleep(0.5)
    enter_deal(matches[4], NS_WINS, by=director)
    play(matches[5], director, [EW_WINS, NS_WINS])
    tournament.refresh_from_db()
    assert tournament.standings_seq < tournament.change_seq

    worker.start()
    wait_until_current(tournament, worker, timeout=45)
    assert stored(tournament) == computed(tournament)
    final = Standing.objects.filter(tournament=tournament, round_number=3)
    assert final.count() == 4
    assert sum(row.played for row in final) == 4 * 3
    # The club's ratings followed the standings (a task of their own, right after).
    deadline = time.monotonic() + 15
    while RatingChange.objects.filter(club=tournament.club).count() < 6 * 4:
        assert time.monotonic() < deadline, worker.tail()
        time.sleep(0.2)
