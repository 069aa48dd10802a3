"""Players through the API: only those the reader may see (tournaments.permissions), with their
rating in each club and their rating history."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
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
from club.models import Player, RatingChange
from club.selectors import ratings_prefetch
from tournaments.permissions import readable_players


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

    @extend_schema(
        responses=RatingChangeSerializer(many=True),
        parameters=[OpenApiParameter("club", OpenApiTypes.INT, description=_("Only this club."))],
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating after each finished match, oldest first."""
        player = get_object_or_404(readable_players(request.user), pk=pk)
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
