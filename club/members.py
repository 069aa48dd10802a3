"""The club's roster kept by its directors: adding, editing, deactivating a member, and the
audit of every change (MemberEvent). One function per action, inside a transaction."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from .errors import FieldsRefused
from .models import Club, MemberEvent, Membership, Player
from .permissions import actor_user, directs_club
from .registration import NAME_PART_MAX, name_problem

# The fields a director keeps of a member (the API's and the form's names).
MEMBER_FIELDS = ("first_name", "last_name", "email", "phone", "licence", "profile")
_PHONE = re.compile(r"^\+?[0-9 ().\-/]{3,40}$")
_LICENCE = re.compile(r"^[0-9A-Za-z][0-9A-Za-z .\-/]{0,39}$")


def require_member_reader(user: Any, club: Club) -> None:
    """The club's directors read its roster; to anyone else it does not exist (404, as for
    anything they may not read: not even that the club keeps one)."""
    if not directs_club(user, club.pk):
        raise Http404


def record(club: Club, player_id: int | None, action: str, by: Any, **details: Any) -> None:
    MemberEvent.objects.create(
        club=club, player_id=player_id, action=action, by=actor_user(by), details=details
    )


def member_problems(
    club: Club,
    data: dict[str, str],
    *,
    membership: Membership | None = None,
    check_taken: bool = True,
) -> dict[str, list[str]]:
    """Every problem of a member's fields, by field (empty: all good). `data` holds the
    fields given; a missing one is not checked (an edit of the phone alone). `check_taken`:
    a licence another member of the club holds is refused."""
    problems: dict[str, list[str]] = {}

    def refuse(field: str, message: str) -> None:
        problems.setdefault(field, []).append(message)

    for field in ("first_name", "last_name"):
        if field in data:
            value = data[field]
            if len(value) > NAME_PART_MAX:
                refuse(field, _("At most %(max)d characters.") % {"max": NAME_PART_MAX})
            elif value and (problem := name_problem(value)):
                refuse(field, problem)
    if "first_name" in data and not data["first_name"]:
        refuse("first_name", _("Enter the first name."))
    if data.get("email"):
        try:
            validate_email(data["email"])
        except ValidationError:
            refuse("email", _("“%(value)s” is not an e-mail address.") % {"value": data["email"]})
    if data.get("phone") and not _PHONE.match(data["phone"]):
        refuse("phone", _("“%(value)s” is not a phone number.") % {"value": data["phone"][:40]})
    licence = data.get("licence", "")
    if licence:
        if not _LICENCE.match(licence):
            refuse(
                "licence",
                _("“%(value)s” is not a licence number (letters, digits, dots, hyphens).")
                % {"value": licence[:40]},
            )
        elif check_taken:
            taken = Membership.objects.filter(club=club, licence=licence)
            if membership is not None:
                taken = taken.exclude(pk=membership.pk)
            if holder := taken.select_related("player").first():
                refuse(
                    "licence",
                    _("Licence %(licence)s is already %(name)s's.")
                    % {"licence": licence, "name": holder.player.full_name},
                )
    if "profile" in data and data["profile"] not in Player.Profile.values:
        refuse(
            "profile", _("Use one of: %(values)s.") % {"values": ", ".join(Player.Profile.values)}
        )
    return problems


def _cleaned(data: dict[str, Any]) -> dict[str, str]:
    return {
        key: " ".join(str(value or "").split())
        for key, value in data.items()
        if key in MEMBER_FIELDS
    }


def add_member(club: Club, *, by: Any, **fields: Any) -> Membership:
    """A new player, member of the club with the fields given."""
    require_member_reader(by, club)
    data = _cleaned(fields)
    data.setdefault("first_name", "")
    if problems := member_problems(club, data):
        raise FieldsRefused(problems)
    with transaction.atomic():
        player = Player.objects.create(
            first_name=data["first_name"],
            last_name=data.get("last_name", ""),
            profile=data.get("profile") or Player.Profile.PUBLIC,
        )
        membership = Membership.objects.create(
            club=club,
            player=player,
            email=data.get("email", ""),
            phone=data.get("phone", ""),
            licence=data.get("licence", ""),
        )
        record(club, player.pk, MemberEvent.Action.ADDED, by)
    return membership


def edit_member(membership: Membership, *, by: Any, **fields: Any) -> Membership:
    """Change the fields given (the others stay); the audit names the fields changed."""
    club = membership.club
    require_member_reader(by, club)
    data = _cleaned(fields)
    if problems := member_problems(club, data, membership=membership):
        raise FieldsRefused(problems)
    player = membership.player
    if player.erased_at is not None and data:
        raise FieldsRefused({"detail": [_("This member's data was erased; it cannot change.")]})
    changed = []
    with transaction.atomic():
        for field, value in data.items():
            owner: Any = player if field in ("first_name", "last_name", "profile") else membership
            if getattr(owner, field) != value:
                setattr(owner, field, value)
                changed.append(field)
        if changed:
            player.save()
            membership.save()
            record(club, player.pk, MemberEvent.Action.EDITED, by, fields=sorted(changed))
    return membership


def set_active(membership: Membership, active: bool, *, by: Any) -> Membership:
    """Deactivate (history kept, no longer offered when names are matched) or reactivate."""
    require_member_reader(by, membership.club)
    if membership.active != active:
        with transaction.atomic():
            membership.active = active
            membership.save(update_fields=["active"])
            action = MemberEvent.Action.REACTIVATED if active else MemberEvent.Action.DEACTIVATED
            record(membership.club, membership.player_id, action, by)
    return membership
