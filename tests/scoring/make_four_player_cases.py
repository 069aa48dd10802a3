"""Write tests/scoring/data/four_player_cases.json: four-player deals and matches scored by the
engine as it was before the games of two and three (commit d329f64).

The four-player game must score exactly as it did before the `players` rule; test_properties.py
scores every case with today's engine and compares. Regenerate only to add cases, and always
with the old engine, never today's (a fixture written by the engine under test guards nothing):

    git archive d329f64 scoring | tar -x -C /tmp/old_engine
    python tests/scoring/make_four_player_cases.py /tmp/old_engine

Self-contained (the standard library and the engine given), seeded: the same cases every run.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

OLD_COMMIT = "d329f64"
SEED = 20240611
DEALS = 400
MATCHES = 40
INVALID = 40
OUT = Path(__file__).resolve().parent / "data" / "four_player_cases.json"

SEATS = ["N", "E", "S", "W"]
TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}
NEXT = {"N": "E", "E": "S", "S": "W", "W": "N"}
SUITS = ["S", "H", "D", "C"]
# Sequence order, lowest first.
RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"]
FOUR_RANKS = ["J", "9", "A", "T", "K", "Q"]
CARD_POINTS = [0, 162, *range(2, 161)]


def runs(hand: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each longest run of three or more cards of one suit in the hand, as a sequence."""
    found = []
    for suit in SUITS:
        held = sorted(RANKS.index(r) for r, s in hand if s == suit)
        start = 0
        for i in range(1, len(held) + 1):
            if i == len(held) or held[i] != held[i - 1] + 1:
                if i - start >= 3:
                    found.append(
                        {
                            "type": "sequence",
                            "length": i - start,
                            "top": RANKS[held[i - 1]],
                            "suit": suit,
                        }
                    )
                start = i
    return found


def fours(hand: list[tuple[str, str]]) -> list[dict[str, Any]]:
    ranks = [r for r, _ in hand]
    return [{"type": "four", "rank": r} for r in FOUR_RANKS if ranks.count(r) == 4]


def sparse(rng: random.Random, deal: dict[str, Any]) -> dict[str, Any]:
    """Null fields and empty lists are sometimes left out, as the contract allows."""
    if rng.random() < 0.5:
        return deal
    out = {k: v for k, v in deal.items() if v is not None}
    if "declarations" in out:
        out["declarations"] = {t: d for t, d in out["declarations"].items() if d}
        if not out["declarations"]:
            del out["declarations"]
    return out


