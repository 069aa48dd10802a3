"""Who wins what: the pool, each line's cash (percent lines rounded down), ties sharing the places they cover, categories, what is retained."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from decimal import ROUND_DOWN, Decimal

from .values import (
    CENT,
    Award,
    Line,
    Placed,
    PrizeList,
    Prizes,
)


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
