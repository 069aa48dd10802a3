"""Entries' part of an erasure (club.hooks.member_erased): the online registrations that
typed the erased member's name lose it, with the e-mail and phone they gave."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from club.privacy import ERASED_FIRST_NAME

from ..models import Registration


def on_member_erased(sender: Any = None, *, player: Any, names: list[str], **kwargs: Any) -> None:
    """Inside the erasure's transaction (connected in apps.py): a registration of the
    person's team or entry, or one that typed their name, says "Former member N" instead."""
    replacement = f"{ERASED_FIRST_NAME} {player.pk}"
    folded = {name.casefold() for name in names}
    found = Registration.objects.filter(
        Q(team__first_player=player)
        | Q(team__second_player=player)
        | Q(entrant__player=player)
        | Q(player__in=names)
        | Q(partner__in=names)
    )
    for registration in found:
        for field in ("player", "partner"):
            if getattr(registration, field).casefold() in folded:
                setattr(registration, field, replacement)
                registration.email = registration.phone = ""
        registration.save(update_fields=["player", "partner", "email", "phone"])
