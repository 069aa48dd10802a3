"""Tournaments played out on paper for the draw tests: histories, random results, brute force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tournaments.scheduling import (
    IndividualRound,
    PairBy,
    PlayerRecord,
    TeamRecord,
    TeamRound,
    draw_individual_round,
    draw_team_round,
)

WIN, DRAW = 2, 1


def perfect_matchings(nodes: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``nodes`` off (an even number of them), by brute force."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, partner in enumerate(rest):
        for others in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *others]


def ranks_by(points: dict[int, int]) -> dict[int, int]:
    """Places in the standings by points, level teams sharing a place (1, 2, 2, 4)."""
    return {team: 1 + sum(1 for p in points.values() if p > mine) for team, mine in points.items()}


@dataclass
class TeamTournament:
    """A Swiss or concours with random results, drawn round by round by the real draw."""

    teams: list[int]
    pair_by: PairBy
    seed: int = 1
    opponents: dict[int, list[int]] = field(default_factory=dict)
    match_points: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    ns: Counter[int] = field(default_factory=Counter)
    ew: Counter[int] = field(default_factory=Counter)
    rounds: list[TeamRound] = field(default_factory=list)

    def records(self) -> list[TeamRecord]:
        ranks = ranks_by({team: self.match_points[team] for team in self.teams})
        return [
            TeamRecord(
                team=team,
                rank=ranks[team],
                match_points=self.match_points[team],
                opponents=tuple(self.opponents.get(team, ())),
                byes=self.byes[team],
                ns=self.ns[team],
                ew=self.ew[team],
            )
            for team in self.teams
        ]

    def draw(self) -> TeamRound:
        return draw_team_round(
            self.records(),
            round_number=len(self.rounds) + 1,
            seed=self.seed,
            pair_by=self.pair_by,
        )

    def play(self, drawn: TeamRound, results: random.Random) -> None:
        for match in drawn.matches:
            assert match.ew is not None
            self.opponents.setdefault(match.ns, []).append(match.ew)
            self.opponents.setdefault(match.ew, []).append(match.ns)
            self.ns[match.ns] += 1
            self.ew[match.ew] += 1
            outcome = results.choice(["ns", "ew", "draw"])
            self.match_points[match.ns] += {"ns": WIN, "draw": DRAW}.get(outcome, 0)
            self.match_points[match.ew] += {"ew": WIN, "draw": DRAW}.get(outcome, 0)
        if drawn.bye is not None:
            # A bye counts as a won match in the round-by-round formats.
            self.byes[drawn.bye] += 1
            self.match_points[drawn.bye] += WIN
        self.rounds.append(drawn)

    def play_rounds(self, count: int, results: random.Random) -> None:
        for _ in range(count):
            self.play(self.draw(), results)


@dataclass
class IndividualTournament:
    """A mêlée drawn round by round by the real draw (results do not matter to it)."""

    players: list[int]
    seed: int = 1
    partners: dict[int, list[int]] = field(default_factory=dict)
    opponents: dict[int, list[int]] = field(default_factory=dict)
    sit_outs: Counter[int] = field(default_factory=Counter)
    ns: Counter[int] = field(default_factory=Counter)
    ew: Counter[int] = field(default_factory=Counter)
    rounds: list[IndividualRound] = field(default_factory=list)

    def records(self) -> list[PlayerRecord]:
        return [
            PlayerRecord(
                player=player,
                partners=tuple(self.partners.get(player, ())),
                opponents=tuple(self.opponents.get(player, ())),
                sit_outs=self.sit_outs[player],
                ns=self.ns[player],
                ew=self.ew[player],
            )
            for player in self.players
        ]

    def draw(self) -> IndividualRound:
        return draw_individual_round(
            self.records(), round_number=len(self.rounds) + 1, seed=self.seed
        )

    def play(self, drawn: IndividualRound) -> None:
        for table in drawn.tables:
            for pair, other, seats in (
                (table.ns, table.ew, self.ns),
                (table.ew, table.ns, self.ew),
            ):
                for player in pair:
                    partner = pair[1] if player == pair[0] else pair[0]
                    self.partners.setdefault(player, []).append(partner)
                    self.opponents.setdefault(player, []).extend(other)
                    seats[player] += 1
        for player in drawn.sit_outs:
            self.sit_outs[player] += 1
        self.rounds.append(drawn)

    def play_rounds(self, count: int) -> None:
        for _ in range(count):
            self.play(self.draw())
