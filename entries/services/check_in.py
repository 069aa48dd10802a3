"""Check-in and entry fees (docs/director.md): who came, who paid and how. The marks are the
entry's own fields (tournaments' `Entry`); the actions that set them are here.

With check-in on every entry is `expected` until a director marks it present or absent, or a
player checks it in at the door (self check-in: a team is present as soon as either of its
players says so). Marking a fee paid records the amount due then; a waived fee records none.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.changes import changing
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Attendance, Entrant, Entry, MatchEvent, Payment, Team, Tournament
from tournaments.models.tournament import new_door_key
from tournaments.permissions import require_director
from tournaments.services.entrants import withdraw_entrant
from tournaments.services.withdrawals import withdraw_team

from ..selectors import door_refusal, fee_due, self_check_in_refusal

__all__ = ["check_in", "renew_door_key", "self_check_in", "withdraw_absent"]

# What `check_in` leaves as it is when it is not given.
UNCHANGED: Any = object()


def _locked(entry: Entry) -> Entry:
    return type(entry)._default_manager.select_for_update().get(pk=entry.pk)


def check_in(
    entry: Entry, *, by: Any, present: bool | None = UNCHANGED, paid: str | None = UNCHANGED
) -> Entry:
    """A director marks an entry present (True), absent (False) or expected again (None), and
    its fee paid by `paid` (a Payment) or not paid (None). A payment marks it present."""
    tournament = entry.tournament
    require_director(by, tournament.club_id)
    if isinstance(entry, Team) and entry.is_partnership:
        raise ServiceError(_("Check in the players of an individual tournament."), field="entry")
    if present is not UNCHANGED and present not in (True, False, None):
        raise ServiceError(_("Expected true, false or null."), field="present")
    if paid is not UNCHANGED and paid is not None and paid not in Payment.values:
        raise ServiceError(
            _("“%(value)s” is not a way to pay: use %(choices)s.")
            % {"value": paid, "choices": ", ".join(Payment.values)},
            field="paid",
        )
    if paid not in (UNCHANGED, None) and present is False:
        raise ServiceError(_("An absent entry has not paid."), field="paid")
    with changing(tournament.pk):
        entry = _locked(entry)
        if entry.withdrawn and present is True:
            raise Conflict(_("%(entry)s has withdrawn.") % {"entry": entry}, field="entry")
        if paid not in (UNCHANGED, None) and present is UNCHANGED:
            present = True
        if present is not UNCHANGED:
            entry.attendance = {
                True: Attendance.PRESENT,
                False: Attendance.ABSENT,
                None: Attendance.EXPECTED,
            }[present]
            entry.checked_in_at = timezone.now() if present else None
            if present is not True and paid is UNCHANGED:
                paid = None
        if paid is not UNCHANGED:
            entry.paid = paid or ""
            entry.fee_paid = fee_due(tournament, entry) if paid and paid != Payment.WAIVED else None
        entry.save(update_fields=["attendance", "checked_in_at", "paid", "fee_paid"])
        detail = f"{entry}: {entry.get_attendance_display()}"
        if entry.paid:
            detail += f", {entry.get_paid_display()}"
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.CHECK_IN, detail=detail, by=by
        )
    return entry


def self_check_in(entry: Entry, *, by: Any, door: str) -> Entry:
    """A player at the door checks their entry in (no account needed): present, nothing else.

    `door`: the door's code, from the QR code they scanned (`door_refusal`). An entry marked
    absent by the director, or withdrawn, stays so: they see the director.
    """
    tournament = entry.tournament
    if closed := self_check_in_refusal(tournament):
        raise closed
    if no_code := door_refusal(tournament, door):
        raise no_code
    with changing(tournament.pk):
        entry = _locked(entry)
        if entry.withdrawn or entry.attendance == Attendance.ABSENT:
            raise Conflict(
                _("%(entry)s cannot check in here: please see the director.") % {"entry": entry},
                field="entry",
            )
        if entry.attendance != Attendance.PRESENT:
            entry.attendance, entry.checked_in_at = Attendance.PRESENT, timezone.now()
            entry.save(update_fields=["attendance", "checked_in_at"])
            MatchEvent.record(
                tournament=tournament,
                action=MatchEvent.Action.SELF_CHECK_IN,
                detail=str(entry),
                by=by,
            )
    return entry


def withdraw_absent(entry: Entry, *, by: Any) -> Entry:
    """Withdraw an entry that did not come, in one step (its matches become byes)."""
    if isinstance(entry, Team):
        withdraw_team(entry, by=by)
    elif isinstance(entry, Entrant):
        withdraw_entrant(entry, by=by)
    entry.refresh_from_db()
    return entry


def renew_door_key(tournament: Tournament, *, by: Any) -> Tournament:
    """A new door code: the QR codes printed or photographed before no longer check anyone
    in (print the poster again; the big screen shows the new one)."""
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        tournament.door_key = new_door_key()
        Tournament.objects.filter(pk=tournament.pk).update(door_key=tournament.door_key)
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.SETTINGS,
            detail=_("new door code"),
            by=by,
        )
    return tournament
