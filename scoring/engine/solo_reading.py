"""Reading a deal of two or three players: seat codes, card points and declarations, each for themselves."""

from __future__ import annotations

from .cards import POSSIBLE_CARD_POINTS, Seat, Suit
from .declarations import Declaration
from .messages import problem
from .problems import Problem
from .reading import DEAL_KEYS, _code, _integer, _is_mapping, _read_declaration, _unknown_fields
from .rules import Rules
from .solo_deal import SoloDeal, seats_in_game

_SEATS: dict[str, Seat] = {s.value: s for s in Seat}
_MISSING = object()
SOLO_POINTS_KEYS = frozenset({"cards"})


class _SeatReader:
    """Reads seat codes of one game, telling an unknown seat from one not at this table."""

    def __init__(self, rules: Rules, found: list[Problem]) -> None:
        self.seats = seats_in_game(rules)
        self.players = rules.players
        self.found = found

    def seat(self, raw: object, path: str) -> Seat | None:
        seat = _code(_SEATS, raw, "unknown_seat", path, self.found)
        if seat is None:
            return None
        if seat not in self.seats:
            self.found.append(
                problem(
                    "seat_not_in_game",
                    path,
                    value=str(raw),
                    players=self.players,
                    seats=", ".join(s.value for s in self.seats),
                )
            )
            return None
        return seat  # type: ignore[return-value]


def read_solo_entry(obj: object, rules: Rules) -> tuple[SoloDeal | None, list[Problem]]:
    """The §9 deal object read as far as it goes, with every problem of its shape and seats."""
    if not _is_mapping(obj):
        return None, [problem("not_an_object", "deal", value=obj)]
    found = _unknown_fields(obj, DEAL_KEYS, "")
    reader = _SeatReader(rules, found)

    def optional_seat(name: str) -> Seat | None:
        raw = obj.get(name)
        return None if raw is None else reader.seat(raw, name)

    if obj.get("taker", _MISSING) is _MISSING:
        found.append(problem("required", "taker"))
    taker = optional_seat("taker")
    trump = None
    if obj.get("trump") is not None:
        trump = _code({s.value: s for s in Suit}, obj["trump"], "unknown_suit", "trump", found)
    capot = optional_seat("capot")
    belote = optional_seat("belote")
    cards = _read_cards(obj.get("points"), reader)
    declarations = _read_seat_declarations(obj.get("declarations"), reader)
    deal = SoloDeal(taker, trump, cards, capot, belote, declarations)  # type: ignore[arg-type]
    return deal, found


def _read_cards(raw: object, reader: _SeatReader) -> dict[Seat, int] | None:
    found = reader.found
    if raw is None:
        return None
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "points", value=raw))
        return None
    found.extend(_unknown_fields(raw, SOLO_POINTS_KEYS, "points."))
    by_seat = raw.get("cards")
    if by_seat is None:
        found.append(problem("required", "points.cards"))
        return None
    if not _is_mapping(by_seat):
        found.append(problem("not_an_object", "points.cards", value=by_seat))
        return None
    cards: dict[Seat, int] = {}
    for key, value in by_seat.items():
        path = f"points.cards.{str(key)[:40]}"
        seat = reader.seat(key, path)
        number = _integer(value, path, found)
        if seat is not None and number is not None:
            if number not in POSSIBLE_CARD_POINTS:
                found.append(problem("impossible_card_points", path, value=number))
            cards[seat] = number
    return cards


def _read_seat_declarations(
    raw: object, reader: _SeatReader
) -> dict[Seat, tuple[Declaration, ...]]:
    found = reader.found
    declarations: dict[Seat, tuple[Declaration, ...]] = {}
    if raw is None:
        return declarations
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "declarations", value=raw))
        return declarations
    for key, items in raw.items():
        path = f"declarations.{str(key)[:40]}"
        seat = reader.seat(key, path)
        if seat is None or items is None:
            continue
        if not isinstance(items, list | tuple):
            found.append(problem("not_a_list", path, value=items))
            continue
        read = [_read_declaration(item, f"{path}.{i}", found) for i, item in enumerate(items)]
        declarations[seat] = tuple(d for d in read if d is not None)
    return declarations
