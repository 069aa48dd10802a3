"""API throttles, counted in the shared cache: per address for anonymous readers, per account
for signed-in users, per token for devices. Rates: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]."""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from club.models import ApiToken
from config.addresses import client_address


class _Throttle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        # Read when asked, not when the class is defined: settings may change (tests, reloads).
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return None if rate is None else str(rate)

    def get_ident(self, request: Any) -> str:
        return client_address(request)


class AnonymousThrottle(_Throttle):
    """Anonymous readers, per address."""

    scope = "anon"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserThrottle(_Throttle):
    """Signed-in users (the session), per account."""

    scope = "user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated) or request.auth is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class TokenThrottle(_Throttle):
    """Devices with an API token (a referee's phone), per token."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        token = request.auth
        if not isinstance(token, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
