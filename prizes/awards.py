"""The prize list's arithmetic (docs/prizes.md): the `prizes` setting read and checked, the pool, and who wins what.

Pure: the standard library only, money as `Decimal`. The caller hands in the final standings
as `Placed` entries in rank order (ties share a rank) and the fees due; nothing here reads a
database or translates a word (a problem carries a code, `prizes.messages` words it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

CENT = Decimal("0.01")
ROUNDINGS = (Decimal("0.01"), Decimal("1"), Decimal("5"), Decimal("10"))
DEFAULT_ROUNDING = Decimal("1")
# A club hands out a few dozen prizes; more lines, a place or an amount past these is a typo.
LINES_MAX = 200
PLACE_MAX = 10_000
AMOUNT_MAX = Decimal("1000000")
KIND_MAX_LENGTH = 120
CATEGORY_MAX_LENGTH = 40

SETTING_KEYS = frozenset({"pool", "rounding", "lines", "cumulative"})
POOL_KEYS = frozenset({"percent_of_fees", "added"})
LINE_KEYS = frozenset(
    {"place", "places", "every", "from", "to", "last", "category", "amount", "percent", "kind"}
)


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong at `path` (`prizes.lines[2].percent`); `code` names it, `params` fill it."""

    path: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


class InvalidPrizes(ValueError):
    """The setting does not read; `problems` lists every one."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.path}: {p.code}" for p in self.problems))


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the prize table, read: the places it covers and what each place wins.

    `places` is `None` for the last place (known once the standings are); `category` limits
    the places to the entries of that tag, ranked among themselves.
    """

    index: int
    places: tuple[int, ...] | None
    amount: Decimal | None = None
    percent: Decimal | None = None
    kind: str = ""
    category: str = ""

    def covers(self, count: int) -> tuple[int, ...]:
        """The places of a list of `count` entries this line pays."""
        if self.places is None:
            return (count,) if count else ()
        return tuple(p for p in self.places if p <= count)


@dataclass(frozen=True, slots=True)
class Prizes:
    """The `prizes` setting, read."""

    percent_of_fees: Decimal = Decimal(0)
    added: Decimal = Decimal(0)
    rounding: Decimal = DEFAULT_ROUNDING
    lines: tuple[Line, ...] = ()
    cumulative: bool = False

    @property
    def categories(self) -> frozenset[str]:
        return frozenset(line.category for line in self.lines if line.category)

    def pool(self, fees_due: Decimal) -> Decimal:
        """`added` + `percent_of_fees` % of the fees due, to the cent (down)."""
        share = (fees_due * self.percent_of_fees / 100).quantize(CENT, rounding=ROUND_DOWN)
        return self.added + share

    def fixed_total(self, count: int) -> Decimal:
        """The fixed amounts of every place paid among `count` entries."""
        return sum(
            (line.amount * len(line.covers(count)) for line in self.lines if line.amount),
            Decimal(0),
        )


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry of the final standings: `key` identifies it to the caller."""

    key: Hashable
    name: str
    rank: int
    category: str = ""


@dataclass(frozen=True, slots=True)
class Award:
    """One line of the prize list: what `entry` wins by prize line `line`.

    `place` is the entry's place in the final standings (for a category line too: `category`
    says which table paid it), `shared_place` when others share it; `amount` is None for a prize in kind alone; `shared`: a prize in
    kind that tied entries share, for the director to settle.
    """

    place: int
    key: Hashable
    name: str
    amount: Decimal | None
    kind: str
    shared: bool
    line: int
    category: str = ""
    shared_place: bool = False


@dataclass(frozen=True, slots=True)
class PrizeList:
    pool: Decimal
    awards: tuple[Award, ...]

    @property
    def awarded(self) -> Decimal:
        return sum((a.amount for a in self.awards if a.amount is not None), Decimal(0))

    @property
    def retained(self) -> Decimal:
        """What the club keeps of the pool: negative when it adds money."""
        return self.pool - self.awarded


# --- reading the setting ---------------------------------------------------------------------


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


# --- the prize list --------------------------------------------------------------------------


def round_down(amount: Decimal, unit: Decimal) -> Decimal:
    """`amount` down to a multiple of `unit` (a percent line's cash)."""
    return ((amount / unit).to_integral_value(rounding=ROUND_DOWN) * unit).quantize(CENT)


def _ranked(entries: Sequence[Placed]) -> list[tuple[int, list[Placed]]]:
    """The entries as groups sharing a place, each with the first place it covers (1, 2=, 2=, 4)."""
    groups: list[tuple[int, list[Placed]]] = []
    for place, entry in enumerate(entries, start=1):
        if groups and groups[-1][1][0].rank == entry.rank:
            groups[-1][1].append(entry)
        else:
            groups.append((place, [entry]))
    return groups


def _line_cash(line: Line, pool: Decimal, rounding: Decimal) -> Decimal | None:
    if line.amount is not None:
        return line.amount
    if line.percent is not None:
        return round_down(pool * line.percent / 100, rounding)
    return None


def _award_lines(
    lines: Sequence[Line],
    entries: Sequence[Placed],
    pool: Decimal,
    rounding: Decimal,
    places: Mapping[Hashable, tuple[int, bool]],
    category: str = "",
) -> list[Award]:
    """The awards of `lines` over `entries` ranked among themselves.

    Tied entries cover as many places as they are: each line's cash over those places is
    split equally among them (each share down to the cent); its prize in kind goes to them
    as `shared` when the line's places there are fewer than they are.
    """
    awards: list[Award] = []
    count = len(entries)
    # Each line's places and cash once: a group asks only for the places it covers.
    covered = [
        (line, frozenset(line.covers(count)), _line_cash(line, pool, rounding)) for line in lines
    ]
    for first, group in _ranked(entries):
        span = range(first, first + len(group))
        for line, line_places, cash in covered:
            paid = [p for p in span if p in line_places]
            if not paid:
                continue
            share = None
            if cash is not None:
                share = (cash * len(paid) / len(group)).quantize(CENT, rounding=ROUND_DOWN)
            shared = bool(line.kind) and len(paid) < len(group)
            for entry in group:
                place, shared_place = places[entry.key]
                awards.append(
                    Award(
                        place=place,
                        key=entry.key,
                        name=entry.name,
                        amount=share,
                        kind=line.kind,
                        shared=shared,
                        line=line.index,
                        category=category,
                        shared_place=shared_place,
                    )
                )
    return awards


def prize_list(prizes: Prizes, entries: Sequence[Placed], fees_due: Decimal) -> PrizeList:
    """Who wins what, from the final standings (`entries` in rank order) and the fees due.

    Place lines first, over every entry; then each category's lines over the entries of
    that tag, ranked among themselves, leaving out (unless `cumulative`) those a place line
    already awards. Ordered by place, then the standings, then the line.
    """
    pool = prizes.pool(fees_due)
    places = {
        entry.key: (first, len(group) > 1) for first, group in _ranked(entries) for entry in group
    }
    place_lines = [line for line in prizes.lines if not line.category]
    awards = _award_lines(place_lines, entries, pool, prizes.rounding, places)
    holding = {award.key for award in awards}
    for category in sorted(prizes.categories):
        lines = [line for line in prizes.lines if line.category == category]
        members = [
            entry
            for entry in entries
            if entry.category == category and (prizes.cumulative or entry.key not in holding)
        ]
        awards.extend(_award_lines(lines, members, pool, prizes.rounding, places, category))
    order = {entry.key: n for n, entry in enumerate(entries)}
    awards.sort(key=lambda a: (a.place, order[a.key], a.line))
    return PrizeList(pool, tuple(awards))
