"""Who directs a club, and the system actor: the base every permission of the site stands on."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from .errors import NotAllowed
from .models import ApiToken, Membership


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


def actor_user(by: Any) -> Any:
    """The user to record in an audit row: a signed-in person, else nobody (the system)."""
    if isinstance(by, SystemActor) or not getattr(by, "is_authenticated", False):
        return None
    return by


# --- what a request may do with the credential it came with ---------------------------------


def act_as_referee_in(user: Any, club_id: int, *, tournament_id: int | None = None) -> None:
    """The request came with a referee-only credential: referee rights, nothing more.

    A director-issued device token (club.tokens) limits its holder to the club it was issued
    in; a referee's private link (the tournaments' link middleware) to one tournament. Marks
    this request's user object (loaded afresh for every request), so every check sees a
    referee there, whatever else the person is: never a director, never a site admin.
    """
    user._belote_referee_club = club_id
    user._belote_referee_tournament = tournament_id
    user._belote_directed_clubs = frozenset()


def referee_only_club(user: Any) -> int | None:
    """The club a referee-only credential is limited to, or None for a person's full rights."""
    return getattr(user, "_belote_referee_club", None)


def referee_only_tournament(user: Any) -> int | None:
    """The tournament a private link's session is limited to, or None."""
    return getattr(user, "_belote_referee_tournament", None)


def is_referee_only(user: Any) -> bool:
    return referee_only_club(user) is not None


def is_site_admin(user: Any) -> bool:
    """A site admin acting with their full rights (and the system): allowed everything."""
    return (
        bool(getattr(user, "is_authenticated", False))
        and bool(getattr(user, "is_superuser", False))
        and referee_only_club(user) is None
    )


def require_site_admin(user: Any) -> None:
    if not is_site_admin(user):
        raise NotAllowed(_("Only a site admin may do this."))


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


def directs_any(user: Any) -> bool:
    """Whether `user` directs a club (the header's Director link, where signing in lands)."""
    return bool(is_site_admin(user) or directed_club_ids(user))


def directs_club(user: Any, club_id: int) -> bool:
    """A director (staff) of the club; a site admin (and the system) directs every club."""
    if not getattr(user, "is_authenticated", False) or is_referee_only(user):
        return False
    if is_site_admin(user):
        return True
    return club_id in directed_club_ids(user)


def require_club_director(user: Any, club_id: int) -> None:
    if not directs_club(user, club_id):
        raise NotAllowed(_("Only a director of this club may do this."))


def member_club_ids(user: Any) -> frozenset[int]:
    """The clubs a signed-in person belongs to (as a member or a director) through their player."""
    if not getattr(user, "is_authenticated", False) or is_referee_only(user) or not user.pk:
        return frozenset()
    return frozenset(Membership.objects.filter(player__user=user).values_list("club_id", flat=True))


def may_attach_friendly_game(user: Any, club_id: int) -> bool:
    """A member of the club may file a score pad's game with it as a friendly game."""
    return club_id in member_club_ids(user) or directs_club(user, club_id)


# --- API tokens ---------------------------------------------------------------------------


def require_token_issuer(user: Any) -> None:
    """Referees' device tokens are issued and revoked by directors (of some club) and site
    admins; which referee, in which club, each service checks on its own."""
    if not directed_club_ids(user) and not is_site_admin(user):
        raise NotAllowed(_("Only a director may issue or revoke tokens."))


def holds_only_referee_rights_q() -> Q:
    """The accounts that hold no more than a referee's rights, as a filter on users: active,
    neither a site admin nor a user of the Django admin, and directing no club.

    The one definition of "holds only a referee's rights": a credential made for someone by
    someone else (a director's device token, a referee's private link) shows its secret to
    the maker, so it is only ever made for such an account.
    """
    directors = Membership.objects.filter(role=Membership.Role.DIRECTOR).values("player__user")
    return Q(is_active=True, is_superuser=False, is_staff=False) & ~Q(pk__in=directors)


def referee_token_holders_q(club_id: int) -> Q:
    """The users a director of the club may give a device token to, as a filter on users:
    a referee of this club who holds only a referee's rights."""
    referees = Membership.objects.filter(club_id=club_id, role=Membership.Role.REFEREE).values(
        "player__user"
    )
    return Q(pk__in=referees) & holds_only_referee_rights_q()


def may_issue_referee_token(by: Any, user: Any, club_id: int) -> bool:
    """A director of the club, for someone else whose only role is referee there."""
    if not directs_club(by, club_id) or getattr(by, "pk", None) == user.pk:
        return False
    model = type(user)
    return model._default_manager.filter(referee_token_holders_q(club_id), pk=user.pk).exists()


def may_manage_own_tokens(by: Any, credential: Any = None) -> bool:
    """A person makes, lists and revokes tokens of their own only with their full rights (a
    session signed in with a password, or another own token). A referee-only credential — a
    device token, or a private link's session — gives its tables and nothing more: no token
    (which would outlive the link and carry no limit), no list of the person's tokens."""
    if not getattr(by, "is_authenticated", False) or getattr(by, "pk", None) is None:
        return False
    if is_referee_only(by):
        return False
    return not (isinstance(credential, ApiToken) and credential.scope != ApiToken.Scope.OWN)


def may_issue_own_token(by: Any, credential: Any) -> bool:
    return may_manage_own_tokens(by, credential)


def may_revoke_token(by: Any, token: ApiToken) -> bool:
    """Its holder (with their full rights), a site admin, or for a referee's device token a
    director of its club."""
    if is_referee_only(by):
        return False
    if getattr(by, "pk", None) is not None and token.user_id == by.pk:
        return True
    if token.club_id is not None:
        return directs_club(by, token.club_id)
    return is_site_admin(by)
