"""The sign-in backends' first step: django-axes' lockout check, for sign-ins through a request."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """django-axes' check on every sign-in made through a request (the site's and the admin's
    forms). `authenticate()` without a request (a command, the shell) has no address or form
    to lock out: it goes on to the next backend instead of failing."""

    def authenticate(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)
