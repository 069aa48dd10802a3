"""How the API answers a refusal: `{"errors": {path: [messages]}, "code": ...}`, never a 500."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.api_errors import error_body
from tournaments.errors import NotAllowed, ServiceError


def flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as dotted paths, the way the engine names fields."""
    found: dict[str, list[str]] = {}
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = "detail" if key == "non_field_errors" else str(key)
            for path, messages in flatten(value, f"{prefix}.{name}" if prefix else name).items():
                found.setdefault(path, []).extend(messages)
    elif isinstance(detail, list | tuple):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list | tuple):
                path = f"{prefix}.{index}" if prefix else str(index)
                for sub, messages in flatten(value, path).items():
                    found.setdefault(sub, []).extend(messages)
            else:
                found.setdefault(prefix or "detail", []).append(str(value))
    else:
        found.setdefault(prefix or "detail", []).append(str(detail))
    return found


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return getattr(exc, "default_code", "invalid")


def _anonymous(context: dict[str, Any]) -> bool:
    request = context.get("request")
    user = getattr(request, "user", None) if request is not None else None
    return not getattr(user, "is_authenticated", False)


def _sign_in_first(context: dict[str, Any]) -> Response:
    """A refusal to someone not signed in: 401 and the challenge saying how to sign in."""
    view = context.get("view")
    request = context.get("request")
    message = _("Sign in first: send `Authorization: Token <key>` (see POST /api/v1/auth/token/).")
    response = Response(
        error_body({"detail": [message]}, "not_authenticated"), status.HTTP_401_UNAUTHORIZED
    )
    challenge = view.get_authenticate_header(request) if view and request else None
    if challenge:
        response["WWW-Authenticate"] = challenge
    return response


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every refusal in one shape, with its status.

    A "not allowed" to an anonymous caller is a 401 with `WWW-Authenticate`: they may well
    be allowed once signed in, and the challenge tells a client how.
    """
    if isinstance(exc, NotAllowed | DjangoPermissionDenied | exceptions.PermissionDenied) and (
        _anonymous(context)
    ):
        return _sign_in_first(context)
    if isinstance(exc, ServiceError):
        # Some refusals say more than a message (the tables a round still waits for).
        details = exc.details() if hasattr(exc, "details") else {}
        return Response({**error_body(exc.errors(), exc.code), **details}, exc.status)
    if isinstance(exc, DjangoValidationError):
        errors = (
            {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
            if hasattr(exc, "error_dict")
            else {"detail": [str(m) for m in exc.messages]}
        )
        errors = {("detail" if k == "__all__" else k): v for k, v in errors.items()}
        return Response(error_body(errors, "invalid"), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, IntegrityError):
        # A database constraint caught what a check before it missed: two requests at once.
        message = _("This conflicts with the current state; reload and try again.")
        return Response(error_body({"detail": [message]}, "conflict"), status.HTTP_409_CONFLICT)
    if isinstance(exc, DataError | OverflowError):
        message = _("A value is out of range.")
        return Response(error_body({"detail": [message]}, "out_of_range"), 400)
    if isinstance(exc, ObjectDoesNotExist):
        exc = Http404()
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        code = "not_authenticated"
    else:
        code = _code_of(exc)
    response.data = error_body(flatten(exc.detail), code)
    return response
