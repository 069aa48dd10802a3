"""The throttles of the evening's public doors: online registrations (the API's and the
registration page's) and self check-in."""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

__all__ = ["RegistrationThrottle", "SelfCheckInThrottle"]


class RegistrationThrottle(SimpleRateThrottle):
    """Online registrations, per client address: the API's and the registration page's
    (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["registration"]`)."""

    scope = "registration"

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return None if rate is None else str(rate)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SelfCheckInThrottle(RegistrationThrottle):
    """The door's page (its searches and check-ins), per client address: a club's shared
    Wi-Fi is one address for a whole room arriving at once
    (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["self_check_in"]`)."""

    scope = "self_check_in"
