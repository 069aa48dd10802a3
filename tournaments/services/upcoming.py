"""Which round a tournament draws next, and why none may be drawn now.

Round k is drawn once every match of round k-1 is finished or closed, never past the last
round (docs/formats.md): the qualifying rounds first (`round_count` of them), then a
knockout final's rounds, if one is started.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import selectors
from ..errors import Conflict, ServiceError
from ..models import Match, Round, Tournament
from ..scheduling.knockout import KnockoutRound


class RoundNotOver(Conflict):
    code = "round_not_finished"


class AllRoundsDrawn(Conflict):
    code = "all_rounds_drawn"


@dataclass(frozen=True, slots=True)
class NextRound:
    """Which round comes next and what its draw reads: the last round, the bracket."""

    number: int
    stage: str
    last: Round | None
    progress: selectors.KnockoutProgress | None

    @property
    def label(self) -> str:
        return str(Round(number=self.number, stage=self.stage))


def what_comes_next(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> NextRound:
    """The round the tournament may draw now, without drawing it (a few queries).

    Raises a Conflict saying why no round can be drawn: every round is drawn, the last one
    is not over (a knockout match without a winner), or the format generates its
    schedule at once. `schedule`: every round in order with its matches, when the caller
    has them (`selectors.tables`); then no query is needed.
    """
    if schedule is None:
        rounds = list(tournament.rounds.order_by("number"))
    else:
        rounds = [round_ for round_, _matches in schedule]
    last = rounds[-1] if rounds else None
    progress = selectors.knockout_progress(tournament, schedule)
    if progress is not None:
        if sum(r.is_knockout for r in rounds) >= progress.bracket.rounds:
            raise AllRoundsDrawn(_("Every round of the final is drawn."))
    elif not tournament.is_round_by_round:
        if rounds:
            raise AllRoundsDrawn(
                _("The round robin's rounds are all drawn; start a final to play on.")
            )
        raise Conflict(
            _("A round robin's schedule is generated at once: generate the schedule."),
            field="format",
        )
    elif len(rounds) >= (tournament.round_count or 0):
        raise AllRoundsDrawn(
            ngettext(
                "The tournament's %(n)d round is drawn.",
                "All %(n)d rounds of the tournament are drawn.",
                len(rounds),
            )
            % {"n": len(rounds)}
        )
    if last is not None:
        check_over(last, schedule[-1][1] if schedule else None)
    number = (last.number if last else 0) + 1
    if progress is None:
        return NextRound(number, Round.Stage.QUALIFYING, last, None)
    if progress.problem:
        raise Conflict(progress.problem)
    if progress.upcoming is None:
        _round, played, winners = progress.played[-1]
        undecided = [m.table for m in played.matches if m.table not in winners]
        raise RoundNotOver(
            _("%(round)s: table %(tables)s has no winner yet.")
            % {"round": _round, "tables": ", ".join(map(str, undecided))}
        )
    return NextRound(number, knockout_stage(progress.upcoming), last, progress)


def draw_refusal(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> ServiceError | None:
    """Why no round can be drawn now (None: the next one can): `what_comes_next`'s reason.

    The draw itself may still find too few teams (or players) to pair; its preview says so.
    """
    try:
        what_comes_next(tournament, schedule)
    except ServiceError as refusal:
        return refusal
    return None


def check_over(last: Round, matches: list[Match] | None = None) -> None:
    """Every match of the last round finished or closed by a director; byes need nothing."""
    if matches is None:
        matches = list(last.matches.all())
    waiting = sorted(
        m.table or 0
        for m in matches
        if not m.is_bye and not m.is_closed and m.status != Match.Status.FINISHED
    )
    if waiting:
        raise RoundNotOver(
            ngettext(
                "%(round)s is not over: table %(tables)s is still to finish (or a director closes it).",
                "%(round)s is not over: tables %(tables)s are still to finish (or a director closes them).",
                len(waiting),
            )
            % {"round": last, "tables": ", ".join(str(t) for t in waiting)}
        )


def knockout_stage(drawn: KnockoutRound) -> str:
    return Round.Stage.of_knockout(drawn.size >> (drawn.round - 1))
