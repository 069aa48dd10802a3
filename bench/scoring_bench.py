"""Deals scored and 16-deal matches replayed per second by the scoring engine, on one core.

Run: .venv/bin/python bench/scoring_bench.py
Rates are per CPU second of this process (`time.process_time`), best of three, so that other
work on a shared machine does not count against the engine.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine import Rules, codec, play_match, score_deal

SEATS = ["N", "E", "S", "W"]


def sample_entries(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """A realistic mix: mostly plain deals, some belote, tierces and fifties, capots, litiges."""
    entries = []
    for _ in range(count):
        taker = rng.choice(SEATS)
        deal: dict[str, Any] = {"taker": taker, "trump": rng.choice("SHDC")}
        roll = rng.random()
        if roll < 0.05:
            deal["capot"] = rng.choice(["NS", "EW"])
        else:
            deal["points"] = {
                "team": rng.choice(["NS", "EW"]),
                "cards": rng.choice([81, *range(40, 123)]),
            }
        if rng.random() < 0.3:
            deal["belote"] = rng.choice(["NS", "EW"])
            trump_free = [s for s in "SHDC" if s != deal["trump"]]
        else:
            trump_free = list("SHDC")
        if rng.random() < 0.4:
            deal["declarations"] = {
                "NS": [{"type": "sequence", "length": 3, "top": "A", "suit": trump_free[0]}],
                "EW": [
                    {
                        "type": "sequence",
                        "length": rng.choice([3, 4]),
                        "top": "T",
                        "suit": trump_free[1],
                    }
                ],
            }
        entries.append(deal)
    return entries


def rate(label: str, work: Any, items: list[Any], unit: str, repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            work(item)
        best = min(best, time.process_time() - start)
    print(f"{label:<34} {len(items) / best:>10,.0f} {unit}/s")


def main() -> None:
    rng = random.Random(2)
    rules = Rules()
    entries = sample_entries(20_000, rng)
    typed = [codec.parse_deal(e) for e in entries]
    rate("score_deal, typed Deal", lambda d: score_deal(d, rules), typed, "deals")
    rate("score_deal, raw mapping", lambda d: score_deal(d, rules), entries, "deals")
    matches = [typed[i : i + 16] for i in range(0, 16 * 1000, 16)]
    open_ended = Rules(target=None, max_deals=16)
    rate("play_match, 16 typed deals", lambda m: play_match(open_ended, "N", m), matches, "matches")
    raw_matches = [entries[i : i + 16] for i in range(0, 16 * 1000, 16)]
    rate(
        "play_match, 16 raw deals", lambda m: play_match(open_ended, "N", m), raw_matches, "matches"
    )


if __name__ == "__main__":
    main()
