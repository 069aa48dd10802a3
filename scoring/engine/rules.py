"""The house rules of docs/rules.md §8 as data: one frozen `Rules`, parsed from JSON once per tournament."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .cards import _Code
from .messages import problem
from .problems import InvalidDeal, Problem


class DeclarationComparison(_Code):
    PER_CATEGORY = "per_category"
    HIGHEST = "highest"


class LitigeRule(_Code):
    CARRY = "carry"
    MADE = "made"
    DEDANS = "dedans"


class Rounding(_Code):
    NONE = "none"
    NEAREST_TEN = "nearest_ten"


class AllPass(_Code):
    REDEAL = "redeal"
    DEALER_MUST_TAKE = "dealer_must_take"


class Direction(_Code):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class BothReachTarget(_Code):
    HIGHEST = "highest"
    TAKER = "taker"


class Draws(_Code):
    ALLOWED = "allowed"
    PLAY_ON = "play_on"


_CHOICES: dict[str, type[_Code]] = {
    "declaration_comparison": DeclarationComparison,
    "litige": LitigeRule,
    "rounding": Rounding,
    "all_pass": AllPass,
    "direction": Direction,
    "both_reach_target": BothReachTarget,
    "draws": Draws,
}
# Bounds keep typos (a target of 10000000) out; capot is never worth less than the deal.
_INTEGERS: dict[str, tuple[int, int]] = {
    "capot_value": (162, 1000),
    "target": (1, 100_000),
    "max_deals": (1, 1000),
    # §9: two or three players each for themselves; four is two partnerships.
    "players": (2, 4),
}
_NULLABLE = frozenset({"target", "max_deals"})


@dataclass(frozen=True, slots=True)
class Rules:
    """A tournament's house rules; every default is the rule book's."""

    declarations: bool = True
    declaration_comparison: DeclarationComparison = DeclarationComparison.PER_CATEGORY
    litige: LitigeRule = LitigeRule.CARRY
    rounding: Rounding = Rounding.NONE
    all_pass: AllPass = AllPass.REDEAL
    direction: Direction = Direction.CLOCKWISE
    capot_value: int = 252
    target: int | None = 1000
    max_deals: int | None = None
    both_reach_target: BothReachTarget = BothReachTarget.HIGHEST
    draws: Draws = Draws.ALLOWED
    players: int = 4

    def to_json(self) -> dict[str, Any]:
        """The full §8 house-rules object."""
        return {
            f.name: (v.value if isinstance(v := getattr(self, f.name), _Code) else v)
            for f in fields(self)
        }

    @classmethod
    def parse(cls, obj: Mapping[str, Any] | None) -> Rules:
        return parse_rules(obj)


RULE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))
DEFAULT_RULES = Rules()


def rules_problems(obj: object) -> tuple[Rules, list[Problem]]:
    """The rules of `obj` (defaults where a value is bad) and every problem, paths `rules.<name>`."""
    if obj is None:
        return DEFAULT_RULES, []
    if not isinstance(obj, Mapping):
        return DEFAULT_RULES, [problem("not_an_object", "rules", value=obj)]
    found: list[Problem] = []
    values: dict[str, Any] = {}
    for name, raw in obj.items():
        path = f"rules.{name}"
        if name not in RULE_NAMES:
            found.append(problem("unknown_rule", path, field=str(name)[:40]))
        elif name == "declarations":
            if isinstance(raw, bool):
                values[name] = raw
            else:
                found.append(problem("not_a_boolean", path, value=raw))
        elif name in _CHOICES:
            kind = _CHOICES[name]
            member = kind._value2member_map_.get(raw) if isinstance(raw, str) else None
            if member is None:
                choices = ", ".join(m.value for m in kind)
                found.append(problem("bad_rule_choice", path, value=raw, choices=choices))
            else:
                values[name] = member
        elif raw is None and name in _NULLABLE:
            values[name] = None
        else:
            low, high = _INTEGERS[name]
            if isinstance(raw, bool) or not isinstance(raw, int):
                found.append(problem("not_an_integer", path, value=raw))
            elif not low <= raw <= high:
                found.append(problem("rule_out_of_range", path, value=raw, low=low, high=high))
            else:
                values[name] = raw
    rules = Rules(**values)
    if rules.target is None and rules.max_deals is None and not found:
        found.append(problem("match_has_no_end", "rules.target"))
    return rules, found


def parse_rules(obj: Mapping[str, Any] | None) -> Rules:
    """`Rules` from the §8 JSON object; InvalidDeal with every `rules.<name>` problem."""
    if isinstance(obj, Rules):
        return obj
    rules, found = rules_problems(obj)
    if found:
        raise InvalidDeal(found)
    return rules
