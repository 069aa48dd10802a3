"""The JSON contract of docs/rules.md §8: deals, results, replays and errors to and from plain dicts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Team
from .checks import check_deal
from .deal import Deal, DealResult
from .declarations import Declaration, Four
from .match import MatchReplay, PlayedDeal
from .problems import InvalidDeal, Problem
from .reading import read_entry
from .rules import DEFAULT_RULES, Rules


def _teams(scores: Mapping[Team, int]) -> dict[str, int]:
    return {"NS": scores[Team.NS], "EW": scores[Team.EW]}


def result_to_json(result: DealResult) -> dict[str, Any]:
    """Exactly the §8 result object."""
    return {
        "outcome": result.outcome.value,
        "capot": result.capot.value if result.capot else None,
        "cards": _teams(result.cards),
        "declarations": _teams(result.declarations),
        "belote": _teams(result.belote),
        "score": _teams(result.score),
        "pot_in": result.pot_in,
        "pot_awarded": _teams(result.pot_awarded),
    }


def played_deal_to_json(played: PlayedDeal) -> dict[str, Any]:
    return {
        "number": played.number,
        "dealer": played.dealer.value,
        "result": result_to_json(played.result),
        "totals": _teams(played.totals),
        "pot": played.pot,
    }


def replay_to_json(replay: MatchReplay) -> dict[str, Any]:
    winner = replay.winner
    return {
        "deals": [played_deal_to_json(p) for p in replay.deals],
        "totals": _teams(replay.totals),
        "pot": replay.pot,
        "over": replay.over,
        "winner": winner.value if isinstance(winner, Team) else winner,
        "next_dealer": replay.next_dealer.value if replay.next_dealer else None,
    }


def errors_to_json(problems: Iterable[Problem]) -> dict[str, dict[str, list[str]]]:
    """`{"errors": {"field.path": ["message", ...]}}`, paths in the order first seen."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(p.path, []).append(p.message)
    return {"errors": errors}


def declaration_to_json(d: Declaration) -> dict[str, Any]:
    if isinstance(d, Four):
        return {"type": "four", "rank": d.rank.value}
    return {
        "type": "sequence",
        "length": d.length,
        "top": d.top.value if d.top else None,
        "suit": d.suit.value if d.suit else None,
    }


def deal_to_json(deal: Deal) -> dict[str, Any]:
    """The canonical §8 entry of `deal` (every field present, declarations of both teams)."""
    return {
        "taker": deal.taker.value if deal.taker else None,
        "trump": deal.trump.value if deal.trump else None,
        "points": (
            {"team": deal.points.team.value, "cards": deal.points.cards} if deal.points else None
        ),
        "capot": deal.capot.value if deal.capot else None,
        "belote": deal.belote.value if deal.belote else None,
        "declarations": {
            team.value: [declaration_to_json(d) for d in deal.declarations.get(team, ())]
            for team in (Team.NS, Team.EW)
        },
    }


def parse_deal(obj: object, rules: Rules = DEFAULT_RULES) -> Deal:
    """A valid `Deal` from the §8 entry; `InvalidDeal` with every problem otherwise."""
    reading = read_entry(obj)
    found = reading.problems
    if reading.deal is not None:
        found.extend(check_deal(reading.deal, rules, reading.broken, reading.positions))
    if found or reading.deal is None:
        raise InvalidDeal(found)
    return reading.deal
