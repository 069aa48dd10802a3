"""The draw of one round: each fair choice of who sits out searched, then sides and table numbers."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..matching import DrawError, check_draw, check_whole, lot
from .costs import Partnership, Past, Table, TableCosts, as_table
from .records import IndividualRound, IndividualTable, PlayerRecord
from .search import EXHAUSTIVE_PLAYERS, exhaustive, improve, perturbed
from .sit_outs import fair_sit_outs

__all__ = ["IndividualRound", "IndividualTable", "PlayerRecord", "draw_individual_round"]

# Of the fair choices of who sits out, the SEARCHED_SIT_OUTS cheapest are searched in full.
SEARCHED_SIT_OUTS = 3


def draw_individual_round(
    players: Sequence[PlayerRecord], *, round_number: int, seed: int
) -> IndividualRound:
    """Draw round ``round_number`` for ``players`` (at least four); same inputs, same round.

    ``seed`` is the tournament's ``draw_seed``. Raises
    :class:`~tournaments.scheduling.matching.DrawError` naming the field of a wrong input.
    """
    _check(players, round_number, seed)
    past = Past(players)
    # Each fair choice of who sits out is seated quickly (the matchings and the local
    # search); the few that came out cheapest are then searched in full.
    screened: list[tuple[tuple[int, int], int, _Seating, TableCosts, int]] = []
    for order, sit_outs in enumerate(
        fair_sit_outs(list(past.records.values()), round_number, seed)
    ):
        playing = [player for player in past.records if player not in sit_outs]
        costs = TableCosts(past, playing, lot(seed, round_number, "partners"))
        partnerships = past.partnerships(playing, costs)
        # No draw repeats fewer partners than this matching: the floor of every draw's cost.
        floor = costs.weight * sum(costs.partnered[a][b] for a, b in partnerships)
        tables = [
            costs.sorted_table(x, y)
            for x, y in past.tables(partnerships, lot(seed, round_number, "tables"))
        ]
        if sum(map(costs.cost, tables)) > floor:
            tables = improve(tables, costs, past)
        quick = _Seating.of(sit_outs, tables, costs)
        screened.append((quick.repeats, order, quick, costs, floor))
        if quick.repeats == (0, 0):
            break  # nothing repeats: no choice does better
    screened.sort(key=lambda entry: entry[:2])
    best = screened[0][2]
    for _repeats, _order, quick, costs, floor in screened[:SEARCHED_SIT_OUTS]:
        if (floor // costs.weight, 0) >= best.repeats:
            continue  # no seating of these players beats the best one found
        tables = [as_table(x + y) for x, y in quick.split]
        tables = perturbed(tables, costs, past, floor, lot(seed, round_number, "search"))
        if len(costs.bit) <= EXHAUSTIVE_PLAYERS and sum(map(costs.cost, tables)) > floor:
            tables = exhaustive(tables, costs)
        searched = _Seating.of(quick.sit_outs, tables, costs)
        if searched.repeats < best.repeats:
            best = searched
    split = best.split

    seats = lot(seed, round_number, "sides")
    seated = [_seat(x, y, past.balance, seats) for x, y in split]
    lot(seed, round_number, "table numbers").shuffle(seated)
    return IndividualRound(
        round=round_number,
        tables=tuple(
            IndividualTable(number, ns, ew) for number, (ns, ew) in enumerate(seated, start=1)
        ),
        sit_outs=tuple(sorted(best.sit_outs)),
        repeated_partners=sum(1 for x, y in split for a, b in (x, y) if past.partnered(a, b)),
        repeated_opponents=sum(1 for x, y in split for a in x for b in y if past.faced(a, b)),
    )


@dataclass(frozen=True, slots=True)
class _Seating:
    """Tables found for one choice of who sits out, split into partnerships."""

    sit_outs: frozenset[int]
    split: list[tuple[Partnership, Partnership]]
    # (times partners partnered before, times opponents faced before): compared in order.
    repeats: tuple[int, int]

    @classmethod
    def of(cls, sit_outs: frozenset[int], tables: list[Table], costs: TableCosts) -> _Seating:
        split = [costs.split(table) for table in tables]
        partnered, faced = costs.partnered, costs.faced
        return cls(
            sit_outs,
            split,
            (
                sum(partnered[a][b] for x, y in split for a, b in (x, y)),
                sum(faced[a][b] for x, y in split for a in x for b in y),
            ),
        )


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
