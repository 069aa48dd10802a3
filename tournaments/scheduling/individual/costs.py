"""What a table of four costs: the players' past, counted, and its best split into partnerships."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ..matching import (
    LOT_RANGE,
    lexicographic_costs,
    min_cost_perfect_matching,
    seat_balance,
    side_clash,
)
from .records import Partnership, PlayerRecord

Table = tuple[int, int, int, int]


class Past:
    """The players' records, with the counts the matchings and the search ask for over and over."""

    def __init__(self, players: Sequence[PlayerRecord]) -> None:
        self.records = {record.player: record for record in sorted(players, key=lambda r: r.player)}
        self.partners = {p: Counter(record.partners) for p, record in self.records.items()}
        self.opponents = {p: Counter(record.opponents) for p, record in self.records.items()}
        self._balance = {p: seat_balance(r.ns, r.ew) for p, r in self.records.items()}

    def partnered(self, a: int, b: int) -> int:
        # Either side's record counts, should a caller's history be lopsided.
        return max(self.partners[a][b], self.partners[b][a])

    def faced(self, a: int, b: int) -> int:
        return max(self.opponents[a][b], self.opponents[b][a])

    def balance(self, players: Partnership) -> int:
        return self._balance[players[0]] + self._balance[players[1]]

    def partnerships(self, playing: list[int], costs: TableCosts) -> list[Partnership]:
        partnered, faced, balance = costs.partnered, costs.faced, self._balance
        tiers = {
            (a, b): (
                partnered[a][b],
                0 if faced[a][b] else 1,
                side_clash(balance[a], -balance[b]),
                lot,
            )
            for (a, b), lot in costs.partner_lot.items()
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


def as_table(players: Sequence[int]) -> Table:
    a, b, c, d = sorted(players)
    return (a, b, c, d)


class TableCosts:
    """The cost of a table of four, split into its best two partnerships, one integer each.

    A table costs ``weight`` for each time its partners already partnered, plus one for each
    time two of its opponents already faced each other; ``weight`` is more than all the
    opponents of a round can repeat, so summed over the tables the partners decide first.
    Of the three ways to split four players, the cheapest is kept, then the one whose
    partnerships' seat needs clash least, then the lot of its partnerships.
    """

    def __init__(self, past: Past, playing: list[int], rng: random.Random) -> None:
        self.past = past
        self.partner_lot = {
            (a, b): rng.randrange(LOT_RANGE)
            for i, a in enumerate(playing)
            for b in playing[i + 1 :]
        }
        # The counts as plain lookups: the search asks for them millions of times.
        self.partnered = {a: dict.fromkeys(playing, 0) for a in playing}
        self.faced = {a: dict.fromkeys(playing, 0) for a in playing}
        for counts, history in ((self.partnered, past.partners), (self.faced, past.opponents)):
            for a in playing:
                for b, times in history[a].items():
                    # Either side's record counts, as in Past.
                    if b in counts and times > counts[a][b]:
                        counts[a][b] = counts[b][a] = times
        most = max((self.faced[a][b] for a, b in self.partner_lot), default=0)
        self.weight = 4 * most * (len(playing) // 4) + 1
        # A table is known by the set of its players, one bit each.
        self.bit = {player: 1 << index for index, player in enumerate(playing)}
        self.cache: dict[int, tuple[int, tuple[Partnership, Partnership]]] = {}

    def sorted_table(self, x: Partnership, y: Partnership) -> Table:
        return as_table(x + y)

    def key(self, table: Sequence[int]) -> int:
        bit = self.bit
        return bit[table[0]] | bit[table[1]] | bit[table[2]] | bit[table[3]]

    def cost(self, table: Sequence[int]) -> int:
        return self.best(self.key(table), table)[0]

    def split(self, table: Sequence[int]) -> tuple[Partnership, Partnership]:
        return self.best(self.key(table), table)[1]

    def best(self, key: int, table: Sequence[int]) -> tuple[int, tuple[Partnership, Partnership]]:
        known = self.cache.get(key)
        if known is not None:
            return known
        a, b, c, d = sorted(table)
        pa, pb, pc = self.partnered[a], self.partnered[b], self.partnered[c]
        fa, fb, fc = self.faced[a], self.faced[b], self.faced[c]
        # Opponents are the four pairs that are not partners: all six minus the two.
        every = fa[b] + fa[c] + fa[d] + fb[c] + fb[d] + fc[d]
        weight = self.weight
        options = [
            ((pa[b] + pc[d]) * weight + every - fa[b] - fc[d], ((a, b), (c, d))),
            ((pa[c] + pb[d]) * weight + every - fa[c] - fb[d], ((a, c), (b, d))),
            ((pa[d] + pb[c]) * weight + every - fa[d] - fb[c], ((a, d), (b, c))),
        ]
        cost = min(option[0] for option in options)
        splits = [split for option, split in options if option == cost]
        if len(splits) > 1:
            splits.sort(
                key=lambda s: (
                    side_clash(self.past.balance(s[0]), self.past.balance(s[1])),
                    self.partner_lot[s[0]] + self.partner_lot[s[1]],
                )
            )
        split = splits[0]
        self.cache[key] = (cost, split)
        return cost, split