def dealt(rng: random.Random, *, declarations: bool = True) -> dict[str, Any]:
    """A deal that real hands allow: shuffled cards, what they declare, some card points."""
    cards = [(r, s) for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    # Fours and long sequences are rare in shuffled hands: some hands are stacked with one.
    stacked: list[tuple[str, str]] = []
    if declarations and rng.random() < 0.2:
        rank = rng.choice(FOUR_RANKS)
        stacked += [(rank, suit) for suit in SUITS]
    if declarations and rng.random() < 0.2:
        length = rng.randint(4 if stacked else 5, 8 - len(stacked) if stacked else 8)
        low = rng.randint(0, 8 - length)
        suit = rng.choice(SUITS)
        stacked += [
            c for c in ((RANKS[i], suit) for i in range(low, low + length)) if c not in stacked
        ]
    stacked = stacked[:8]
    rest = [c for c in cards if c not in stacked]
    cards = stacked + rest[: 8 - len(stacked)] + rest[8 - len(stacked) :]
    order = SEATS[:]
    rng.shuffle(order)
    hands = dict(zip(order, (cards[i * 8 : (i + 1) * 8] for i in range(4)), strict=True))
    taker = rng.choice(SEATS)
    trump = rng.choice(SUITS)
    declared: dict[str, list[dict[str, Any]]] = {"NS": [], "EW": []}
    belote = None
    for seat, hand in hands.items():
        if declarations:
            for d in runs(hand) + fours(hand):
                if rng.random() < 0.85:
                    if d["type"] == "sequence" and rng.random() < 0.1:
                        # Top and suit may be left out where the result does not need them.
                        d = {"type": "sequence", "length": d["length"]}
                    declared[TEAM[seat]].append(d)
        if ("K", trump) in hand and ("Q", trump) in hand and rng.random() < 0.85:
            belote = TEAM[seat]
    for team in declared:
        rng.shuffle(declared[team])
    deal: dict[str, Any] = {
        "taker": taker,
        "trump": trump,
        "points": None,
        "capot": None,
        "belote": belote,
        "declarations": declared,
    }
    roll = rng.random()
    if roll < 0.1:
        deal["capot"] = rng.choice(["NS", "EW"])
        if rng.random() < 0.3:
            # Given anyway, agreeing with the capot.
            deal["points"] = {"team": deal["capot"], "cards": 162}
    elif roll < 0.25:
        # Card points that tie the totals without declarations: a litige, belote or not.
        deal["declarations"] = {"NS": [], "EW": []}
        mine = TEAM[taker]
        cards = {None: 81, mine: 71, OTHER[mine]: 91}[belote]
        deal["points"] = {"team": mine, "cards": cards}
    else:
        deal["points"] = {"team": rng.choice(["NS", "EW"]), "cards": rng.choice(CARD_POINTS)}
    return sparse(rng, deal)


def thrown_in(rng: random.Random) -> dict[str, Any]:
    return {"taker": None} if rng.random() < 0.7 else {"taker": None, "trump": None}


def one_deal(rng: random.Random, rules: dict[str, Any]) -> dict[str, Any]:
    if rng.random() < 0.06:
        return thrown_in(rng)
    return dealt(rng, declarations=rules.get("declarations", True))


def rotated(deal: dict[str, Any]) -> dict[str, Any]:
    """The same deal one seat on: the teams swap, so its scores swap too (for a drawn match)."""
    out = dict(deal)
    if deal.get("taker"):
        out["taker"] = NEXT[deal["taker"]]
    if deal.get("points"):
        out["points"] = {**deal["points"], "team": OTHER[deal["points"]["team"]]}
    for name in ("capot", "belote"):
        if deal.get(name):
            out[name] = OTHER[deal[name]]
    if deal.get("declarations"):
        out["declarations"] = {OTHER[t]: d for t, d in deal["declarations"].items()}
    return out


def some_rules(rng: random.Random, *, match: bool) -> dict[str, Any]:
    """A few house rules other than the defaults; sometimes none at all."""
    if rng.random() < 0.15:
        return {}
    choices: dict[str, list[Any]] = {
        "declarations": [True, False],
        "declaration_comparison": ["per_category", "highest"],
        "litige": ["carry", "made", "dedans"],
        "rounding": ["none", "nearest_ten"],
        "capot_value": [252, 250, 262, 500],
        "all_pass": ["redeal", "dealer_must_take"],
    }
    if match:
        choices |= {
            "direction": ["clockwise", "counterclockwise"],
            "target": [1000, 301, 500, 701, None],
            "max_deals": [None, None, 4, 6, 10],
            "both_reach_target": ["highest", "taker"],
            "draws": ["allowed", "play_on"],
        }
    rules = {}
    for name, values in choices.items():
        if rng.random() < 0.45:
            rules[name] = rng.choice(values)
    if rules.get("target", 1) is None and rules.get("max_deals") is None:
        rules["max_deals"] = 8
    return rules


def generate(engine: Any) -> dict[str, Any]:
    from scoring.engine import InvalidDeal, InvalidMatch, codec, play_match, score_deal

    rng = random.Random(SEED)

    def scored(rules: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return codec.result_to_json(score_deal(deal, rules))
        except InvalidDeal:
            return None

    def replayed(rules: dict[str, Any], first: str, deals: list[Any]) -> dict[str, Any] | None:
        try:
            return codec.replay_to_json(play_match(rules, first, deals))
        except InvalidMatch:
            return None

    deals = []
    while len(deals) < DEALS:
        rules = some_rules(rng, match=False)
        deal = one_deal(rng, rules)
        result = scored(rules, deal)
        if result is not None:
            deals.append({"rules": rules, "deal": deal, "result": result})

    matches = []
    while len(matches) < MATCHES:
        rules = some_rules(rng, match=True)
        first = rng.choice(SEATS)
        played: list[Any] = []
        if len(matches) % 5 == 0:
            # Equal totals after an even number of deals: a draw, or one more deal to play.
            rules = {**rules, "target": None, "max_deals": 2}
            while len(played) < 2:
                deal = dealt(rng, declarations=rules.get("declarations", True))
                if replayed(rules, first, [deal, rotated(deal)]) is not None:
                    played = [deal, rotated(deal)]
            if rules.get("draws") == "play_on":
                played.append(dealt(rng, declarations=rules.get("declarations", True)))
        answer = replayed(rules, first, played)
        misses = 0
        while (answer is None or not answer["over"]) and len(played) < 12 and misses < 20:
            deal = one_deal(rng, rules)
            if rng.random() < 0.3:
                # High card points end the match sooner, so that the target is reached.
                deal = dealt(rng, declarations=rules.get("declarations", True))
            trial = replayed(rules, first, [*played, deal])
            if trial is None:
                misses += 1
                continue
            played.append(deal)
            answer = trial
        if answer is not None and played:
            matches.append(
                {"rules": rules, "first_dealer": first, "deals": played, "result": answer}
            )

    # Entries the old engine refused: today's must refuse them on the same fields.
    invalid = []
    while len(invalid) < INVALID:
        rules = some_rules(rng, match=False)
        deal = one_deal(rng, rules)
        if deal.get("taker") is None:
            continue
        broken = json.loads(json.dumps(deal))
        how = rng.randrange(5)
        if how == 0:
            broken["points"] = {"team": "NS", "cards": rng.choice([1, 161, 163, -2])}
            broken.pop("capot", None)
        elif how == 1:
            broken["taker"] = rng.choice(["X", "NS", 3])
        elif how == 2:
            broken["trump"] = rng.choice([None, "R", "hearts"])
        elif how == 3:
            broken.setdefault("declarations", {}).setdefault("EW", []).append(
                {"type": "sequence", "length": rng.choice([2, 9]), "top": "A", "suit": "S"}
            )
        else:
            # One four shown by both teams: the same cards cannot be in two hands.
            rank = rng.choice(FOUR_RANKS)
            broken["declarations"] = {t: [{"type": "four", "rank": rank}] for t in ("NS", "EW")}
        try:
            score_deal(broken, rules)
        except InvalidDeal as error:
            paths = sorted({p.path for p in error.problems})
            invalid.append({"rules": rules, "deal": broken, "error_paths": paths})

    return {
        "about": (
            f"Four-player deals and matches scored by the engine at commit {OLD_COMMIT}, "
            "before the games of two and three; written by tests/scoring/make_four_player_cases.py."
        ),
        "engine": OLD_COMMIT,
        "seed": SEED,
        "deals": deals,
        "matches": matches,
        "invalid": invalid,
    }


def dump(cases: dict[str, Any]) -> str:
    """One case a line, so that a change to the cases reads as a diff."""
    compact = {"separators": (",", ":"), "sort_keys": True}
    head = {k: v for k, v in cases.items() if not isinstance(v, list)}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"{json.dumps(key)}:{json.dumps(value)},")
    lists = [k for k, v in cases.items() if isinstance(v, list)]
    for n, key in enumerate(lists):
        lines.append(f"{json.dumps(key)}:[")
        items = cases[key]
        for i, item in enumerate(items):
            lines.append(json.dumps(item, **compact) + ("," if i < len(items) - 1 else ""))
        lines.append("]" + ("," if n < len(lists) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write(__doc__ or "")
        return 64
    old = Path(argv[0]).resolve()
    sys.path.insert(0, str(old))
    import scoring.engine as engine

    if not Path(engine.__file__).resolve().is_relative_to(old):
        sys.stderr.write(f"scoring.engine came from {engine.__file__}, not {old}\n")
        return 1
    if hasattr(engine.codec, "deal_answer"):
        sys.stderr.write("this engine already knows games of two and three: use the old one\n")
        return 1
    cases = generate(engine)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(dump(cases), encoding="utf-8")
    print(
        f"{OUT}: {len(cases['deals'])} deals, {len(cases['matches'])} matches, "
        f"{len(cases['invalid'])} refused, {OUT.stat().st_size // 1024} KB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
