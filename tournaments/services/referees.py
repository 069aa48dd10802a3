"""A tournament's referees without admin work: made from names, each given a private link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import secret_digest
from club.referees import register_referees

from ..errors import Conflict, ServiceError
from ..models import MatchEvent, RefereeLink, Tournament
from ..permissions import actor_user, may_hold_referee_link, may_referee, require_director

__all__ = [
    "FreshLink",
    "LinkRevoked",
    "add_referees",
    "make_referee_link",
    "revoke_referee_link",
    "use_referee_link",
]


@dataclass(frozen=True, slots=True)
class FreshLink:
    """A link just made, with its secret: the only moment the secret is known."""

    link: RefereeLink
    secret: str


class LinkRevoked(Conflict):
    status = 410
    code = "link_revoked"


def make_referee_link(tournament: Tournament, referee: Any, *, by: Any) -> FreshLink:
    """A new private link for `referee` in `tournament`; their previous link stops working."""
    require_director(by, tournament.club_id)
    if not may_referee(referee, tournament.club_id):
        raise ServiceError(
            # Never the person's name: they may be another club's, or the site's admin.
            _("User %(id)s is not a referee of %(club)s.")
            % {"id": getattr(referee, "pk", referee), "club": tournament.club},
            field="referee",
        )
    if not may_hold_referee_link(referee):
        raise ServiceError(
            _(
                "%(user)s directs a club or administers the site: they sign in with their "
                "password. Private links are for referees only."
            )
            % {"user": referee},
            field="referee",
        )
    secret = RefereeLink.new_secret()
    with transaction.atomic():
        now = timezone.now()
        RefereeLink.objects.filter(
            tournament=tournament, referee=referee, revoked_at__isnull=True
        ).update(revoked_at=now)
        link = RefereeLink.objects.create(
            tournament=tournament,
            referee=referee,
            digest=secret_digest(secret),
            issued_by=actor_user(by),
        )
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.REFEREE_LINK, detail=referee, by=by
        )
    return FreshLink(link, secret)


def revoke_referee_link(link: RefereeLink, *, by: Any) -> RefereeLink:
    """The link stops working; a session it opened ends at its next request."""
    require_director(by, link.tournament.club_id)
    with transaction.atomic():
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            MatchEvent.record(
                tournament=link.tournament_id,
                action=MatchEvent.Action.REVOKE_LINK,
                detail=link.referee,
                by=by,
            )
    return link


def add_referees(tournament: Tournament, text: str, *, by: Any) -> list[FreshLink]:
    """Referees from pasted names (club.registration), each with a new private link."""
    require_director(by, tournament.club_id)
    with transaction.atomic():
        users = register_referees(tournament.club, text, by=by)
        return [make_referee_link(tournament, user, by=by) for user in users]


def use_referee_link(secret: str) -> RefereeLink:
    """The live link of `secret`, its use noted; a revoked one raises `LinkRevoked`."""
    link = RefereeLink.find(secret)
    if link is None:
        raise ServiceError(_("This link does not exist."), field="link")
    if not link.is_live:
        raise LinkRevoked(
            _("This link was revoked by a director: ask them for a new one."), field="link"
        )
    RefereeLink.objects.filter(pk=link.pk).update(last_used_at=timezone.now())
    return link
