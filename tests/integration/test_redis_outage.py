"""Fault injection: the site as docker-compose runs it (gunicorn, production settings, one Redis as
broker and cache) with a real worker, on the test's PostgreSQL database. Its Redis, a server
of the test's own, is killed and restarted while a referee enters deals through the API:
no answer is a 5xx, no deal is lost, the worker survives, and the standings are correct
within 30 s of Redis returning, with no change after it to help them along."""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from club.models import Membership
from club.tokens import issue_own_token
from config.celery_app import app
from tests.conftest import requires_postgres, requires_redis
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory, make_staff
from tests.integration.services import stored_rounds
from tournaments.models import Deal, Match, Standing, Tournament
from tournaments.selectors.results import table_of
from tournaments.tasks import recompute_tournament

from .services import RedisServer, Site, Worker

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    requires_redis,
    requires_postgres,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
    pytest.mark.django_db(transaction=True),
]

DEALS_PER_MATCH = 6
NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_WINS = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 110}}


@dataclass
class Stack:
    redis: RedisServer
    worker: Worker
    site: Site

    def logs(self) -> str:
        return "\n".join(
            f"--- {name} ---\n{process.tail()}"
            for name, process in (("worker", self.worker), ("site", self.site))
        )


@pytest.fixture
def stack(tmp_path) -> Iterator[Stack]:
    redis = RedisServer(tmp_path / "redis.log")
    redis.start()
    services = {"CACHE_URL": "rediscache" + redis.url(1).removeprefix("redis")}
    worker = Worker(tmp_path / "worker.log", redis.url(0), **services)
    site = Site(tmp_path / "site.log", CELERY_BROKER_URL=redis.url(0), **services)
    try:
        worker.start()
        site.start()
        yield Stack(redis, worker, site)
    finally:
        site.stop()
        worker.stop()
        redis.stop()


@pytest.fixture
def refereed_tournament():
    """Four teams, three rounds of two tables, one referee with an API token for every table."""
    tournament = TournamentFactory(
        rules={"target": None, "max_deals": DEALS_PER_MATCH}, status=Tournament.Status.RUNNING
    )
    referee = make_staff(tournament.club, Membership.Role.REFEREE, "referee")
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
                    referee=referee,
                    ns_team=teams[ns],
                    ew_team=teams[ew],
                )
            )
    return tournament, issue_own_token(by=referee).key, matches


def post_deal(site: Site, token: str, match: Match, number: int) -> int:
    entry = NS_WINS if (match.pk + number) % 3 else EW_WINS
    request = urllib.request.Request(
        site.url(f"/api/v1/matches/{match.pk}/deals/"),
        data=json.dumps(entry).encode(),
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": f"deal-{match.pk}-{number}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def current_after(tournament: Tournament, since: float, stack: Stack, timeout: float) -> float:
    """Seconds from `since` until the stored standings are computed from the latest change."""
    while time.monotonic() - since < timeout:
        tournament.refresh_from_db()
        if tournament.standings_computed_at and tournament.standings_seq == tournament.change_seq:
            return time.monotonic() - since
        time.sleep(0.2)
    pytest.fail(
        f"standings at change {tournament.standings_seq} of {tournament.change_seq}"
        f" {timeout}s after Redis returned\n{stack.logs()}"
    )


def stored(tournament: Tournament) -> list[tuple[int, int, int, int, int]]:
    return sorted(
        Standing.objects.filter(tournament=tournament).values_list(
            "round_number", "team_id", "rank", "match_points", "points_for"
        )
    )


def computed(tournament: Tournament) -> list[tuple[int, int, int, int, int]]:
    return sorted(
        (r, line.team_id, line.rank, line.match_points, line.points_for)
        for r, lines in stored_rounds(table_of(tournament)).items()
        for line in lines
    )


def test_a_redis_outage_during_deal_entry_loses_nothing_and_the_standings_catch_up(
    stack, refereed_tournament
):
    tournament, token, matches = refereed_tournament
    # Deals in the order of play: every table's first deal, then every table's second, ...
    posts = [(match, n) for n in range(1, DEALS_PER_MATCH + 1) for match in matches]
    statuses: list[int] = []

    def enter(count: int) -> None:
        for match, number in posts[len(statuses) : len(statuses) + count]:
            statuses.append(post_deal(stack.site, token, match, number))
            time.sleep(0.1)

    enter(12)
    # The worker holds a delayed recompute when Redis goes away (celery 5.7's worker exited
    # here: "Unrecoverable error: AttributeError ... 'hostname'").
    with app.connection_for_write(stack.redis.url(0)) as connection:
        recompute_tournament.apply_async((tournament.pk,), countdown=60, connection=connection)
    time.sleep(1)
    stack.redis.kill()

    enter(18)  # the referees play on while Redis is down
    time.sleep(2)
    assert stack.worker.running, stack.logs()
    stack.redis.start()
    back = time.monotonic()

    # No change after Redis returned: only the worker's reconcile can bring the standings up.
    took = current_after(tournament, back, stack, timeout=30)
    enter(len(posts))  # the last deals, with everything back
    current_after(tournament, time.monotonic(), stack, timeout=30)

    assert [s for s in statuses if s >= 500] == []
    assert statuses == [201] * len(posts), statuses
    assert Deal.objects.filter(match__tournament=tournament).count() == len(posts)
    assert stored(tournament) == computed(tournament)
    assert Standing.objects.filter(tournament=tournament, round_number=3).count() == 4
    assert stack.worker.running, stack.logs()
    print(f"standings current {took:.1f}s after Redis returned")
