"""Results become final (docs/director.md): a director reopens them, with a reason, audited.

When a tournament is finished its results stay provisional for `correction_minutes`, then
they are final (`Tournament.results_state`): no deal is added, changed or removed by anyone
(tournaments.permissions.deal_write_refusal) and the settings that could change a result are
fixed (setting_checks). Reopening puts the tournament back to running: the results are
provisional until it is finished again, which opens a new window.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from club.text import require_visible_text

from ..changes import changing, record_ratings_change
from ..errors import ServiceError
from ..models import MatchEvent, Tournament
from ..permissions import reopen_results_refusal

REASON_MAX = MatchEvent._meta.get_field("detail").max_length or 200

__all__ = ["REASON_MAX", "reopen_results"]


def reopen_results(tournament: Tournament, *, by: Any, reason: str) -> Tournament:
    """Reopen a finished tournament's results (provisional or final) for corrections."""
    if (refusal := reopen_results_refusal(by, tournament)) is not None:
        raise refusal
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Say why the results are reopened."), field="reason")
    if len(reason) > REASON_MAX:
        raise ServiceError(
            _("The reason is too long (at most %(n)d characters).") % {"n": REASON_MAX},
            field="reason",
        )
    require_visible_text(reason, field="reason", label=_("The reason"), multiline=True)
    with changing(tournament.pk):
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        # Asked again under the lock: two directors reopening at once reopen once.
        if (refusal := reopen_results_refusal(by, locked)) is not None:
            raise refusal
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["status"])
        MatchEvent.record(
            tournament=locked, action=MatchEvent.Action.REOPEN_RESULTS, detail=reason, by=by
        )
        # A finished tournament's final places count in the season table (services.ratings).
        record_ratings_change(locked.club_id)
    tournament.status, tournament.finished_at = locked.status, locked.finished_at
    return tournament
