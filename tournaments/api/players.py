"""Players through the API: only those the reader may see (tournaments.permissions), with their
rating in each club and their rating history."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from club.api import (
    ID_PATTERN,
    PlayerFilter,
    PlayerSerializer,
    RatingChangeSerializer,
    StableOrderingFilter,
)
from club.merging import merged_target_id
from club.models import Player, RatingChange
from club.privacy import shown_name
from club.selectors import ratings_prefetch
from tournaments.permissions import readable_players
from tournaments.selectors.members import head_to_head, player_history


class HistoryEveningSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    tournament_name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="tournament.starts_on")
    place = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    points = serializers.IntegerField(help_text=_("Game points scored that evening."))
    match_points = serializers.IntegerField()
    partners = serializers.SerializerMethodField()

    def get_partners(self, evening: Any) -> list[dict[str, Any]]:
        viewer = self.context.get("viewer")
        return [{"id": p.pk, "name": shown_name(p, viewer)} for p in evening.partners]


class HeadToHeadSerializer(serializers.Serializer):
    against = serializers.IntegerField()
    matches = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()


def _met(rows: list[Any], viewer: Any) -> list[dict[str, Any]]:
    return [{"id": p.pk, "name": shown_name(p, viewer), "matches": n} for p, n in rows]


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    """Players, with their rating in each club; a player's rating history.

    Listed: players of public tournaments and of the club rankings (and, for a club's
    directors, their members and their private tournaments' players). Any other player
    answers 404, as a private tournament does.
    """

    serializer_class = PlayerSerializer
    lookup_value_regex = ID_PATTERN
    filterset_class = PlayerFilter
    filter_backends = [filters.DjangoFilterBackend, StableOrderingFilter]
    ordering_fields = ["last_name", "first_name", "created_at"]
    ordering = ["last_name", "first_name"]

    def get_queryset(self) -> QuerySet[Player]:
        return readable_players(self.request.user).prefetch_related(ratings_prefetch()).distinct()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # A record merged into another: every address of it answers 301 to that one's.
        pk = kwargs.get("pk")
        if pk is not None and (kept := merged_target_id(int(pk))) is not None:
            self._merged_into = kept

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        kept = getattr(self, "_merged_into", None)
        if kept is not None:
            path = request.path.replace(f"/players/{kwargs['pk']}/", f"/players/{kept}/", 1)
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(path + (f"?{query}" if query else ""))
        return super().finalize_response(request, response, *args, **kwargs)

    def get_object(self) -> Player:
        if getattr(self, "_merged_into", None) is not None:
            from rest_framework.exceptions import NotFound

            raise NotFound  # answered by the 301 (finalize_response)
        return super().get_object()  # type: ignore[no-any-return]

    @extend_schema(
        responses=HistoryEveningSerializer(many=True),
        summary=_("The evenings the player played, newest first"),
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def history(self, request: Request, pk: str | None = None) -> Response:
        """Every evening (date, tournament, place, partners, points) of the tournaments the
        reader may read, and the partners and opponents met most often."""
        player = self.get_object()
        history = player_history(player, request.user)
        context = {"viewer": request.user}
        return Response(
            {
                "evenings": HistoryEveningSerializer(
                    history.evenings, many=True, context=context
                ).data,
                "partners": _met(history.partners, request.user),
                "opponents": _met(history.opponents, request.user),
            }
        )

    @extend_schema(
        responses=HeadToHeadSerializer,
        parameters=[OpenApiParameter("against", OpenApiTypes.INT, required=True)],
    )
    @action(detail=True, methods=["get"], url_path="head-to-head", filter_backends=[])
    def head_to_head(self, request: Request, pk: str | None = None) -> Response:
        """The matches the player sat at against another one: won, lost, drawn, points."""
        player = self.get_object()
        raw = request.query_params.get("against", "")
        if not raw.isdigit() or len(raw) > 15:
            raise ValidationError({"against": [_("Enter a player id.")]})
        against = get_object_or_404(readable_players(request.user), pk=int(raw))
        found = head_to_head(player, against, request.user)
        fields = {f: getattr(found, f) for f in found.__slots__}
        return Response(HeadToHeadSerializer({"against": against.pk, **fields}).data)

    @extend_schema(
        responses=RatingChangeSerializer(many=True),
        parameters=[OpenApiParameter("club", OpenApiTypes.INT, description=_("Only this club."))],
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating after each finished match, oldest first."""
        player = self.get_object()
        changes = RatingChange.objects.filter(player=player).order_by(
            "club_id", "played_at", "match_id", "pk"
        )
        club = request.query_params.get("club", "")
        if club:
            if not club.isdigit() or len(club) > 15:
                raise ValidationError({"club": [_("Enter a club id.")]})
            changes = changes.filter(club_id=int(club))
        page = self.paginate_queryset(changes)
        data = RatingChangeSerializer(page if page is not None else changes, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)
