"""The `prizes` setting read and checked: every problem names its path (`prizes.lines[2].percent`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from .values import (
    AMOUNT_MAX,
    CATEGORY_MAX_LENGTH,
    CENT,
    DEFAULT_ROUNDING,
    KIND_MAX_LENGTH,
    LINE_KEYS,
    LINES_MAX,
    PLACE_MAX,
    POOL_KEYS,
    ROUNDINGS,
    SETTING_KEYS,
    InvalidPrizes,
    Line,
    Prizes,
    Problem,
)


def _number(value: Any) -> Decimal | None:
    """A JSON number (not a boolean) or a decimal string, as a Decimal; None if it is none."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _money(value: Any, path: str, found: list[Problem]) -> Decimal | None:
    number = _number(value)
    if number is None:
        found.append(Problem(path, "not_an_amount", {"value": value}))
    elif not 0 <= number <= AMOUNT_MAX or number != number.quantize(CENT):
        found.append(Problem(path, "amount_range", {"value": value, "max": AMOUNT_MAX}))
    else:
        return number.quantize(CENT)
    return None


def _percent(value: Any, path: str, found: list[Problem]) -> Decimal | None:
    number = _number(value)
    if number is None or not 0 <= number <= 100:
        found.append(Problem(path, "percent_range", {"value": value}))
        return None
    return number


def _place(value: Any, path: str, found: list[Problem]) -> int | None:
    place = _whole(value)
    if place is None:
        found.append(Problem(path, "not_a_place", {"value": value}))
    elif not 1 <= place <= PLACE_MAX:
        found.append(Problem(path, "place_range", {"value": value, "max": PLACE_MAX}))
    else:
        return place
    return None


def _unknown(value: Mapping[str, Any], known: frozenset[str], path: str) -> list[Problem]:
    return [
        Problem(f"{path}.{key}", "unknown_key", {"key": key, "known": ", ".join(sorted(known))})
        for key in value
        if key not in known
    ]


def _read_places(raw: Mapping[str, Any], path: str, found: list[Problem]) -> Any:
    """The places a line covers: a tuple, None for the last place, or False when unread."""
    chosen = [key for key in ("place", "places", "every", "last") if key in raw]
    if not chosen:
        if "from" in raw or "to" in raw:
            found.append(Problem(f"{path}.every", "from_to_without_every"))
        else:
            found.append(Problem(path, "no_place"))
        return False
    if len(chosen) > 1:
        found.append(Problem(f"{path}.{chosen[1]}", "two_places", {"keys": ", ".join(chosen)}))
        return False
    key = chosen[0]
    if key != "every" and ("from" in raw or "to" in raw):
        found.append(
            Problem(f"{path}.{'from' if 'from' in raw else 'to'}", "from_to_without_every")
        )
        return False
    if key == "place":
        place = _place(raw["place"], f"{path}.place", found)
        return (place,) if place else False
    if key == "places":
        value = raw["places"]
        if not isinstance(value, list) or len(value) != 2:
            found.append(Problem(f"{path}.places", "places_pair", {"value": value}))
            return False
        first = _place(value[0], f"{path}.places[0]", found)
        last = _place(value[1], f"{path}.places[1]", found)
        if not first or not last:
            return False
        if last < first:
            found.append(Problem(f"{path}.places", "places_order", {"first": first, "last": last}))
            return False
        return tuple(range(first, last + 1))
    if key == "last":
        if raw["last"] is not True:
            found.append(Problem(f"{path}.last", "last_true"))
            return False
        if raw.get("category"):
            found.append(Problem(f"{path}.category", "category_needs_place"))
            return False
        return None
    every = _place(raw["every"], f"{path}.every", found)
    start = _place(raw.get("from", every or 1), f"{path}.from", found)
    if "to" not in raw:
        found.append(Problem(f"{path}.to", "every_needs_to"))
        return False
    end = _place(raw["to"], f"{path}.to", found)
    if not every or not start or not end:
        return False
    if end < start:
        found.append(Problem(f"{path}.to", "to_before_from", {"start": start, "end": end}))
        return False
    if raw.get("category"):
        found.append(Problem(f"{path}.category", "category_needs_place"))
        return False
    return tuple(range(start, end + 1, every))


