"""The `prizes` setting's check, registered with the tournament's settings checks (apps.py)."""

from __future__ import annotations

from tournaments.models import Tournament

from .awards import InvalidPrizes, Problem, read_prizes
from .messages import problem_message
from .selectors import categories_of


def setting_problems(tournament: Tournament) -> list[tuple[str, str]]:
    """The setting's problems as (path, message); a category line names a tag an entry has.

    The category is checked when the table is set or changed (an entry's tag removed later
    leaves its line awarding nobody, and does not lock the other settings).
    """
    try:
        prizes = read_prizes(tournament.prizes)
    except InvalidPrizes as invalid:
        return [(p.path, problem_message(p)) for p in invalid.problems]
    if prizes is None or not prizes.categories:
        return []
    if tournament.pk:
        stored = (
            Tournament.objects.filter(pk=tournament.pk).values_list("prizes", flat=True).first()
        )
        if stored == tournament.prizes:
            return []
    known = categories_of(tournament) if tournament.pk else set()
    found = []
    for line in prizes.lines:
        if line.category and line.category not in known:
            problem = Problem(
                f"prizes.lines[{line.index}].category",
                "unknown_category",
                {"category": line.category},
            )
            found.append((problem.path, problem_message(problem)))
    return found


def series_problems(value: object) -> list[tuple[str, str]]:
    """A series' prize table's problems as (path, message): the tournament's checks, less
    what a series has not (entry fees, categories)."""
    try:
        prizes = read_prizes(value)
    except InvalidPrizes as invalid:
        return [(p.path, problem_message(p)) for p in invalid.problems]
    found = []
    if prizes is not None and prizes.percent_of_fees:
        found.append(Problem("prizes.pool.percent_of_fees", "series_no_fees"))
    for line in prizes.lines if prizes is not None else ():
        if line.category:
            found.append(Problem(f"prizes.lines[{line.index}].category", "series_no_categories"))
    return [(p.path, problem_message(p)) for p in found]
