"""The tie-break criteria: one small named function each, in one registry.

A criterion orders the teams still level on the ones before it, "more is better". Most
read a figure of every team after the round (`Tally`); head-to-head reads only the
matches between the teams it must separate. Adding a criterion (Buchholz, say) is one
decorated function here: the director's choices, the model's validation, the API and the
arithmetic all read this registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter, mul
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .tally import Tally

Values = Callable[[Tally], Sequence[int]]
AmongTied = Callable[[Tally, list[int]], dict[int, int]]


@dataclass(frozen=True, slots=True)
class Criterion:
    """A tie-break: `values` gives one number per team; `among_tied` one per team of a group."""

    name: str
    label: Any  # lazy: read in the visitor's language
    values: Values | None = None
    among_tied: AmongTied | None = None
    # The standings line's figure that shows it (None: no column, e.g. head-to-head).
    column: str | None = None


CRITERIA: dict[str, Criterion] = {}
DEFAULT_TIE_BREAKS = ("match_points", "head_to_head", "point_difference", "points_for")
# The formats ranked otherwise by default (docs/formats.md): a concours, and a mêlée's players,
# by the points they scored.
FORMAT_TIE_BREAKS = {
    "swiss": ("match_points", "buchholz", "point_difference", "points_for"),
    "concours": ("points_for", "wins", "point_difference"),
    "individual": ("points_for", "wins", "point_difference"),
}


def default_tie_breaks_for(format: str) -> list[str]:
    """The tie-break list a tournament of `format` starts with."""
    return list(FORMAT_TIE_BREAKS.get(format, DEFAULT_TIE_BREAKS))


def criterion(name: str, label: Any, column: str | None = None) -> Callable[[Values], Values]:
    def register(values: Values) -> Values:
        CRITERIA[name] = Criterion(name, label, values=values, column=column or name)
        return values

    return register


def group_criterion(name: str, label: Any) -> Callable[[AmongTied], AmongTied]:
    def register(among_tied: AmongTied) -> AmongTied:
        CRITERIA[name] = Criterion(name, label, among_tied=among_tied)
        return among_tied

    return register


def known(names: Sequence[str] | None) -> list[Criterion]:
    """The criteria of a tie-break list, unknown names skipped (a stored list may be older)."""
    return [CRITERIA[name] for name in names or DEFAULT_TIE_BREAKS if name in CRITERIA]


def deciding_columns(names: Sequence[str] | None) -> list[Criterion]:
    """The criteria of a tie-break list that a table can show as a column, in their order:
    the columns that decide the ranking (the first one decides most)."""
    return [c for c in known(names) if c.column]


def order_in_words(names: Sequence[str] | None) -> str:
    """What ranks the table, as a sentence under it: "Ranked by points for, then …"."""
    criteria = gettext(", then ").join(str(c.label) for c in known(names))
    return gettext("Ranked by %(criteria)s.") % {"criteria": criteria}


def labels() -> list[tuple[str, Any]]:
    """(name, label) of every criterion, in registry order, for choices."""
    return [(c.name, c.label) for c in CRITERIA.values()]


@criterion("match_points", _("match points"))
def match_points(tally: Tally) -> Sequence[int]:
    return tally.match_points


@group_criterion("head_to_head", _("head-to-head among the tied teams"))
def head_to_head(tally: Tally, group: list[int]) -> dict[int, int]:
    """Match points each tied team earned in matches between the tied teams only."""
    among = itemgetter(*group)  # a tuple: a group has two teams or more
    return {i: sum(among(tally.earned[i])) for i in group}


@criterion("point_difference", _("point difference"))
def point_difference(tally: Tally) -> Sequence[int]:
    return tally.column("point_difference")


@criterion("points_for", _("points for"))
def points_for(tally: Tally) -> Sequence[int]:
    return tally.column("points_for")


@criterion("wins", _("matches won"), column="won")
def wins(tally: Tally) -> Sequence[int]:
    return tally.column("won")


@criterion("sonneborn_berger", _("Sonneborn–Berger"))
def sonneborn_berger(tally: Tally) -> Sequence[int]:
    """The match points a team earned against each opponent times that opponent's points.

    With 2/1/0 that is twice the chess figure (wins count the opponent's score, draws
    half), so it orders the same and stays an integer.
    """
    points_of = tally.match_points.__getitem__
    return [sum(map(mul, scored.values(), map(points_of, scored))) for scored in tally.scored]


@criterion("buchholz", _("Buchholz (opponents' match points)"))
def buchholz(tally: Tally) -> Sequence[int]:
    """The sum of the match points of every opponent a team met (a bye is no opponent).

    Each opponent counts as often as it was met, with its points after the round.
    """
    points_of = tally.match_points.__getitem__
    return [sum(map(points_of, met)) for met in tally.opponents]
