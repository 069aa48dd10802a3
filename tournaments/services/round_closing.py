"""Closing a round (its matches read-only for their referees) and reopening it."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..changes import changing
from ..errors import RoundNotReady
from ..models import Match, MatchEvent, Round
from ..permissions import require_director, results_final_refusal


def _set_round_closed(round: Round, closed: bool, by: Any, force: bool = False) -> Round:
    require_director(by, round.tournament.club_id)
    with changing(round.tournament_id):
        round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        # A closed match counts as over for the final and the standings' notes: fixed too.
        if (final := results_final_refusal(round.tournament)) is not None:
            raise final
        detail = str(round)
        if closed and (refusal := close_round_refusal(round)) is not None:
            if not force:
                raise refusal
            detail = refusal.message
        round.is_closed = closed
        round.save(update_fields=["is_closed"])
        Match.objects.filter(round=round).update(is_closed=closed, updated_at=timezone.now())
        MatchEvent.record(
            tournament=round.tournament_id,
            action=MatchEvent.Action.CLOSE_ROUND if closed else MatchEvent.Action.REOPEN_ROUND,
            detail=detail,
            by=by,
        )
    return round


def close_round_refusal(round: Round, matches: list[Match] | None = None) -> RoundNotReady | None:
    """Why the round cannot be closed now (None: it can): a match unfinished or a sheet not
    confirmed by both teams. A director may close it anyway (`close_round(force=True)`).

    `matches`: the round's matches with their confirmations, when the caller has them."""
    unfinished, unconfirmed = round_gaps(round, matches)
    if not unfinished and not unconfirmed:
        return None
    return RoundNotReady(
        _not_ready_message(round, unfinished, unconfirmed),
        unfinished=unfinished,
        unconfirmed=unconfirmed,
    )


def round_gaps(round: Round, matches: list[Match] | None = None) -> tuple[list[int], list[int]]:
    """The tables of the round still playing (or not started), and those finished whose sheet
    both teams have not confirmed (a dispute included)."""
    unfinished: list[int] = []
    unconfirmed: list[int] = []
    if matches is None:
        matches = list(
            Match.objects.filter(round=round, ew_team__isnull=False)
            .prefetch_related("confirmations")
            .order_by("table")
        )
    for match in sorted((m for m in matches if not m.is_bye), key=lambda m: m.table or 0):
        if match.status != Match.Status.FINISHED:
            unfinished.append(match.table or 0)
        elif not match.is_confirmed:
            unconfirmed.append(match.table or 0)
    return unfinished, unconfirmed


def _tables(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _not_ready_message(round: Round, unfinished: list[int], unconfirmed: list[int]) -> str:
    parts = []
    if unfinished:
        parts.append(
            ngettext(
                "%(n)d match is not finished (table %(tables)s)",
                "%(n)d matches are not finished (tables %(tables)s)",
                len(unfinished),
            )
            % {"n": len(unfinished), "tables": _tables(unfinished)}
        )
    if unconfirmed:
        parts.append(
            ngettext(
                "%(n)d sheet is not confirmed by both teams (table %(tables)s)",
                "%(n)d sheets are not confirmed by both teams (tables %(tables)s)",
                len(unconfirmed),
            )
            % {"n": len(unconfirmed), "tables": _tables(unconfirmed)}
        )
    return _("%(round)s: %(gaps)s.") % {"round": round, "gaps": "; ".join(parts)}


def close_round(round: Round, *, by: Any, force: bool = False) -> Round:
    """Close a round and every match in it: referees can no longer change their deals.

    A round with a match unfinished or a sheet unconfirmed is refused (`RoundNotReady`, which
    names the tables) unless `force`: the director was warned and closes it anyway.
    """
    return _set_round_closed(round, True, by, force)


def reopen_round(round: Round, *, by: Any) -> Round:
    """Reopen a round and its matches, so their referees may correct them again."""
    return _set_round_closed(round, False, by)
