"""Club ratings and the season table as pure functions over plain match records (no database).

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
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One finished match: the two partnerships (player ids) and who won ("NS", "EW", "draw")."""

    match_id: int
    played_at: datetime.datetime
    season: int
    tournament_id: int
    ns_players: tuple[int, int]
    ew_players: tuple[int, int]
    winner: str


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's finishing place in one tournament of a season (from its final standings)."""

    season: int
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
class SeasonLine:
    season: int
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
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {}
    played: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    steps: list[RatingStep] = []
    for record in sorted(records, key=lambda r: (r.played_at, r.match_id)):
        sides = (record.ns_players, record.ew_players)
        teams = [[_rating(model, current, player) for player in side] for side in sides]
        ranks: list[float]
        if record.winner == "NS":
            ranks = [1, 2]
        elif record.winner == "EW":
            ranks = [2, 1]
        else:
            ranks = [1, 1]
        rated = model.rate(teams, ranks=ranks)
        for side_index, (side, new_ratings) in enumerate(zip(sides, rated, strict=True)):
            result = None if ranks[0] == ranks[1] else ranks[side_index] == 1
            for player, new in zip(side, new_ratings, strict=True):
                current[player] = new
                played[player] += 1
                won[player] += 1 if result else 0
                steps.append(
                    RatingStep(
                        player,
                        record.match_id,
                        record.played_at,
                        new.mu,
                        new.sigma,
                        conservative(new.mu, new.sigma),
                        result,
                    )
                )
    ratings = {
        player: PlayerRating(
            player,
            r.mu,
            r.sigma,
            conservative(r.mu, r.sigma),
            played[player],
            won[player],
        )
        for player, r in current.items()
    }
    return ratings, steps


def _rating(
    model: PlackettLuce, current: dict[int, PlackettLuceRating], player: int
) -> PlackettLuceRating:
    if player not in current:
        current[player] = model.rating()
    return current[player]


def compute_season_table(
    records: Iterable[MatchRecord], placings: Iterable[Placing]
) -> list[SeasonLine]:
    """Per season and player: tournaments played (with a finished match or a final place),
    matches played and won, and the average finishing place over the tournaments with a place."""
    tournaments: dict[tuple[int, int], set[int]] = defaultdict(set)
    matches: dict[tuple[int, int], int] = defaultdict(int)
    wins: dict[tuple[int, int], int] = defaultdict(int)
    places: dict[tuple[int, int], list[int]] = defaultdict(list)
    for record in records:
        for side, players in (("NS", record.ns_players), ("EW", record.ew_players)):
            for player in players:
                key = (record.season, player)
                tournaments[key].add(record.tournament_id)
                matches[key] += 1
                wins[key] += 1 if record.winner == side else 0
    for placing in placings:
        key = (placing.season, placing.player_id)
        tournaments[key].add(placing.tournament_id)
        places[key].append(placing.place)
    return [
        SeasonLine(
            season,
            player,
            len(tournaments[(season, player)]),
            matches[(season, player)],
            wins[(season, player)],
            sum(places[(season, player)]) / len(places[(season, player)])
            if places[(season, player)]
            else None,
        )
        for season, player in sorted(tournaments)
    ]
