"""The score pad's API (docs/api.md): a game by its private key, its deals by number.

Anyone may start a game: the private key is the only credential, as the address of the page
that continues it. Every answer carries the game replayed in the `python -m scoring match`
shape; bad input answers 400 naming the field and stores nothing; an unknown key 404.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from scoring.api_errors import error_body
from scoring.engine import InvalidDeal, InvalidMatch

from . import services
from .game import game_rules, replay, replay_errors
from .models import Pad
from .services import PadRefused

KEY_PATTERN = r"[A-Za-z0-9_-]{8,32}"
NUMBER_PATTERN = r"[0-9]{1,6}"
# The key is the game's only credential, not an id: a string, unlike every id of the API.
KEY = OpenApiParameter("key", str, OpenApiParameter.PATH, description="The game's private key.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The deal, from 1.")


def pad_body(pad: Pad, game: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": pad.key,
        "view_key": pad.view_key,
        "players": pad.players,
        "rules": pad.rules,
        "first_dealer": pad.first_dealer,
        "entries": pad.deals,
        "club": pad.club_id,
        # When the game is deleted unless opened again (null: filed with a club, kept).
        "expires_at": pad.expires_at,
        **game,
    }


def refused(error: PadRefused) -> Response:
    codes = {"not_found": status.HTTP_404_NOT_FOUND, "forbidden": status.HTTP_403_FORBIDDEN}
    return Response(
        error_body(error.errors, error.code), codes.get(error.code, status.HTTP_400_BAD_REQUEST)
    )


def _body(request: Request) -> dict[str, Any]:
    data = request.data
    return data if isinstance(data, dict) else {"__not_an_object__": data}


class PadCreationThrottle(SimpleRateThrottle):
    """New games, per client address (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["pad"]`),
    counted behind `NUM_PROXIES` proxies as every throttle of the site."""

    scope = "pad"

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return None if rate is None else str(rate)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _PadView(APIView):
    permission_classes = [AllowAny]


def kept_pad(key: str) -> Pad:
    """The game by its private key, opened now; 404 for an unknown or expired one."""
    pad = get_object_or_404(Pad.objects.kept(), key=key)
    services.mark_opened(pad)
    return pad


class PadsView(_PadView):
    def get_throttles(self) -> list[BaseThrottle]:
        return [*super().get_throttles(), PadCreationThrottle()]

    @extend_schema(summary="Start a score pad game", request=dict, responses={201: dict})
    def post(self, request: Request) -> Response:
        body = _body(request)
        try:
            pad, game = services.create_pad(
                players=body.get("players"),
                rules=body.get("rules"),
                first_dealer=body.get("first_dealer", "N"),
                deals=body.get("deals"),
            )
        except PadRefused as error:
            return refused(error)
        return Response(pad_body(pad, game), status.HTTP_201_CREATED)


class PadReplayView(_PadView):
    """The page's scorer: a game kept on the phone, replayed without storing anything."""

    @extend_schema(summary="Replay a game without saving it", request=dict, responses=dict)
    def post(self, request: Request) -> Response:
        body = _body(request)
        rules, errors = game_rules(body.get("players"), body.get("rules"))
        if errors:
            return Response(error_body(errors, "invalid"), status.HTTP_400_BAD_REQUEST)
        deals = body.get("deals") or []
        if not isinstance(deals, list):
            return Response(error_body({"deals": [_("Expected a list.")]}, "invalid"), 400)
        try:
            game = replay(rules, body.get("first_dealer", "N"), deals)
        except (InvalidDeal, InvalidMatch) as error:
            return Response(error_body(replay_errors(error), "invalid"), 400)
        return Response({"rules": rules, **game})


class PadView(_PadView):
    @extend_schema(summary="A score pad game, replayed", parameters=[KEY], responses=dict)
    def get(self, request: Request, key: str) -> Response:
        pad = kept_pad(key)
        return Response(pad_body(pad, services.pad_game(pad)))


class PadDealsView(_PadView):
    @extend_schema(
        summary="Add a deal to a score pad game",
        parameters=[KEY],
        request=dict,
        responses={201: dict},
    )
    def post(self, request: Request, key: str) -> Response:
        get_object_or_404(Pad.objects.kept(), key=key)
        try:
            pad, game = services.add_deal(key=key, entry=request.data)
        except PadRefused as error:
            return refused(error)
        return Response(pad_body(pad, game), status.HTTP_201_CREATED)


class PadDealView(_PadView):
    @extend_schema(
        summary="Correct any deal of a score pad game",
        parameters=[KEY, NUMBER],
        request=dict,
        responses=dict,
    )
    def put(self, request: Request, key: str, number: str) -> Response:
        get_object_or_404(Pad.objects.kept(), key=key)
        try:
            pad, game = services.replace_deal(key=key, number=int(number), entry=request.data)
        except PadRefused as error:
            return refused(error)
        return Response(pad_body(pad, game))

    @extend_schema(
        summary="Remove any deal of a score pad game", parameters=[KEY, NUMBER], responses=dict
    )
    def delete(self, request: Request, key: str, number: str) -> Response:
        get_object_or_404(Pad.objects.kept(), key=key)
        try:
            pad, game = services.remove_deal(key=key, number=int(number))
        except PadRefused as error:
            return refused(error)
        return Response(pad_body(pad, game))
