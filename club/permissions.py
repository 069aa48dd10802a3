"""Who directs a club, and the system actor: the base every permission of the site stands on."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .errors import NotAllowed
from .models import Membership


class SystemActor:
    """The site itself acting (a command, a task, the demo loader): allowed everything.

    Not a user: audit rows record it as nobody (`actor_user`). It exists so that no service
    has a "nobody asked" shortcut around its checks.
    """

    is_authenticated = True
    is_anonymous = False
    is_superuser = True
    is_active = True
    pk = None
    id = None

    def __str__(self) -> str:
        return "system"

    def get_username(self) -> str:
        return "system"


SYSTEM = SystemActor()


# Set on `request.user` by the referee-link middleware (tournaments): a session opened by a
# private link acts as a referee only, whatever else the account may be.
REFEREE_ONLY_ATTRIBUTE = "belote_referee_only"


def is_referee_only(user: Any) -> bool:
    """A session opened by a referee's private link: never a director, never an admin."""
    return bool(getattr(user, REFEREE_ONLY_ATTRIBUTE, False))


def actor_user(by: Any) -> Any:
    """The user to record in an audit row: a signed-in person, else nobody (the system)."""
    if isinstance(by, SystemActor) or not getattr(by, "is_authenticated", False):
        return None
    return by


def directed_club_ids(user: Any) -> frozenset[int]:
    """The clubs `user` directs (staff of), read once per user object (that is, per request)."""
    if not getattr(user, "is_authenticated", False) or getattr(user, "pk", None) is None:
        return frozenset()
    if is_referee_only(user):
        return frozenset()
    cached = getattr(user, "_belote_directed_clubs", None)
    if cached is None:
        cached = frozenset(
            Membership.objects.filter(player__user=user, role=Membership.Role.DIRECTOR).values_list(
                "club_id", flat=True
            )
        )
        user._belote_directed_clubs = cached
    return cached


def directs_club(user: Any, club_id: int) -> bool:
    """A director (staff) of the club; a site admin (and the system) directs every club."""
    if not getattr(user, "is_authenticated", False) or is_referee_only(user):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return club_id in directed_club_ids(user)


def require_club_director(user: Any, club_id: int) -> None:
    if not directs_club(user, club_id):
        raise NotAllowed(_("Only a director of this club may do this."))
