"""Who may read and write through the API, in tournament.md's terms (see tournaments.permissions)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.exceptions import PermissionDenied

from club.models import Membership
from tournaments.models import Match, Tournament
from tournaments.permissions import is_director


def director_club_ids(user: Any) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Membership.objects.filter(player__user=user, role=Membership.Role.DIRECTOR).values_list(
            "club_id", flat=True
        )
    )


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """Public tournaments, those of the user's clubs as director, and those they referee in.

    A private tournament answers 404 to everyone else, so its existence does not leak.
    """
    tournaments = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return tournaments
    q = Q(is_public=True)
    if getattr(user, "is_authenticated", False):
        q |= Q(club_id__in=director_club_ids(user))
        q |= Q(pk__in=Match.objects.filter(referee=user).values("tournament_id"))
    return tournaments.filter(q)


def visible_q(user: Any, prefix: str = "tournament__") -> Q:
    """The same visibility as `visible_tournaments`, as a filter on a related tournament.

    A plain join instead of a subquery for anonymous readers keeps the hot public reads'
    query plans small.
    """
    if getattr(user, "is_superuser", False):
        return Q()
    q = Q(**{f"{prefix}is_public": True})
    if getattr(user, "is_authenticated", False):
        q |= Q(**{f"{prefix}club_id__in": director_club_ids(user)})
        q |= Q(**{f"{prefix}pk__in": Match.objects.filter(referee=user).values("tournament_id")})
    return q


def require_director(user: Any, club_id: int) -> None:
    """Raise a 403 with a clear message unless `user` directs the club."""
    if not is_director(user, club_id):
        raise PermissionDenied(_("Only a director of this club may do this."))


class ReadOnlyOrAuthenticated(permissions.BasePermission):
    """Anyone reads (what they can see); writing needs a signed-in user, checked again per action."""

    message = _("Sign in (session or token) to change anything.")

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )
