"""The teams' answers to a finished sheet: confirm it or dispute it; a change of the deals forgets them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from club.text import require_visible_text

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Match, MatchConfirmation, MatchEvent, Side
from ..permissions import (
    actor_user,
    is_director,
    is_referee_of,
    require_confirmer,
    results_final_refusal,
)

REMARK_MAX = 200

__all__ = ["REMARK_MAX", "confirm_sheet", "forget_confirmations"]


def confirm_sheet(
    match: Match, *, side: str, agree: bool, by: Any, remark: str = ""
) -> MatchConfirmation:
    """Record team `side`'s answer to the finished sheet: agreed, or disputed (with a remark).

    A team answering again replaces its answer. A dispute is what the director's tables page
    shows first; a director settles it by correcting the deals (which forgets every answer)
    or by answering for the team.
    """
    if side not in Side.values:
        raise ServiceError(
            _("The team must be NS or EW, not “%(side)s”.") % {"side": str(side)[:10]},
            field="team",
        )
    if not isinstance(agree, bool):
        raise ServiceError(_("Say true (agree) or false (dispute)."), field="agree")
    remark = (remark or "").strip()
    require_visible_text(remark, field="remark", label=_("The remark"), multiline=True)
    if len(remark) > REMARK_MAX:
        raise ServiceError(
            _("The remark is too long (at most %(n)d characters).") % {"n": REMARK_MAX},
            field="remark",
        )
    with changing(match.tournament_id):
        # The deal services hold the same lock: an answer never speaks of a sheet being changed.
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=match.pk)
        )
        require_confirmer(by, locked)
        # A dispute asks for a correction, which final results no longer take.
        if (final := results_final_refusal(locked.tournament)) is not None:
            raise final
        if locked.status != Match.Status.FINISHED:
            raise Conflict(
                _("This match is not over: the teams confirm the sheet after its last deal."),
                field="team",
            )
        on_behalf = is_director(by, locked.tournament.club_id) and not is_referee_of(by, locked)
        answer, _created = MatchConfirmation.objects.update_or_create(
            match=locked,
            side=side,
            defaults={
                "agree": agree,
                "remark": remark,
                "by": actor_user(by),
                "by_director": on_behalf,
            },
        )
        detail = f"{side}: {remark}" if remark else side
        MatchEvent.record(
            tournament=locked.tournament_id,
            match=locked,
            action=MatchEvent.Action.CONFIRM if agree else MatchEvent.Action.DISPUTE,
            detail=detail,
            by=by,
        )
    return answer


def forget_confirmations(match: Match, *, by: Any, cause: str) -> list[str]:
    """Delete the teams' answers after a change of the deals (called inside the deal services'
    locked transaction); the director's audit keeps what was forgotten and why. Returns the
    teams whose answer was forgotten."""
    answers = list(match.confirmations.order_by("side"))  # type: ignore[attr-defined]
    if not answers:
        return []
    sides = [f"{a.side} {'✓' if a.agree else '✗'}" for a in answers]
    MatchConfirmation.objects.filter(pk__in=[a.pk for a in answers]).delete()
    MatchEvent.record(
        tournament=match.tournament_id,
        match=match,
        action=MatchEvent.Action.UNCONFIRMED,
        detail=f"{cause}: {', '.join(sides)}",
        by=by,
    )
    return [a.side for a in answers]
