"""The draw of one round of an individual tournament (mêlée): partnerships and tables of four.

Pure data in, pure data out; players are known by their ids. The caller leaves withdrawn
players out and hands each player's past (:class:`PlayerRecord`);
:func:`draw_individual_round` returns the tables and who sits out.

The rules (docs/formats.md), in the order they are applied:

1. **Sit-outs**: when the number of players is not a multiple of 4, 1 to 3 players sit
   out, chosen by lot among those who sat out least, so nobody sits out twice before
   everyone did once (a mêlée is a draw; the standings play no part).
2. **Partnerships**: a minimum-cost perfect matching of the players over every pair of
   them. Costs, largest first: how many times the two were already partners (so a repeat
   happens only when no pairing avoids it, and then as few as possible); then whether
   they never faced each other (players who did make partners by preference: as
   partners they cannot face each other again, which leaves the tables more room);
   then how far apart their seat needs are (one who sat NS more often with one who sat
   EW more often cannot both be rebalanced, so partners who need the same side go
   together); then the lot.
3. **Tables**: a minimum-cost perfect matching of the partnerships. Costs, largest first:
   how many times the four cross pairs already met as opponents, then the side clash of
   the two partnerships (:func:`~tournaments.scheduling.matching.side_clash` over the
   sums of their players' seat balances), then the lot.
4. **Sides**: the partnership whose players sat NS more often (NS seats minus EW seats,
   summed) sits EW; equal balances by lot. Who of a partnership takes North (East) and who
   South (West) is drawn by lot; tables are numbered in draw order, also the lot's.

Partnerships first and tables second is the usual mêlée order: the partner rule is the
strict one. The fewest repeated opponents over every draw at once is a harder problem
than a matching (tables of four are not pairs), so the tables are exact for the
partnerships found, and when they still repeat opponents the partnerships are drawn
again with another lot, up to :data:`ATTEMPTS` times, keeping the draw that repeats
fewest (the first one on a tie). Over 20 simulated mêlées of 16 players, the repeated
opponents of rounds 3, 4 and 5 add up to 13, 47 and 74 with one draw of the
partnerships and no preference for former opponents, to 0, 0 and 35 with both.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .matching import (
    LOT_RANGE,
    DrawError,
    check_draw,
    check_whole,
    lexicographic_costs,
    lot,
    min_cost_perfect_matching,
    seat_balance,
    side_clash,
)

__all__ = ["IndividualRound", "IndividualTable", "PlayerRecord", "draw_individual_round"]

Partnership = tuple[int, int]

# How many draws of the partnerships may be tried to avoid repeated opponents.
ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's past in the tournament, as the draw of the next round needs it.

    ``partners`` has one entry per round played, ``opponents`` two (a player faced twice
    is listed as often); ``ns`` and ``ew`` count the seats they had.
    """

    player: int
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    sit_outs: int = 0
    ns: int = 0
    ew: int = 0


@dataclass(frozen=True, slots=True)
class IndividualTable:
    """One table of four: ``ns`` is (North, South), ``ew`` is (East, West)."""

    table: int
    ns: Partnership
    ew: Partnership

    @property
    def players(self) -> tuple[int, int, int, int]:
        """North, East, South, West: the order of play."""
        return (self.ns[0], self.ew[0], self.ns[1], self.ew[1])


@dataclass(frozen=True, slots=True)
class IndividualRound:
    """One drawn round: its tables (1..k) and the players who sit it out."""

    round: int
    tables: tuple[IndividualTable, ...]
    sit_outs: tuple[int, ...]
    # Partnerships of players already partners before: 0 unless no draw avoided it.
    repeated_partners: int
    # Pairs of opponents at a table who had already faced each other.
    repeated_opponents: int


