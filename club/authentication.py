"""How the REST API knows who is calling: `Authorization: Token <key>` (club.tokens), else the session."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .tokens import holder_of

KEYWORD = "Token"


class TokenAuthentication(authentication.BaseAuthentication):
    """A key from `POST /api/v1/auth/token/` (or a director, for a referee's device).

    First in DEFAULT_AUTHENTICATION_CLASSES: DRF answers a request that needed a person
    with 401 and this class's `WWW-Authenticate` challenge only when the first class has one.
    """

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = authentication.get_authorization_header(request).split()
        if not words or words[0].lower() != KEYWORD.lower().encode():
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                _("Send the header as `Authorization: Token <key>`, the key without spaces.")
            )
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("This token is not valid.")) from None
        found = holder_of(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("This token is not valid, or was revoked."))
        return found

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'
