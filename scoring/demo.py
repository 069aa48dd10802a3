"""Plausible deals for the demo club and the benchmarks: random, valid, as a referee enters them."""

from __future__ import annotations

import random
from typing import Any

from scoring.engine import Rank, Seat, Suit

_SEQUENCE_TOPS = list(Rank)  # low to high: a sequence of n cards has its top at index n-1 or more


def plausible_deal(
    rng: random.Random, *, thrown_in: bool = True, declarations: bool = True
) -> dict[str, Any]:
    """A deal (docs/rules.md §8) a referee could enter; the engine does the scoring.

    Takers usually make it, about one deal in five goes dedans; some capots, litiges,
    belotes and tierces. `thrown_in` and `declarations` off give deals that always count
    and carry no declaration (the benchmarks compare like with like from run to run).
    """
    if thrown_in and rng.random() < 0.04:
        return {"taker": None}  # everyone passed
    taker = rng.choice(list(Seat))
    side, other = taker.team.value, taker.team.other.value
    entry: dict[str, Any] = {"taker": taker.value, "trump": rng.choice(list(Suit)).value}
    roll = rng.random()
    if roll < 0.04:
        entry["capot"] = side
    elif roll < 0.06:
        entry["points"] = {"team": side, "cards": 81}  # a litige, unless declarations decide
    else:
        cards = rng.randint(82, 140) if rng.random() < 0.8 else rng.randint(30, 80)
        entry["points"] = {"team": side, "cards": cards}
    if rng.random() < 0.25:
        entry["belote"] = rng.choice((side, side, other))
    if declarations and rng.random() < 0.2:
        length = rng.choice((3, 3, 3, 4))
        top = rng.choice(_SEQUENCE_TOPS[length - 1 :]).value
        suit = rng.choice(list(Suit)).value
        entry["declarations"] = {
            rng.choice((side, other)): [
                {"type": "sequence", "length": length, "top": top, "suit": suit}
            ]
        }
    return entry
