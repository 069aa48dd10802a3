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
from scoring.engine import codec, play_match
from tournaments.models import Deal, Match, MatchSeat, Round, Team, Tournament

_counter = itertools.count(1)
_SEATS = "NESW"
_SUITS = "SHDC"


def berger_pairings(n_teams: int) -> list[list[tuple[int, int | None]]]:
    """Rounds of (NS pairing number, EW pairing number or None for a bye), 1-based.

    The circle method of tournament.md (FIDE Berger tables); a dummy team gives the byes.
    """
    n = n_teams + (n_teams % 2)
    h, m = n // 2, n - 1
    current = [(k, n + 1 - k) for k in range(1, h + 1)]
    rounds = []
    for number in range(1, n):
        boards = []
        for board, (a, b) in enumerate(current):
            if board == 0:
                # Team n sits NS in even rounds and EW in odd rounds.
                other = a if b == n else b
                a, b = (n, other) if number % 2 == 0 else (other, n)
            boards.append((a, b))
        rounds.append(boards)
        current = [
            (a if a == n else ((a - 1 + h) % m) + 1, b if b == n else ((b - 1 + h) % m) + 1)
            for a, b in boards
        ]
    if n != n_teams:  # the dummy's opponent has the bye, seated NS
        rounds = [
            [(a, None) if b == n else (b, None) if a == n else (a, b) for a, b in boards]
            for boards in rounds
        ]
        rounds = [sorted(boards, key=lambda pair: pair[1] is None) for boards in rounds]
    return rounds


def random_entry(rng: random.Random) -> dict[str, Any]:
    """A valid §8 entry: mostly plain deals, some belotes, capots and litiges."""
    taker = rng.choice(_SEATS)
    taker_team = "NS" if taker in "NS" else "EW"
    entry: dict[str, Any] = {"taker": taker, "trump": rng.choice(_SUITS)}
    roll = rng.random()
    if roll < 0.04:
        entry["capot"] = rng.choice((taker_team, taker_team, "EW" if taker_team == "NS" else "NS"))
    elif roll < 0.08:
        entry["points"] = {"team": "NS", "cards": 81}
    else:
        entry["points"] = {"team": "NS", "cards": rng.randint(30, 132)}
    if rng.random() < 0.2:
        entry["belote"] = rng.choice(("NS", "EW"))
    return entry


def _seat_side(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def _deal_row(match: Match, played: Any, entry: dict[str, Any]) -> Deal:
    result = played.result
    belote = result.belote
    belote_side = next((team.value for team, points in belote.items() if points), "")
    return Deal(
        match=match,
        number=played.number,
        entry=entry,
        result=codec.result_to_json(result),
        dealer=played.dealer.value,
        outcome=result.outcome.value,
        taker_side=result.taker.value if result.taker else "",
        capot_side=result.capot.value if result.capot else "",
        belote_side=belote_side,
        ns_score=played.result.score[_team("NS")],
        ew_score=played.result.score[_team("EW")],
        pot_in=result.pot_in,
    )


def _team(value: str) -> Any:
    from scoring.engine import Team as EngineTeam

    return EngineTeam(value)


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
    pairings = berger_pairings(n_teams)
    rounds = Round.objects.bulk_create(
        [
            Round(tournament=tournament, number=number, is_closed=True)
            for number in range(1, len(pairings) + 1)
        ]
    )
    rules = tournament.rules
    matches: list[Match] = []
    deals: list[Deal] = []
    for rnd, boards in zip(rounds, pairings, strict=True):
        finished_at = starts_at + datetime.timedelta(minutes=30 * rnd.number)
        table = 0
        for ns, ew in boards:
            if ew is None:
                matches.append(
                    Match(
                        round=rnd,
                        tournament=tournament,
                        table=None,
                        ns_team=teams[ns - 1],
                        ew_team=None,
                        status=Match.Status.FINISHED,
                        finished_at=finished_at,
                    )
                )
                continue
            table += 1
            first_dealer = _SEATS[(rnd.number + table) % 4]
            entries = [random_entry(rng) for _ in range(deals_per_match)]
            replay = play_match(rules, first_dealer, entries)
            totals = {t.value: v for t, v in replay.totals.items()}
            winner = replay.winner.value if hasattr(replay.winner, "value") else replay.winner
            match = Match(
                round=rnd,
                tournament=tournament,
                table=table,
                ns_team=teams[ns - 1],
                ew_team=teams[ew - 1],
                first_dealer=first_dealer,
                status=Match.Status.FINISHED,
                is_closed=True,
                ns_total=totals["NS"],
                ew_total=totals["EW"],
                pot=replay.pot,
                deal_count=len(replay.deals),
                winner=winner or "",
                finished_at=finished_at,
            )
            played_deals = [
                _deal_row(match, played, entry)
                for played, entry in zip(replay.deals, entries, strict=True)
            ]
            # The per-side counts the deal services store on every replay.
            match.count_deals(played_deals)
            matches.append(match)
            deals.extend(played_deals)
    for chunk in _chunks(matches):
        Match.objects.bulk_create(chunk)
    seats = []
    for match in matches:
        seats.append(MatchSeat(match=match, round=match.round, team=match.ns_team, side="NS"))
        if match.ew_team is not None:
            seats.append(MatchSeat(match=match, round=match.round, team=match.ew_team, side="EW"))
    for chunk in _chunks(seats):
        MatchSeat.objects.bulk_create(chunk)
    for chunk in _chunks(deals):
        Deal.objects.bulk_create(chunk)
    return tournament
