"""Builds a whole played round-robin tournament fast (bulk inserts, deals scored by the engine).

For benchmarks and query-count tests: `build_round_robin_tournament(64, 16)` gives the
2,016 matches and 32,256 deals of a 64-team single round robin in a few seconds.
Deals are random but valid and scored by the engine's `play_match`; every match plays
exactly `deals_per_match` deals (house rules `target: null, max_deals: n`), never a
thrown-in deal, so the figures are comparable from run to run.
"""

from __future__ import annotations

import datetime
import itertools
import random
from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.utils import timezone

from club.models import Club, Membership, Player
from scoring.demo import plausible_deal
from scoring.engine import Seat, play_match
from tournaments.models import Deal, Match, Round, Team, Tournament
from tournaments.scheduling import round_robin

_counter = itertools.count(1)
_SEATS = [seat.value for seat in Seat]


def random_entry(rng: random.Random) -> dict[str, Any]:
    """A valid §8 entry that always counts: no thrown-in deal, no declaration."""
    return plausible_deal(rng, thrown_in=False, declarations=False)


def play_random_deals(
    match: Match, rules: dict[str, Any], count: int, rng: random.Random
) -> list[Deal]:
    """Play `count` random deals on `match` (from its `first_dealer`) with the engine.

    Sets the match's `Match.REPLAY_FIELDS` (`apply_replay`, the same derived columns the deal
    services store on every replay) and returns its deals, unsaved. `rules` should end the
    match after `count` deals (`target: null, max_deals: count`).
    """
    entries = [random_entry(rng) for _ in range(count)]
    replay = play_match(rules, match.first_dealer, entries)
    deals = [
        Deal(match=match, number=played.number, entry=entry, **Deal.columns_of(played))
        for played, entry in zip(replay.deals, entries, strict=True)
    ]
    match.apply_replay(replay, deals)
    return deals


def _chunks(rows: list[Any], size: int = 2000) -> Iterator[list[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


@transaction.atomic
def build_round_robin_tournament(
    n_teams: int = 64,
    deals_per_match: int = 16,
    *,
    club: Club | None = None,
    seed: int = 0,
    status: str = Tournament.Status.FINISHED,
    starts_at: datetime.datetime | None = None,
) -> Tournament:
    """A single round robin of `n_teams` with every match finished after `deals_per_match` deals."""
    rng = random.Random(seed)
    tag = f"{timezone.now():%H%M%S%f}-{next(_counter)}"
    if club is None:
        club = Club.objects.create(name=f"Bench club {tag}", slug=f"bench-{tag}")
    players = Player.objects.bulk_create(
        [Player(first_name=f"P{i}", last_name=f"Bench {tag}") for i in range(1, 2 * n_teams + 1)]
    )
    Membership.objects.bulk_create(
        [Membership(club=club, player=p) for p in players], ignore_conflicts=True
    )
    starts_at = starts_at or timezone.now().replace(microsecond=0) - datetime.timedelta(days=1)
    tournament = Tournament.objects.create(
        club=club,
        name=f"Round robin {n_teams} {tag}",
        slug=f"rr-{tag}",
        starts_on=starts_at.date(),
        rules={"target": None, "max_deals": deals_per_match},
        status=status,
    )
    teams = Team.objects.bulk_create(
        [
            Team(
                tournament=tournament,
                name=f"Team {i}",
                first_player=players[2 * i - 2],
                second_player=players[2 * i - 1],
                seed=i,
            )
            for i in range(1, n_teams + 1)
        ]
    )
    schedule = round_robin(n_teams)
    rounds = Round.objects.bulk_create(
        [
            Round(tournament=tournament, number=number, is_closed=True)
            for number in range(1, len(schedule) + 1)
        ]
    )
    rules = tournament.rules
    matches: list[Match] = []
    deals: list[Deal] = []
    for rnd, pairings in zip(rounds, schedule, strict=True):
        finished_at = starts_at + datetime.timedelta(minutes=30 * rnd.number)
        for pairing in pairings:
            match = Match(
                round=rnd,
                tournament=tournament,
                table=pairing.table,
                ns_team=teams[pairing.ns - 1],
                ew_team=None if pairing.ew is None else teams[pairing.ew - 1],
                status=Match.Status.FINISHED,
                is_closed=pairing.ew is not None,
                finished_at=finished_at,
            )
            matches.append(match)
            if pairing.ew is None:
                continue  # a bye
            match.first_dealer = _SEATS[(rnd.number + (pairing.table or 0)) % 4]
            deals.extend(play_random_deals(match, rules, deals_per_match, rng))
    for chunk in _chunks(matches):
        Match.objects.create_seated(chunk)
    for chunk in _chunks(deals):
        Deal.objects.bulk_create(chunk)
    return tournament
