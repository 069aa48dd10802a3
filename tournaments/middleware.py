"""Sessions opened by a referee's private link: limited to that tournament, ended by revocation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model, logout
from django.http import HttpRequest, HttpResponse

from club.permissions import act_as_referee_in, holds_only_referee_rights_q

from .models import RefereeLink

# The session key naming the link a session was opened by.
LINK_SESSION_KEY = "belote_referee_link"


def open_link_session(request: HttpRequest, link: RefereeLink) -> None:
    """Remember, in the freshly signed-in session, the link that opened it."""
    request.session[LINK_SESSION_KEY] = link.pk


def session_link_id(request: HttpRequest) -> int | None:
    session = getattr(request, "session", None)
    return session.get(LINK_SESSION_KEY) if session is not None else None


class RefereeLinkMiddleware:
    """After AuthenticationMiddleware: mark a link session's user as a referee of the link's
    tournament only (tournaments.permissions reads the marks), or sign it out when the link
    was revoked since — one small query per request of such a session, none for the others."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        link_id = session_link_id(request)
        if link_id is not None:
            self._limit(request, link_id)
        return self.get_response(request)

    @staticmethod
    def _limit(request: HttpRequest, link_id: Any) -> None:
        user = request.user
        # Links are only made for accounts that hold no more than a referee's rights; one
        # promoted (or deactivated) since signs in again.
        link = (
            RefereeLink.objects.filter(
                pk=link_id,
                referee__in=get_user_model().objects.filter(holds_only_referee_rights_q()),
            )
            .values("referee_id", "tournament_id", "tournament__club_id", "revoked_at")
            .first()
        )
        still_good = (
            link is not None and link["revoked_at"] is None and link["referee_id"] == user.pk
        )
        if not still_good:
            logout(request)
            return
        assert link is not None
        act_as_referee_in(user, link["tournament__club_id"], tournament_id=link["tournament_id"])
