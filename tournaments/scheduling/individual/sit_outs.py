"""Who sits a round out: fairly, nobody twice before everyone once."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, islice

from ..matching import lot
from .records import PlayerRecord

# Fair choices of who sits out compared, at most SIT_OUT_PLAYERS // players of them.
SIT_OUT_PLAYERS = 2000


def fair_sit_outs(
    players: list[PlayerRecord], round_number: int, seed: int
) -> Iterator[frozenset[int]]:
    """Who may sit out, fairly: nobody twice before everyone once. The lot's choice first.

    Those who sat out least sit out; when they are more than the seats out, every way to
    choose among them is fair, and the draw compares them (up to ``SIT_OUT_PLAYERS //
    players`` of them, in the lot's order): the repeats decide, the lot only between equals.
    """
    out = len(players) % 4
    rng = lot(seed, round_number, "sit-outs")
    # A random key within each count: the lot among those who sat out least, topped up
    # from the next count when they are too few.
    order = sorted(players, key=lambda record: (record.sit_outs, rng.random()))
    if not out:
        yield frozenset()
        return
    last = order[out - 1].sit_outs
    sure = frozenset(record.player for record in order if record.sit_outs < last)
    pool = [record.player for record in order if record.sit_outs == last]
    choices = combinations(pool, out - len(sure))
    for chosen in islice(choices, max(1, SIT_OUT_PLAYERS // len(players))):
        yield sure | frozenset(chosen)
