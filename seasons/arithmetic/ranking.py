"""Ranking players by a series' rules: the best N evenings, the tie order, shared ranks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .records import Number


def best_total(values: Sequence[Number], best_of: int | None) -> Number:
    """The sum of the best `best_of` values (all when None)."""
    if best_of is None or best_of >= len(values):
        return sum(values, 0)
    return sum(sorted(values, reverse=True)[:best_of], 0)


def mark_counted(values: Sequence[int], played: Sequence[bool], best_of: int | None) -> list[bool]:
    """Which evenings count: the best `best_of`; among equal values a played evening before a
    missed one, then the earlier evening."""
    if best_of is None or best_of >= len(values):
        return [True] * len(values)
    order = sorted(range(len(values)), key=lambda i: (-values[i], not played[i], i))
    chosen = set(order[:best_of])
    return [i in chosen for i in range(len(values))]


# A sort key: smaller is better. Total, evenings played, best single evening, last evening.
Key = tuple[Number, int, Number, Number]


def sort_key(total: Number, played: int, best: Number, last: Number) -> Key:
    return (-total, -played, -best, -last)


@dataclass(slots=True)
class PlayerEvenings:
    player_id: int
    values: list[int]  # per evening, scratch (absent_points when missed)
    handicapped: list[int]  # per evening, with the handicap
    played: list[bool]

    @property
    def played_count(self) -> int:
        return sum(self.played)

    def best_played(self, values: Sequence[int]) -> int:
        return max((v for v, p in zip(values, self.played, strict=True) if p), default=0)

    def key(self, values: Sequence[int], best_of: int | None) -> Key:
        return sort_key(
            best_total(values, best_of),
            self.played_count,
            self.best_played(values),
            values[-1] if values else 0,
        )


def ranks_of(keys: Mapping[int, Key], eligible: Iterable[int]) -> dict[int, tuple[int, bool]]:
    """Competition ranks (1, 2, 2, 4) of the eligible players by key, and whether shared."""
    ordered = sorted(eligible, key=lambda pid: keys[pid])
    found: dict[int, tuple[int, bool]] = {}
    for index, pid in enumerate(ordered):
        if index and keys[ordered[index - 1]] == keys[pid]:
            found[pid] = (found[ordered[index - 1]][0], True)
        else:
            found[pid] = (index + 1, False)
    for index, pid in enumerate(ordered[:-1]):
        if keys[ordered[index + 1]] == keys[pid]:
            found[pid] = (found[pid][0], True)
    return found
