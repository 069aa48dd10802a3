"""The JSON contract of docs/rules.md §8: deals, results, replays and errors to and from plain dicts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Seat, Team
from .checks import check_deal
from .deal import Deal, DealResult
from .declarations import Declaration, Four
from .match import MatchReplay, PlayedDeal, play_match
from .messages import filled
from .problems import InvalidDeal, InvalidMatch, Problem
from .reading import read_entry
from .rules import DEFAULT_RULES, Rules, rules_problems
from .score import score_deal
from .solo import SoloResult
from .solo_game import SoloReplay, play_solo_game, score_solo_deal


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


def errors_to_json(
    problems: Iterable[Problem], templates: Mapping[str, str] | None = None
) -> dict[str, dict[str, list[str]]]:
    """`{"errors": {"field.path": ["message", ...]}}`, paths in the order first seen; each
    message from `templates` (the translations by code) when given, else in English."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        message = p.message if templates is None else filled(p, templates.get(p.code))
        errors.setdefault(p.path, []).append(message)
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


# Two or three players, each for themselves (§9): every object keyed by seat.


def _seats(scores: Mapping[Seat, int]) -> dict[str, int]:
    return {seat.value: points for seat, points in scores.items()}


def solo_result_to_json(result: SoloResult) -> dict[str, Any]:
    """The §8 result object with seats for teams; no pot with two or three players."""
    return {
        "outcome": result.outcome.value,
        "capot": result.capot.value if result.capot else None,
        "cards": _seats(result.cards),
        "declarations": _seats(result.declarations),
        "belote": _seats(result.belote),
        "score": _seats(result.score),
        "pot_in": 0,
        "pot_awarded": dict.fromkeys(_seats(result.score), 0),
    }


def solo_replay_to_json(replay: SoloReplay) -> dict[str, Any]:
    return {
        "deals": [
            {
                "number": p.number,
                "dealer": p.dealer.value,
                "result": solo_result_to_json(p.result),
                "totals": _seats(p.totals),
                "pot": 0,
            }
            for p in replay.deals
        ],
        "totals": _seats(replay.totals),
        "pot": 0,
        "over": replay.over,
        "winner": replay.winner.value if replay.winner else None,
        "next_dealer": replay.next_dealer.value if replay.next_dealer else None,
    }


def _players(rules: object) -> int:
    """The `players` house rule; InvalidDeal when it does not read, as the deal's shape (teams
    or seats) depends on it."""
    parsed, found = rules_problems(rules)
    wrong = [p for p in found if p.path == "rules.players"]
    if wrong:
        raise InvalidDeal(found)
    return parsed.players


def deal_answer(rules: object, deal: object) -> dict[str, Any]:
    """What `python -m scoring deal` prints for a game of 2, 3 or 4; InvalidDeal otherwise."""
    if _players(rules) != 4:
        return solo_result_to_json(score_solo_deal(deal, rules))  # type: ignore[arg-type]
    return result_to_json(score_deal(deal, rules))  # type: ignore[arg-type]


def match_answer(rules: object, first_dealer: object, deals: Any) -> dict[str, Any]:
    """What `python -m scoring match` prints for a game of 2, 3 or 4; InvalidMatch otherwise."""
    try:
        players = _players(rules)
    except InvalidDeal as error:
        raise InvalidMatch(error.problems) from None
    if players != 4:
        return solo_replay_to_json(play_solo_game(rules, first_dealer, deals))  # type: ignore[arg-type]
    return replay_to_json(play_match(rules, first_dealer, deals))  # type: ignore[arg-type]