def _read_line(index: int, raw: Any, found: list[Problem]) -> Line | None:
    path = f"prizes.lines[{index}]"
    if not isinstance(raw, dict):
        found.append(Problem(path, "not_an_object", {"value": raw}))
        return None
    before = len(found)
    found.extend(_unknown(raw, LINE_KEYS, path))
    places = _read_places(raw, path, found)
    amount = percent = None
    if "amount" in raw and "percent" in raw:
        found.append(Problem(f"{path}.percent", "amount_and_percent"))
    elif "amount" in raw:
        amount = _money(raw["amount"], f"{path}.amount", found)
    elif "percent" in raw:
        percent = _percent(raw["percent"], f"{path}.percent", found)
    kind = raw.get("kind", "")
    if not isinstance(kind, str) or len(kind) > KIND_MAX_LENGTH:
        found.append(Problem(f"{path}.kind", "kind_text", {"max": KIND_MAX_LENGTH}))
        kind = ""
    kind = " ".join(kind.split())
    category = raw.get("category", "")
    if not isinstance(category, str) or len(category) > CATEGORY_MAX_LENGTH:
        found.append(Problem(f"{path}.category", "category_text", {"max": CATEGORY_MAX_LENGTH}))
        category = ""
    category = " ".join(category.split())
    if "category" in raw and not category and not any(p.path == f"{path}.category" for p in found):
        found.append(Problem(f"{path}.category", "category_text", {"max": CATEGORY_MAX_LENGTH}))
    if not any(key in raw for key in ("amount", "percent")) and not kind:
        found.append(Problem(path, "no_prize"))
    if len(found) > before or places is False:
        return None
    return Line(index, places, amount, percent, kind, category)


def read_prizes(value: Any) -> Prizes | None:
    """The setting read, or `InvalidPrizes` with every problem; None stays None (no prizes)."""
    if value is None:
        return None
    found: list[Problem] = []
    if not isinstance(value, dict):
        raise InvalidPrizes([Problem("prizes", "not_an_object", {"value": value})])
    found.extend(_unknown(value, SETTING_KEYS, "prizes"))
    percent_of_fees, added = Decimal(0), Decimal(0)
    pool = value.get("pool", {})
    if pool is None:
        pool = {}
    if not isinstance(pool, dict):
        found.append(Problem("prizes.pool", "not_an_object", {"value": pool}))
    else:
        found.extend(_unknown(pool, POOL_KEYS, "prizes.pool"))
        if "percent_of_fees" in pool:
            percent_of_fees = _percent(
                pool["percent_of_fees"], "prizes.pool.percent_of_fees", found
            ) or Decimal(0)
        if "added" in pool:
            added = _money(pool["added"], "prizes.pool.added", found) or Decimal(0)
    rounding = DEFAULT_ROUNDING
    if "rounding" in value:
        number = _number(value["rounding"])
        if number is None or number not in ROUNDINGS:
            found.append(
                Problem(
                    "prizes.rounding",
                    "rounding_choice",
                    {"value": value["rounding"], "choices": "0.01, 1, 5, 10"},
                )
            )
        else:
            rounding = ROUNDINGS[ROUNDINGS.index(number)]
    cumulative = value.get("cumulative", False)
    if not isinstance(cumulative, bool):
        found.append(Problem("prizes.cumulative", "not_a_boolean", {"value": cumulative}))
        cumulative = False
    raw_lines = value.get("lines", [])
    lines: list[Line] = []
    if not isinstance(raw_lines, list):
        found.append(Problem("prizes.lines", "not_a_list", {"value": raw_lines}))
    elif len(raw_lines) > LINES_MAX:
        found.append(Problem("prizes.lines", "too_many_lines", {"max": LINES_MAX}))
    else:
        for index, raw in enumerate(raw_lines):
            line = _read_line(index, raw, found)
            if line is not None:
                lines.append(line)
    _check_percent_total(lines, found)
    if found:
        raise InvalidPrizes(found)
    return Prizes(Decimal(percent_of_fees), added, rounding, tuple(lines), cumulative)


def _check_percent_total(lines: Iterable[Line], found: list[Problem]) -> None:
    """The percents of the pool handed out, every place each line covers counted, at most 100
    (the last place counts once)."""
    total = sum(
        (
            line.percent * (1 if line.places is None else len(line.places))
            for line in lines
            if line.percent
        ),
        Decimal(0),
    )
    if total > 100:
        found.append(Problem("prizes.lines", "percents_over_100", {"total": total}))


def prizes_problems(value: Any) -> list[Problem]:
    """Every problem of the setting (empty: it reads)."""
    try:
        read_prizes(value)
    except InvalidPrizes as invalid:
        return list(invalid.problems)
    return []
