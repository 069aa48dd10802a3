"""Club ratings and the year ranking as pure functions over plain match records (no database).

The model is OpenSkill's Plackett–Luce (Weng & Lin 2011), the library's recommended default:
it rates *teams* as the sum of their players, so partners who change from one tournament to
the next still share what a match tells about them. Each match is a two-team game: the two
partnerships, ranked by the result, a draw giving both teams the same rank.

Ratings are rebuilt from scratch in chronological order (finished_at, then match id) every
time, so the rating after any change equals the rating of a rebuild: nothing is incremental.
A player's displayed rating is the conservative mu − 3·sigma.
"""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One finished match: the two partnerships (player ids) and who won ("NS", "EW", "draw")."""

    match_id: int
    played_at: datetime.datetime
    year: int
    tournament_id: int
    ns_players: tuple[int, int]
    ew_players: tuple[int, int]
    winner: str


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's finishing place in one tournament of a calendar year (from its final standings)."""

    year: int
    tournament_id: int
    player_id: int
    place: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player_id: int
    mu: float
    sigma: float
    rating: float
    matches_played: int
    matches_won: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    """A player's rating right after one match."""

    player_id: int
    match_id: int
    played_at: datetime.datetime
    mu: float
    sigma: float
    rating: float
    won: bool | None  # None for a draw


@dataclass(frozen=True, slots=True)
class YearLine:
    year: int
    player_id: int
    tournaments_played: int
    matches_played: int
    matches_won: int
    average_place: float | None


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def compute_ratings(
    records: Iterable[MatchRecord],
) -> tuple[dict[int, PlayerRating], list[RatingStep]]:
    """Current ratings per player and every player's history, match by match."""
    rate = TwoTeamRater(PlackettLuce())
    start = (rate.model.mu, rate.model.sigma)
    current: dict[int, Skill] = {}
    played: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    steps: list[RatingStep] = []
    for record in sorted(records, key=lambda r: (r.played_at, r.match_id)):
        sides = (record.ns_players, record.ew_players)
        teams = [[current.get(player, start) for player in side] for side in sides]
        ranks: list[float]
        if record.winner == "NS":
            ranks = [1, 2]
        elif record.winner == "EW":
            ranks = [2, 1]
        else:
            ranks = [1, 1]
        rated = rate(teams, ranks)
        for side_index, (side, new_ratings) in enumerate(zip(sides, rated, strict=True)):
            result = None if ranks[0] == ranks[1] else ranks[side_index] == 1
            for player, (mu, sigma) in zip(side, new_ratings, strict=True):
                current[player] = (mu, sigma)
                played[player] += 1
                won[player] += 1 if result else 0
                steps.append(
                    RatingStep(
                        player,
                        record.match_id,
                        record.played_at,
                        mu,
                        sigma,
                        conservative(mu, sigma),
                        result,
                    )
                )
    ratings = {
        player: PlayerRating(
            player,
            mu,
            sigma,
            conservative(mu, sigma),
            played[player],
            won[player],
        )
        for player, (mu, sigma) in current.items()
    }
    return ratings, steps


Skill = tuple[float, float]  # a player's (mu, sigma)


