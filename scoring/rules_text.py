"""The house rules in words: a label and a one-line explanation per rule of the engine's `Rules`.

The rules themselves (names, choices, defaults, bounds) are read from the engine, never
restated here; this module only says them in the reader's language.
"""

from __future__ import annotations

import enum
import typing
from dataclasses import dataclass, fields
from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.engine import Rules

# What each rule decides, in one line; the score pad shows the same lines at two or three
# players, each for themselves, so a line never says "team" alone.
RULE_TEXT: dict[str, tuple[Any, Any]] = {
    "declarations": (
        _("Declarations"),
        _("Whether sequences and fours score; when off, only belote-rebelote counts."),
    ),
    "declaration_comparison": (
        _("Comparing declarations"),
        _("Whether sequences and fours are compared separately, or only the best one scores."),
    ),
    "litige": (
        _("Litige"),
        _(
            "What a tied contract writes: its points wait in the pot, or it counts as made or dedans."
        ),
    ),
    "rounding": (
        _("Rounding"),
        _("Whether every score a deal writes is rounded to the nearest ten."),
    ),
    "all_pass": (
        _("When everyone passes"),
        _("Whether the deal is thrown in and dealt again, or the dealer must take."),
    ),
    "direction": (
        _("Direction of play"),
        _("The way the deal and the bidding go round the table."),
    ),
    "capot_value": (
        _("Value of a capot"),
        _("The card points of a team, or a player playing alone, that wins every trick."),
    ),
    "target": (
        _("Target"),
        _(
            "A match ends after the deal at which a team, or a player playing alone, reaches this total (empty: no target)."
        ),
    ),
    "max_deals": (
        _("Number of deals"),
        _("A match ends after this many deals, not counting thrown-in ones (empty: no limit)."),
    ),
    "both_reach_target": (
        _("Target reached together"),
        _("Who wins when more than one team or player passes the target in the same deal."),
    ),
    "players": (
        _("Players"),
        _("Four in two partnerships, or two or three players each for themselves."),
    ),
    "draws": (
        _("Draws"),
        _(
            "Whether a match may end level, or further deals are played until one team or player leads."
        ),
    ),
}

# How each choice reads; keyed by the engine's own codes.
CHOICE_TEXT: dict[str, Any] = {
    "per_category": _("sequences and fours compared separately"),
    "highest": _("the higher total wins"),
    "carry": _("carried in the pot to the next deal"),
    "made": _("counted as made"),
    "dedans": _("counted as dedans"),
    "none": _("no rounding"),
    "nearest_ten": _("to the nearest ten"),
    "redeal": _("thrown in, dealt again"),
    "dealer_must_take": _("the dealer must take"),
    "clockwise": _("clockwise"),
    "counterclockwise": _("counterclockwise"),
    "taker": _("whoever took trump wins"),
    "allowed": _("a level match is a draw"),
    "play_on": _("play on until one team leads (knockout)"),
}
# A code that reads differently depending on the rule.
RULE_CHOICE_TEXT: dict[tuple[str, str], Any] = {
    ("declaration_comparison", "highest"): _("only the single best declaration scores"),
}


@dataclass(frozen=True)
class RuleSpec:
    """One rule of the engine's `Rules`: its kind, its choices and its default."""

    name: str
    kind: str  # "bool", "choice" or "int"
    choices: tuple[str, ...]
    default: Any
    nullable: bool

    @property
    def label(self) -> Any:
        return RULE_TEXT.get(self.name, (self.name, ""))[0]

    @property
    def explanation(self) -> Any:
        return RULE_TEXT.get(self.name, ("", ""))[1]


def choice_label(rule: str, value: object) -> Any:
    code = str(getattr(value, "value", value))
    return RULE_CHOICE_TEXT.get((rule, code)) or CHOICE_TEXT.get(code, code)


# A tournament match is always played by four: the rule is the score pad's alone.
PAD_ONLY_RULES = frozenset({"players"})


def rule_specs(*, pad: bool = False) -> list[RuleSpec]:
    """Every rule the engine knows, in its own order, with the kind of value it takes
    (`players` only for the score pad)."""
    hints = typing.get_type_hints(Rules)
    defaults = Rules()
    specs = []
    for field in fields(Rules):
        if field.name in PAD_ONLY_RULES and not pad:
            continue
        hint = hints[field.name]
        args = typing.get_args(hint)
        nullable = type(None) in args
        base = next((a for a in args if a is not type(None)), hint) if args else hint
        default = getattr(defaults, field.name)
        if base is bool:
            specs.append(RuleSpec(field.name, "bool", (), default, nullable))
        elif isinstance(base, type) and issubclass(base, enum.Enum):
            choices = tuple(str(member.value) for member in base)
            specs.append(RuleSpec(field.name, "choice", choices, str(default.value), nullable))
        else:
            specs.append(RuleSpec(field.name, "int", (), default, nullable))
    return specs


def describe_value(spec: RuleSpec, value: object) -> Any:
    if spec.kind == "bool":
        return _("yes") if value else _("no")
    if spec.kind == "choice":
        return choice_label(spec.name, value)
    if value is None:
        return _("none")
    return str(value)


def rules_in_words(
    rules: Rules | dict[str, Any] | None, *, pad: bool = False
) -> list[dict[str, Any]]:
    """Each rule of a tournament: label, explanation, the value chosen in words, and whether it is the default."""
    from scoring.engine import parse_rules

    parsed = parse_rules(rules or {}) if not isinstance(rules, Rules) else rules
    lines = []
    for spec in rule_specs(pad=pad):
        value = getattr(parsed, spec.name)
        raw = str(value.value) if isinstance(value, enum.Enum) else value
        lines.append(
            {
                "name": spec.name,
                "label": spec.label,
                "explanation": spec.explanation,
                "value": describe_value(spec, raw),
                "is_default": raw == spec.default,
            }
        )
    return lines
