"""Reading a raw JSON-shaped deal entry (any garbage) into a `Deal`, reporting every shape problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .cards import Rank, Seat, Suit, Team
from .deal import Deal, Points
from .declarations import Declaration, Four, Sequence
from .messages import problem
from .problems import Problem

DEAL_FIELDS = ("taker", "trump", "points", "capot", "belote", "declarations")
DEAL_KEYS = frozenset(DEAL_FIELDS)
POINTS_KEYS = frozenset({"team", "cards"})
SEQUENCE_KEYS = frozenset({"type", "length", "top", "suit"})
FOUR_KEYS = frozenset({"type", "rank"})
_SEATS: dict[str, Seat] = {s.value: s for s in Seat}
_TEAMS: dict[str, Team] = {t.value: t for t in Team}
_SUITS: dict[str, Suit] = {s.value: s for s in Suit}
_RANKS: dict[str, Rank] = {r.value: r for r in Rank}
_MISSING = object()


@dataclass
class Reading:
    """A raw entry read as far as it goes: `broken` names the fields that could not be read,
    so the rule checks skip them instead of reporting a consequence twice."""

    deal: Deal | None
    problems: list[Problem] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)
    # Where each kept declaration stood in the entry's list, for its path.
    positions: dict[Team, tuple[int, ...]] = field(default_factory=dict)


def _code(
    table: Mapping[str, object], raw: object, code: str, path: str, found: list[Problem]
) -> object:
    value = table.get(raw) if isinstance(raw, str) else None
    if value is None:
        found.append(problem(code, path, value=raw))
    return value


def _integer(raw: object, path: str, found: list[Problem]) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int):
        found.append(problem("not_an_integer", path, value=raw))
        return None
    return raw


def _is_mapping(obj: object) -> TypeGuard[Mapping[Any, Any]]:
    # An exact dict first: the ABC check is slow, and JSON gives dicts.
    return type(obj) is dict or isinstance(obj, Mapping)


def _unknown_fields(
    obj: Mapping[object, object], known: frozenset[str], prefix: str
) -> list[Problem]:
    if obj.keys() <= known:
        return []
    return [
        problem("unknown_field", f"{prefix}{key}", field=str(key)[:40])
        for key in obj
        if key not in known
    ]


def read_entry(obj: object) -> Reading:
    """Read the §8 deal object; never raises for bad input."""
    if not _is_mapping(obj):
        return Reading(None, [problem("not_an_object", "deal", value=obj)], set(DEAL_FIELDS))
    found = _unknown_fields(obj, DEAL_KEYS, "")
    broken: set[str] = set()

    def optional(name: str, table: Mapping[str, object], code: str) -> object:
        raw = obj.get(name)
        if raw is None:
            return None
        value = _code(table, raw, code, name, found)
        if value is None:
            broken.add(name)
        return value

    taker = None
    raw_taker = obj.get("taker", _MISSING)
    if raw_taker is _MISSING:
        found.append(problem("required", "taker"))
        broken.add("taker")
    else:
        taker = optional("taker", _SEATS, "unknown_seat")
    trump = optional("trump", _SUITS, "unknown_suit")
    capot = optional("capot", _TEAMS, "unknown_team")
    belote = optional("belote", _TEAMS, "unknown_team")
    points = _read_points(obj.get("points"), found, broken)
    declarations, positions = _read_declarations(obj.get("declarations"), found, broken)
    deal = Deal(taker, trump, points, capot, belote, declarations)  # type: ignore[arg-type]
    return Reading(deal, found, broken, positions)


def _read_points(raw: object, found: list[Problem], broken: set[str]) -> Points | None:
    if raw is None:
        return None
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "points", value=raw))
        broken.add("points")
        return None
    before = len(found)
    found.extend(_unknown_fields(raw, POINTS_KEYS, "points."))
    team = cards = None
    if raw.get("team") is None:
        found.append(problem("required", "points.team"))
    else:
        team = _code(_TEAMS, raw["team"], "unknown_team", "points.team", found)
    if raw.get("cards") is None:
        found.append(problem("required", "points.cards"))
    else:
        cards = _integer(raw["cards"], "points.cards", found)
    if len(found) > before or team is None or cards is None:
        broken.add("points")
        return None
    return Points(team, cards)  # type: ignore[arg-type]


def _read_declarations(
    raw: object, found: list[Problem], broken: set[str]
) -> tuple[dict[Team, tuple[Declaration, ...]], dict[Team, tuple[int, ...]]]:
    declarations: dict[Team, tuple[Declaration, ...]] = {}
    positions: dict[Team, tuple[int, ...]] = {}
    if raw is None:
        return declarations, positions
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "declarations", value=raw))
        broken.add("declarations")
        return declarations, positions
    for key, items in raw.items():
        path = f"declarations.{str(key)[:40]}"
        team = _TEAMS.get(key) if isinstance(key, str) else None
        if team is None:
            found.append(problem("unknown_team", path, value=key))
            broken.add("declarations")
            continue
        if items is None:
            continue
        if not isinstance(items, list | tuple):
            found.append(problem("not_a_list", path, value=items))
            broken.add("declarations")
            continue
        kept: list[Declaration] = []
        kept_at: list[int] = []
        for i, item in enumerate(items):
            declaration = _read_declaration(item, f"{path}.{i}", found)
            if declaration is None:
                broken.add("declarations")
            else:
                kept.append(declaration)
                kept_at.append(i)
        declarations[team] = tuple(kept)
        positions[team] = tuple(kept_at)
    return declarations, positions


def _read_declaration(item: object, path: str, found: list[Problem]) -> Declaration | None:
    if not _is_mapping(item):
        found.append(problem("not_an_object", path, value=item))
        return None
    kind = item.get("type")
    before = len(found)
    if kind == "sequence":
        found.extend(_unknown_fields(item, SEQUENCE_KEYS, path + "."))
        length = None
        if item.get("length") is None:
            found.append(problem("required", path + ".length"))
        else:
            length = _integer(item["length"], path + ".length", found)
        top = suit = None
        if item.get("top") is not None:
            top = _code(_RANKS, item["top"], "unknown_rank", path + ".top", found)
        if item.get("suit") is not None:
            suit = _code(_SUITS, item["suit"], "unknown_suit", path + ".suit", found)
        if len(found) > before or length is None:
            return None
        return Sequence(length, top, suit)  # type: ignore[arg-type]
    if kind == "four":
        found.extend(_unknown_fields(item, FOUR_KEYS, path + "."))
        rank = None
        if item.get("rank") is None:
            found.append(problem("required", path + ".rank"))
        else:
            rank = _code(_RANKS, item["rank"], "unknown_rank", path + ".rank", found)
        if len(found) > before or rank is None:
            return None
        return Four(rank)  # type: ignore[arg-type]
    if kind is None:
        found.append(problem("required", path + ".type"))
    else:
        found.append(problem("unknown_declaration_type", path + ".type", value=kind))
    return None