class TwoTeamRater:
    """`model.rate(teams, ranks=ranks)` for the one game this club plays: two teams of two.

    The library's `rate` validates its arguments, deep-copies every rating and draws a
    uuid for each copy: three quarters of a club's rebuild (2,016 matches). This is the
    same Plackett–Luce update (Weng & Lin 2011, Algorithm 4) on plain (mu, sigma) pairs,
    step by step in the library's order of operations, so that every float is the one it
    gives: `tests/club/test_ratings.py` holds the two equal, bit for bit.
    """

    def __init__(self, model: PlackettLuce) -> None:
        if model.limit_sigma or model.balance or model.margin:
            raise ValueError("only the library's default Plackett–Luce options are mirrored")
        self.model = model
        self.tau_squared = model.tau * model.tau
        self.beta_squared = model.beta**2
        self.kappa = model.kappa

    def __call__(self, teams: list[list[Skill]], ranks: list[float]) -> list[list[Skill]]:
        # As `rate`: the dynamics (tau) first, then the winner first (a draw keeps its order).
        widened = [
            [(mu, math.sqrt(sigma * sigma + self.tau_squared)) for mu, sigma in t] for t in teams
        ]
        order = [1, 0] if ranks[0] > ranks[1] else [0, 1]
        ordered = [widened[i] for i in order]
        rank = sorted(int(r) for r in ranks)
        rated = self._compute(ordered, rank)
        result: list[list[Skill]] = [[], []]
        for position, original in enumerate(order):
            result[original] = rated[position]
        return result

    def _compute(self, teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
        """PlackettLuce._compute for two teams, no scores, no weights, unit balance."""
        team_mu = [0.0 + t[0][0] + t[1][0] for t in teams]
        team_sigma_squared = [0.0 + t[0][1] ** 2 + t[1][1] ** 2 for t in teams]
        collective = 0.0
        for sigma_squared in team_sigma_squared:
            collective += sigma_squared + self.beta_squared
        c = math.sqrt(collective)
        exps = [math.exp(mu / c) for mu in team_mu]
        sum_q: dict[int, float] = {}
        for i in (0, 1):
            for q in (0, 1):
                if ranks[i] >= ranks[q]:
                    sum_q[q] = sum_q[q] + exps[i] if q in sum_q else exps[i]
        a = [sum(1 for r in ranks if r == ranks[i]) for i in (0, 1)]
        rated = []
        for i in (0, 1):
            omega = 0.0
            delta = 0.0
            for q in (0, 1):
                share = exps[i] / sum_q[q]
                if ranks[q] <= ranks[i]:
                    delta += share * (1 - share) / a[q]
                    if q == i:
                        omega += (1 - share) / a[q]
                    else:
                        omega -= share / a[q]
            sigma_squared = team_sigma_squared[i]
            omega *= sigma_squared / c
            delta *= sigma_squared / c**2
            delta *= math.sqrt(sigma_squared) / c  # the default gamma
            players = []
            for mu, sigma in teams[i]:
                mu += (sigma**2 / sigma_squared) * omega
                sigma *= math.sqrt(max(1 - (sigma**2 / sigma_squared) * delta, self.kappa))
                players.append((mu, sigma))
            rated.append(players)
        # The library's averaging of a draw's mean changes leaves them as they are (it reads
        # the changed ratings on both sides of its difference): nothing to mirror.
        return rated


def compute_year_ranking(
    records: Iterable[MatchRecord], placings: Iterable[Placing]
) -> list[YearLine]:
    """Per calendar year and player: tournaments played (with a finished match or a final place),
    matches played and won, and the average finishing place over the tournaments with a place."""
    tournaments: dict[tuple[int, int], set[int]] = defaultdict(set)
    matches: dict[tuple[int, int], int] = defaultdict(int)
    wins: dict[tuple[int, int], int] = defaultdict(int)
    places: dict[tuple[int, int], list[int]] = defaultdict(list)
    for record in records:
        for side, players in (("NS", record.ns_players), ("EW", record.ew_players)):
            for player in players:
                key = (record.year, player)
                tournaments[key].add(record.tournament_id)
                matches[key] += 1
                wins[key] += 1 if record.winner == side else 0
    for placing in placings:
        key = (placing.year, placing.player_id)
        tournaments[key].add(placing.tournament_id)
        places[key].append(placing.place)
    return [
        YearLine(
            year,
            player,
            len(tournaments[(year, player)]),
            matches[(year, player)],
            wins[(year, player)],
            sum(places[(year, player)]) / len(places[(year, player)])
            if places[(year, player)]
            else None,
        )
        for year, player in sorted(tournaments)
    ]
