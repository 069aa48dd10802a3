"""API tokens: signing in for one, a person's own, a referee's device's, revoking; and reading a key.

A key is shown once, when it is made; only its SHA-256 is stored, so a stolen copy of the
database opens nothing. Every token made or revoked keeps who did it and when (the rows
stay, revoked); every sign-in, good or bad, goes through Django's `authenticate` and its
signals, so the site's login audit and lockout see API sign-ins as they see the pages'.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import authenticate, get_user_model, user_logged_in
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from .errors import NotAllowed, ServiceError
from .models import ApiToken, Club, secret_digest
from .permissions import (
    act_as_referee_in,
    actor_user,
    may_issue_own_token,
    may_issue_referee_token,
    may_revoke_token,
    require_club_director,
)
from .text import require_visible_text

log = logging.getLogger("belote.auth")

# "blt_" tells a secret scanner (and a person) what the string is.
KEY_PREFIX = "blt_"
SHOWN_PREFIX_LENGTH = 12
# Recording every use would write a row per request; once a minute is enough to tell
# a token in use from a forgotten one.
LAST_USED_EVERY = datetime.timedelta(minutes=1)


class InvalidCredentials(ServiceError):
    code = "invalid_credentials"


@dataclass(frozen=True)
class IssuedToken:
    """A token just made, and its key: the only time the key is known."""

    token: ApiToken
    key: str


def _create(user: Any, *, scope: str, club: Club | None, name: str, by: Any) -> IssuedToken:
    require_visible_text(name, field="name", label=_("The token's name"))
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        scope=scope,
        club=club,
        name=name,
        digest=secret_digest(key),
        prefix=key[:SHOWN_PREFIX_LENGTH],
        issued_by=actor_user(by),
    )
    log.info(
        "api token %s issued to %s (%s%s) by %s",
        token.pk,
        user.get_username(),
        scope,
        f" in club {club.pk}" if club else "",
        by,
    )
    return IssuedToken(token, key)


def sign_in(request: HttpRequest, *, username: str, password: str, name: str = "") -> IssuedToken:
    """A person exchanges their username and password for a token of their own.

    Through `authenticate`, so failures send `user_login_failed` and any lockout backend
    (django-axes) counts them; a success sends `user_logged_in` (last login, audit).
    """
    user = authenticate(request, username=username, password=password)
    if user is None:
        log.warning("api sign-in refused for %r", username[:150])
        raise InvalidCredentials(_("The username or the password is wrong."))
    user_logged_in.send(sender=type(user), request=request, user=user)
    return _create(user, scope=ApiToken.Scope.OWN, club=None, name=name, by=user)


def issue_own_token(*, by: Any, credential: Any = None, name: str = "") -> IssuedToken:
    """A signed-in person makes another token of their own (one per script or device).

    `credential` is what the request came with (None for a session): a referee's device
    token cannot make a token with wider rights.
    """
    if not may_issue_own_token(by, credential):
        raise NotAllowed(
            _(
                "A referee's device token or private link cannot see or make tokens; "
                "sign in with your password."
            )
        )
    return _create(by, scope=ApiToken.Scope.OWN, club=None, name=name, by=by)


def issue_referee_token(club: Club, user: Any, *, by: Any, name: str = "") -> IssuedToken:
    """A director gives a referee's device a token: referee rights in this club, no more.

    The referee's earlier device tokens of the club are revoked: one device per referee,
    and a lost phone is replaced by issuing again.
    """
    require_club_director(by, club.pk)
    if not may_issue_referee_token(by, user, club.pk):
        raise NotAllowed(
            _(
                "A director may issue tokens only to people whose only role is referee "
                "in this club; others sign in themselves."
            ),
            field="user",
        )
    with transaction.atomic():
        earlier = ApiToken.objects.filter(
            user=user, club=club, scope=ApiToken.Scope.REFEREE, revoked_at__isnull=True
        )
        _revoke(earlier, by=by)
        return _create(user, scope=ApiToken.Scope.REFEREE, club=club, name=name, by=by)


def revoke_token(token: ApiToken, *, by: Any) -> None:
    if not may_revoke_token(by, token):
        raise NotAllowed(_("Only the token's holder or a director of its club may revoke it."))
    _revoke(ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True), by=by)


def revoke_referee_tokens(club: Club, user: Any, *, by: Any) -> int:
    """A director takes back every device token a referee holds for the club."""
    require_club_director(by, club.pk)
    tokens = ApiToken.objects.filter(user=user, club=club, revoked_at__isnull=True)
    return _revoke(tokens, by=by)


def _revoke(tokens: QuerySet[ApiToken], *, by: Any) -> int:
    ids = list(tokens.values_list("pk", flat=True))
    if ids:
        ApiToken.objects.filter(pk__in=ids).update(
            revoked_at=timezone.now(), revoked_by=actor_user(by)
        )
        log.info("api tokens %s revoked by %s", ids, by)
    return len(ids)


def tokens_of(user: Any) -> QuerySet[ApiToken]:
    """A person's tokens still in force, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).select_related(
        "club", "issued_by"
    )


def holder_of(key: str) -> tuple[Any, ApiToken] | None:
    """The person a key acts for, limited to what the token allows; None if it opens nothing."""
    if not key.startswith(KEY_PREFIX) or len(key) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=secret_digest(key), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    user = token.user
    if token.scope == ApiToken.Scope.REFEREE and token.club_id is not None:
        act_as_referee_in(user, token.club_id)
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return user, token


def active_user(user_id: int) -> Any:
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()
