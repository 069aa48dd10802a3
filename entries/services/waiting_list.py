"""The waiting list of online registration: entries move up, in order, into places freed
(a cancellation, in services.online) or added (a higher capacity: tournaments' settings send
`capacity_changed`, apps.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.models import Tournament

from ..models import Registration
from ..selectors import fits, half_places_taken
from .mail import tell_moved_up

__all__ = ["move_up", "on_capacity_changed"]


def move_up(
    tournament: Tournament, *, link: Callable[[str], str] | None = None
) -> list[Registration]:
    """The waiting entries that now fit, first come first: the first that does not fit stops
    the others behind it (the list keeps its order). Each is told by mail once committed
    (`link` makes its address absolute; without it, the site's address)."""
    moved: list[Registration] = []
    taken = half_places_taken(tournament)
    waiting = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITING
    ).order_by("created_at", "pk")
    for registration in waiting:
        places = registration.places(tournament)
        if not fits(tournament, places, taken):
            break
        taken += places
        registration.status = Registration.Status.REGISTERED
        registration.tournament = tournament
        registration.save(update_fields=["status"])
        moved.append(registration)
        tell_moved_up(registration, link)
    return moved


def on_capacity_changed(sender: Any, *, tournament: Tournament, **kwargs: Any) -> None:
    """More places: the waiting list moves up into them (inside the settings' transaction)."""
    move_up(tournament)