def draw_individual_round(
    players: Sequence[PlayerRecord], *, round_number: int, seed: int
) -> IndividualRound:
    """Draw round ``round_number`` for ``players`` (at least four); same inputs, same round.

    ``seed`` is the tournament's ``draw_seed``. Raises
    :class:`~tournaments.scheduling.matching.DrawError` naming the field of a wrong input.
    """
    _check(players, round_number, seed)
    past = _Past(players)
    sit_outs = _choose_sit_outs(list(past.records.values()), round_number, seed)
    playing = [player for player in past.records if player not in sit_outs]

    best: tuple[int, list[tuple[Partnership, Partnership]]] | None = None
    for attempt in range(ATTEMPTS):
        partnerships = past.partnerships(playing, lot(seed, round_number, f"partners {attempt}"))
        tables = past.tables(partnerships, lot(seed, round_number, f"tables {attempt}"))
        repeats = sum(past.faced(a, b) for x, y in tables for a in x for b in y)
        if best is None or repeats < best[0]:
            best = (repeats, tables)
        if repeats == 0:
            break
    assert best is not None
    tables = best[1]

    seats = lot(seed, round_number, "sides")
    seated = [_seat(x, y, past.balance, seats) for x, y in tables]
    lot(seed, round_number, "table numbers").shuffle(seated)
    return IndividualRound(
        round=round_number,
        tables=tuple(
            IndividualTable(number, ns, ew) for number, (ns, ew) in enumerate(seated, start=1)
        ),
        sit_outs=tuple(sorted(sit_outs)),
        repeated_partners=sum(1 for x, y in tables for a, b in (x, y) if past.partnered(a, b)),
        repeated_opponents=sum(1 for x, y in tables for a in x for b in y if past.faced(a, b)),
    )


class _Past:
    """The players' records, with the counts the two matchings ask for over and over."""

    def __init__(self, players: Sequence[PlayerRecord]) -> None:
        self.records = {record.player: record for record in sorted(players, key=lambda r: r.player)}
        self._partners = {p: Counter(record.partners) for p, record in self.records.items()}
        self._opponents = {p: Counter(record.opponents) for p, record in self.records.items()}
        self._balance = {p: seat_balance(r.ns, r.ew) for p, r in self.records.items()}

    def partnered(self, a: int, b: int) -> int:
        # Either side's record counts, should a caller's history be lopsided.
        return max(self._partners[a][b], self._partners[b][a])

    def faced(self, a: int, b: int) -> int:
        return max(self._opponents[a][b], self._opponents[b][a])

    def balance(self, players: Partnership) -> int:
        return self._balance[players[0]] + self._balance[players[1]]

    def partnerships(self, playing: list[int], rng: random.Random) -> list[Partnership]:
        tiers = {
            (a, b): (
                self.partnered(a, b),
                0 if self.faced(a, b) else 1,
                side_clash(self._balance[a], -self._balance[b]),
                rng.randrange(LOT_RANGE),
            )
            for i, a in enumerate(playing)
            for b in playing[i + 1 :]
        }
        return min_cost_perfect_matching(playing, lexicographic_costs(tiers, len(playing) // 2))

    def tables(
        self, partnerships: list[Partnership], rng: random.Random
    ) -> list[tuple[Partnership, Partnership]]:
        tiers = {
            (x, y): (
                sum(self.faced(a, b) for a in x for b in y),
                side_clash(self.balance(x), self.balance(y)),
                rng.randrange(LOT_RANGE),
            )
            for i, x in enumerate(partnerships)
            for y in partnerships[i + 1 :]
        }
        return min_cost_perfect_matching(
            partnerships, lexicographic_costs(tiers, len(partnerships) // 2)
        )


def _choose_sit_outs(players: list[PlayerRecord], round_number: int, seed: int) -> set[int]:
    rng = lot(seed, round_number, "sit-outs")
    # A random key within each count: the lot among those who sat out least, topped up
    # from the next count when they are too few.
    order = sorted(players, key=lambda record: (record.sit_outs, rng.random()))
    return {record.player for record in order[: len(players) % 4]}


def _seat(
    first: Partnership,
    second: Partnership,
    balance: Callable[[Partnership], int],
    seats: random.Random,
) -> tuple[Partnership, Partnership]:
    """(NS, EW): the partnership that sat NS more often goes EW; equal balances by lot."""
    a, b = balance(first), balance(second)
    if a > b or (a == b and seats.random() < 0.5):
        first, second = second, first
    return _order(first, seats), _order(second, seats)


def _order(partnership: Partnership, seats: random.Random) -> Partnership:
    a, b = partnership
    return (b, a) if seats.random() < 0.5 else (a, b)


def _check(players: Sequence[PlayerRecord], round_number: int, seed: int) -> None:
    check_draw(round_number, seed)
    if len(players) < 4:
        raise DrawError("players", f"a table needs four players, not {len(players)}")
    seen: set[int] = set()
    for index, record in enumerate(players):
        where = f"players[{index}]"
        check_whole(record.player, f"{where}.player")
        if record.player in seen:
            raise DrawError(f"{where}.player", f"player {record.player} is listed twice")
        seen.add(record.player)
        for name in ("sit_outs", "ns", "ew"):
            check_whole(getattr(record, name), f"{where}.{name}", least=0)
        for name in ("partners", "opponents"):
            if record.player in getattr(record, name):
                raise DrawError(f"{where}.{name}", f"player {record.player} lists themself")
