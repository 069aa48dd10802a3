"""Builders for deal entries, and a dealer of real hands for property tests."""

from __future__ import annotations

import random
from typing import Any

from scoring.engine import Rank, Seat, Suit, Team
from scoring.engine.cards import RANKS, SEQUENCE_STRENGTH, SUITS

Entry = dict[str, Any]


def entry(
    taker: str | None = "N",
    trump: str | None = "H",
    *,
    ns: int | None = None,
    ew: int | None = None,
    capot: str | None = None,
    belote: str | None = None,
    NS: list[dict[str, Any]] | None = None,
    EW: list[dict[str, Any]] | None = None,
) -> Entry:
    """A §8 deal entry; give the card points of NS (`ns=`) or of EW (`ew=`)."""
    points = None
    if ns is not None:
        points = {"team": "NS", "cards": ns}
    elif ew is not None:
        points = {"team": "EW", "cards": ew}
    return {
        "taker": taker,
        "trump": trump if taker else None,
        "points": points,
        "capot": capot,
        "belote": belote,
        "declarations": {"NS": NS or [], "EW": EW or []},
    }


def seq(length: int, top: str | None = None, suit: str | None = None) -> dict[str, Any]:
    return {"type": "sequence", "length": length, "top": top, "suit": suit}


def four(rank: str) -> dict[str, Any]:
    return {"type": "four", "rank": rank}


CARDS = [(rank, suit) for suit in SUITS for rank in RANKS]
SEATS = [Seat.N, Seat.E, Seat.S, Seat.W]
NEXT_SEAT = {"N": "E", "E": "S", "S": "W", "W": "N"}
OTHER_TEAM = {"NS": "EW", "EW": "NS"}


def runs(hand: list[tuple[Rank, Suit]]) -> list[dict[str, Any]]:
    """The longest runs of 3 or more cards in each suit of one hand, as sequences."""
    found = []
    for suit in SUITS:
        strengths = sorted(SEQUENCE_STRENGTH[r] for r, s in hand if s is suit)
        start = 0
        for i in range(1, len(strengths) + 1):
            if i == len(strengths) or strengths[i] != strengths[i - 1] + 1:
                length = i - start
                if length >= 3:
                    found.append(seq(length, RANKS[strengths[i - 1]].value, suit.value))
                start = i
    return found


def fours(hand: list[tuple[Rank, Suit]]) -> list[dict[str, Any]]:
    ranks = [r for r, _ in hand]
    return [four(r.value) for r in RANKS if ranks.count(r) == 4 and r.value not in "78"]


def real_deal(rng: random.Random) -> tuple[Entry, list[list[tuple[Rank, Suit]]]]:
    """Deal 32 cards into four hands and enter a deal they allow (declarations, belote, points)."""
    cards = CARDS[:]
    rng.shuffle(cards)
    hands = [cards[i * 8 : (i + 1) * 8] for i in range(4)]
    if rng.random() < 0.05:
        return entry(None), hands
    taker = rng.choice(SEATS)
    trump = rng.choice(SUITS)
    declared: dict[str, list[dict[str, Any]]] = {"NS": [], "EW": []}
    belote = None
    for seat, hand in zip(SEATS, hands, strict=True):
        team = seat.team.value
        for d in runs(hand) + fours(hand):
            if rng.random() < 0.9:
                declared[team].append(d)
        if (Rank.KING, trump) in hand and (Rank.QUEEN, trump) in hand and rng.random() < 0.9:
            belote = team
    capot = None
    ns = None
    roll = rng.random()
    if roll < 0.08:
        capot = rng.choice(["NS", "EW"])
    else:
        ns = rng.choice([0, 162, *range(2, 161)])
    result = entry(
        taker.value,
        trump.value,
        ns=ns,
        capot=capot,
        belote=belote,
        NS=declared["NS"],
        EW=declared["EW"],
    )
    if capot is None and rng.random() < 0.5:
        result["points"] = {"team": "EW", "cards": 162 - ns}  # type: ignore[operator]
    return result, hands


def moved_one_seat(deal: Entry) -> Entry:
    """The same deal with every player moved one seat on: the teams swap places."""
    moved = dict(deal)
    if deal["taker"] is not None:
        moved["taker"] = NEXT_SEAT[deal["taker"]]
    if deal.get("points"):
        moved["points"] = {
            "team": OTHER_TEAM[deal["points"]["team"]],
            "cards": deal["points"]["cards"],
        }
    for name in ("capot", "belote"):
        if deal.get(name):
            moved[name] = OTHER_TEAM[deal[name]]
    decl = deal.get("declarations") or {}
    moved["declarations"] = {"NS": decl.get("EW", []), "EW": decl.get("NS", [])}
    return moved


def swapped(scores: dict[str, int]) -> dict[str, int]:
    return {"NS": scores["EW"], "EW": scores["NS"]}


__all__ = ["Team", "entry", "four", "moved_one_seat", "real_deal", "seq", "swapped"]
