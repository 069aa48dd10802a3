"""The API's one permission class; every decision is tournaments.permissions'."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions


class ReadOnlyOrAuthenticated(permissions.BasePermission):
    """Anyone reads (what they can see); writing needs a signed-in user, checked again per action."""

    message = _("Sign in (session or token) to change anything.")

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )
