"""Deals scored and 16-deal matches replayed per second by the scoring engine, beside a floor.

Run: .venv/bin/python bench/scoring_bench.py

The deals are dealt from real shuffled hands (tests/scoring/helpers.py): every one is valid, with
the declarations and belote those hands hold, some capots and some thrown-in deals. Rates are per
CPU second of this process (`time.process_time`), best of five, so that other work on a shared
machine does not count against the engine. The engine and the floor are timed in turn in the
same run, so their ratio is not skewed by the machine getting busier in between.

The floor, `plain_result`, scores the same raw dicts with no validation at all and builds the
same §8 result object: it is how fast scoring a deal can be in plain Python, so the engine's
ratio to it is the price of its checks and typed values. The bench first checks that the floor
agrees with the engine on every deal, so the floor is not cheap because it is wrong.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine import Rules, codec, play_match, score_deal
from scoring.engine.declarations import FOUR_POINTS, SEQUENCE_POINTS
from tests.scoring.helpers import real_deal

DEALS = 20_000
REPEAT = 5

# The floor's own tables: a second, independent reading of docs/rules.md §2 and §4 (the
# declarations' points are the engine's SEQUENCE_POINTS and FOUR_POINTS, not copied here).
_STRENGTH = {rank: i for i, rank in enumerate("789TJQKA")}
_FOUR_ORDER = {"J": 6, "9": 5, "A": 4, "T": 3, "K": 2, "Q": 1}
_TAKES_FOR_NS = {"N": True, "S": True, "E": False, "W": False}


def _team_declarations(items: list[dict[str, Any]], trump: str) -> tuple[Any, int, int, int]:
    """Best sequence, its team's sequence points, best four, its team's four points."""
    best_sequence = None
    sequence_points = best_four = four_points = 0
    for declared in items:
        if declared["type"] == "sequence":
            top = declared.get("top")
            key = (declared["length"], _STRENGTH[top] if top else -1, declared.get("suit") == trump)
            if best_sequence is None or key > best_sequence:
                best_sequence = key
            sequence_points += SEQUENCE_POINTS[declared["length"]]
        else:
            best_four = max(best_four, _FOUR_ORDER[declared["rank"]])
            four_points += FOUR_POINTS[declared["rank"]]
    return best_sequence, sequence_points, best_four, four_points


def plain_result(deal: dict[str, Any]) -> dict[str, Any]:
    """The §8 result of a valid deal under the default house rules, trusting every field."""
    taker = deal["taker"]
    if taker is None:
        return {
            "outcome": "thrown_in",
            "capot": None,
            "cards": {"NS": 0, "EW": 0},
            "declarations": {"NS": 0, "EW": 0},
            "belote": {"NS": 0, "EW": 0},
            "score": {"NS": 0, "EW": 0},
            "pot_in": 0,
            "pot_awarded": {"NS": 0, "EW": 0},
        }
    capot = deal.get("capot")
    if capot:
        value = 252
        cards_ns = value if capot == "NS" else 0
    else:
        value = 162
        points = deal["points"]
        cards_ns = points["cards"] if points["team"] == "NS" else 162 - points["cards"]
    declarations_ns = declarations_ew = 0
    declared = deal.get("declarations") or {}
    if declared.get("NS") or declared.get("EW"):
        trump = deal["trump"]
        ns_seq, ns_seq_points, ns_four, ns_four_points = _team_declarations(
            declared.get("NS") or [], trump
        )
        ew_seq, ew_seq_points, ew_four, ew_four_points = _team_declarations(
            declared.get("EW") or [], trump
        )
        if ns_seq is not None and (ew_seq is None or ns_seq > ew_seq):
            declarations_ns += ns_seq_points
        elif ew_seq is not None and (ns_seq is None or ew_seq > ns_seq):
            declarations_ew += ew_seq_points
        if ns_four > ew_four:
            declarations_ns += ns_four_points
        elif ew_four > ns_four:
            declarations_ew += ew_four_points
    belote = deal.get("belote")
    belote_ns = 20 if belote == "NS" else 0
    belote_ew = 20 if belote == "EW" else 0
    taker_ns = _TAKES_FOR_NS[taker]
    if taker_ns:
        c_t, d_t, b_t, d_d, b_d = cards_ns, declarations_ns, belote_ns, declarations_ew, belote_ew
    else:
        c_t, d_t, b_t = value - cards_ns, declarations_ew, belote_ew
        d_d, b_d = declarations_ns, belote_ns
    total_t = c_t + d_t + b_t
    total_d = value - c_t + d_d + b_d
    pot_in = 0
    if (capot and capot != ("NS" if taker_ns else "EW")) or total_t < total_d:
        outcome, written_t, written_d = "dedans", b_t, value + d_t + d_d + b_d
    elif total_t > total_d:
        outcome, written_t, written_d = "made", total_t, total_d
    else:
        outcome, written_t, written_d, pot_in = "litige", b_t, total_d, c_t + d_t
    return {
        "outcome": outcome,
        "capot": capot,
        "cards": {"NS": cards_ns, "EW": value - cards_ns},
        "declarations": {"NS": declarations_ns, "EW": declarations_ew},
        "belote": {"NS": belote_ns, "EW": belote_ew},
        "score": (
            {"NS": written_t, "EW": written_d} if taker_ns else {"NS": written_d, "EW": written_t}
        ),
        "pot_in": pot_in,
        "pot_awarded": {"NS": 0, "EW": 0},
    }


def best_rates(works: Sequence[Callable[[Any], object]], items: list[Any]) -> list[float]:
    """Items per CPU second of each work, best of REPEAT rounds, the works timed in turn."""
    best = [float("inf")] * len(works)
    for _ in range(REPEAT):
        for i, work in enumerate(works):
            start = time.process_time()
            for item in items:
                work(item)
            best[i] = min(best[i], time.process_time() - start)
    return [len(items) / seconds for seconds in best]


def show(label: str, per_second: float, unit: str) -> None:
    print(f"{label:<34} {per_second:>10,.0f} {unit}/s")


def main() -> None:
    rng = random.Random(2)
    rules = Rules()
    entries = [real_deal(rng)[0] for _ in range(DEALS)]
    disagree = [e for e in entries if plain_result(e) != codec.result_to_json(score_deal(e))]
    if disagree:
        sys.exit(f"the floor disagrees with the engine on {len(disagree)} deals: {disagree[0]}")
    typed = [codec.parse_deal(e) for e in entries]
    (typed_rate,) = best_rates([lambda d: score_deal(d, rules)], typed)
    show("score_deal, typed Deal", typed_rate, "deals")
    raw_rate, floor_rate = best_rates([lambda d: score_deal(d, rules), plain_result], entries)
    show("score_deal, raw mapping", raw_rate, "deals")
    show("plain dict scorer (floor)", floor_rate, "deals")
    print(
        f"score_deal raw: {raw_rate:,.0f} deals/s, floor {floor_rate:,.0f} deals/s, "
        f"ratio {floor_rate / raw_rate:.2f}×"
    )
    open_ended = Rules(target=None, max_deals=16)
    matches = [typed[i : i + 16] for i in range(0, 16 * 1000, 16)]
    (typed_matches,) = best_rates([lambda m: play_match(open_ended, "N", m)], matches)
    show("play_match, 16 typed deals", typed_matches, "matches")
    raw_matches = [entries[i : i + 16] for i in range(0, 16 * 1000, 16)]
    (raw_match_rate,) = best_rates([lambda m: play_match(open_ended, "N", m)], raw_matches)
    show("play_match, 16 raw deals", raw_match_rate, "matches")


if __name__ == "__main__":
    main()
