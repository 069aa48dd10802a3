"""Calling the director from a table, and a director answering the call."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from club.text import require_visible_text

from ..errors import Conflict, ServiceError
from ..models import DirectorCall, Match, MatchEvent
from ..permissions import actor_user, require_caller, require_director

__all__ = ["REASON_MAX", "answer_call", "call_director", "call_refusal"]

REASON_MAX = DirectorCall._meta.get_field("reason").max_length or 200


def call_refusal(match: Match) -> ServiceError | None:
    """Why the table cannot call now; None when it can (one call waits at a time)."""
    if match.is_bye:
        return ServiceError(_("A bye has no table to call from."), field="match")
    if DirectorCall.objects.filter(match=match, answered_at__isnull=True).exists():
        return Conflict(_("The director has already been called to this table."), field="match")
    return None


def call_director(match: Match, *, reason: str = "", by: Any) -> DirectorCall:
    """The table calls the director, with an optional reason; it shows on the director's
    tables page until a director answers."""
    require_caller(by, match)
    reason = " ".join((reason or "").split())
    if len(reason) > REASON_MAX:
        raise ServiceError(
            _("Keep the reason to %(n)d characters.") % {"n": REASON_MAX}, field="reason"
        )
    require_visible_text(reason, field="reason", label=_("The reason"))
    refusal = call_refusal(match)
    if refusal is not None:
        raise refusal
    call = DirectorCall.objects.create(
        tournament_id=match.tournament_id, match=match, reason=reason, by=actor_user(by)
    )
    MatchEvent.record(
        tournament=match.tournament_id,
        action=MatchEvent.Action.CALL,
        match=match,
        detail=reason,
        by=by,
    )
    return call


def answer_call(call: DirectorCall, *, by: Any) -> DirectorCall:
    """A director has come to the table: the call leaves the tables page."""
    require_director(by, call.tournament.club_id)
    updated = DirectorCall.objects.filter(pk=call.pk, answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=actor_user(by)
    )
    if not updated:
        raise Conflict(_("This call has already been answered."), field="call")
    call.refresh_from_db()
    MatchEvent.record(
        tournament=call.tournament_id,
        action=MatchEvent.Action.ANSWER_CALL,
        match=call.match,
        detail=call.reason,
        by=by,
    )
    return call
