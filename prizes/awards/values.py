"""The prize arithmetic's values: a problem, a prize line, the setting read, an entry placed, an award, the list; and their bounds."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
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
