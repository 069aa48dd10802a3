"""A pad's game through the engine: players, house rules and deals in, the replay or its errors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.text import hidden_character_problem
from scoring.engine import InvalidDeal, InvalidMatch, codec
from scoring.engine.rules import rules_problems
from scoring.translation import problem_message

MAX_NAME = 40
MAX_DEALS = 1000
# Seats in the order players are named: partners N and S, then E and W, at four.
SEATS = {2: ("N", "S"), 3: ("N", "E", "S"), 4: ("N", "E", "S", "W")}

Errors = dict[str, list[str]]


def game_rules(players: object, rules: object) -> tuple[dict[str, Any], Errors]:
    """The house rules with `players` from the number of names; errors naming `players`."""
    errors: Errors = {}
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        return {}, {"rules": [_("Expected an object.")]}
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return dict(rules), {"players": [_("Give the players' names as a list.")]}
    names = [" ".join(p.split()) for p in players]
    if not 2 <= len(names) <= 4:
        count = len(names)
        errors["players"] = [
            ngettext(
                "A game has 2, 3 or 4 players, not %(count)d.",
                "A game has 2, 3 or 4 players, not %(count)d.",
                count,
            )
            % {"count": count}
        ]
    elif any(not name or len(name) > MAX_NAME for name in names):
        errors["players"] = [_("Each player needs a name of at most 40 characters.")]
    elif hidden := next(
        filter(None, (hidden_character_problem(n, label=_("A player's name")) for n in names)),
        None,
    ):
        errors["players"] = [hidden]
    elif "players" in rules and rules["players"] != len(names):
        errors["rules.players"] = [
            _("%(rule)s players in the house rules, but %(count)d names.")
            % {"rule": rules["players"], "count": len(names)}
        ]
    full = {**rules, "players": len(names)} if not errors else dict(rules)
    _parsed, found = rules_problems(full)
    for problem in found:
        errors.setdefault(problem.path, []).append(problem_message(problem))
    return full, errors


def replay(rules: dict[str, Any], first_dealer: object, deals: Sequence[object]) -> dict[str, Any]:
    """The game in the `python -m scoring match` shape; `InvalidMatch` with every problem."""
    if len(deals) > MAX_DEALS:
        raise InvalidMatch([])
    return codec.match_answer(rules, first_dealer, list(deals))


def replay_errors(error: InvalidDeal | InvalidMatch) -> Errors:
    errors: Errors = {}
    for problem in error.problems:
        errors.setdefault(problem.path, []).append(problem_message(problem))
    return errors or {"deals": [_("Too many deals.")]}


def for_one_deal(errors: Errors, index: int) -> Errors:
    """A replay's errors seen from the deal at `index`: `deals.3.points.cards` → `points.cards`."""
    prefix = f"deals.{index}"
    found: Errors = {}
    for path, messages in errors.items():
        if path == prefix:
            path = "deal"
        elif path.startswith(prefix + "."):
            path = path[len(prefix) + 1 :]
        found.setdefault(path, []).extend(messages)
    return found
