"""Tokens for referees' devices, and the trivial ping view."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import NotAllowed
from tournaments.permissions import token_recipient_q

from .permissions import ReadOnlyOrAuthenticated
from .serializers import TokenSerializer


def _issuable_user(director: Any, user_id: int) -> Any:
    """A user the director may give a token to (tournaments.permissions); anyone else is 404."""
    recipients = token_recipient_q(director)
    if recipients is None:
        raise NotAllowed(_("Only a director may issue or revoke tokens."))
    users = get_user_model().objects.filter(pk=user_id, is_active=True)
    return get_object_or_404(users.filter(recipients))


class TokenView(APIView):
    """A director issues a referee's API token (a new key each time, the old one revoked)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(request=TokenSerializer, responses={201: TokenSerializer})
    def post(self, request: Request) -> Response:
        serializer = TokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _issuable_user(request.user, serializer.validated_data["user"])
        with transaction.atomic():
            Token.objects.filter(user=user).delete()
            token = Token.objects.create(user=user)
        body = {
            "user": user.pk,
            "username": user.get_username(),
            "key": token.key,
            "created": token.created,
        }
        return Response(TokenSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenRevokeView(APIView):
    """A director revokes a referee's token: their device must be given a new one."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        responses={204: None},
    )
    def delete(self, request: Request, user_id: str) -> Response:
        user = _issuable_user(request.user, int(user_id))
        Token.objects.filter(user=user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class PingView(APIView):
    """The smallest JSON answer the stack can give: the benchmark's yardstick."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("Ping", {"ok": serializers.BooleanField()}))
    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class NotFoundView(APIView):
    """Any other address under /api/v1/: a JSON 404 like every other refusal, not a page."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    schema = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        raise NotFound(_("There is no such address in the API."))
