"""The API of individual tournaments' players (mêlée): each a resource of its own
(`/api/v1/entrants/<id>/`), which a director withdraws or deletes.

Players are registered and listed through the tournament resource
(`POST /api/v1/tournaments/<id>/entrants/`, views.py). A round's partnerships are teams
(`TeamSerializer.round_number`); a match lists its four seated players, a round who sits
out, a standings line its player.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Entrant
from tournaments.permissions import readable_tournaments, require_director
from tournaments.services.categories import set_category
from tournaments.services.entrants import delete_entrant, reinstate_entrant, withdraw_entrant

from .entrant_serializers import EntrantEditSerializer, EntrantSerializer
from .filters import EntrantFilter
from .views import ApiViewSet

__all__ = ["EntrantViewSet"]


class EntrantViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """The players of individual tournaments one may see; directors withdraw or delete them."""

    serializer_class = EntrantSerializer
    filterset_class = EntrantFilter
    ordering_fields = ["seed", "withdrawn"]
    ordering = ["tournament", "seed"]

    def get_queryset(self) -> QuerySet[Entrant]:
        return Entrant.objects.filter(
            tournament__in=readable_tournaments(self.request.user)
        ).select_related("player", "tournament")

    @extend_schema(request=EntrantEditSerializer, responses=EntrantSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Tag the player's category (which a category prize line names)."""
        entrant = self.get_object()
        require_director(request.user, entrant.tournament.club_id)
        data = self.read_input(EntrantEditSerializer)
        set_category(entrant, by=request.user, category=data["category"])
        return self.answer(EntrantSerializer, entrant)

    @extend_schema(request=None, responses={204: None})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete a player registered by mistake, before any round is drawn with them."""
        entrant = self.get_object()
        require_director(request.user, entrant.tournament.club_id)
        delete_entrant(entrant, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=EntrantSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the player: their results stay, the next draws leave them out."""
        entrant = self.get_object()
        require_director(request.user, entrant.tournament.club_id)
        entrant = withdraw_entrant(entrant, by=request.user)
        return self.answer(EntrantSerializer, entrant)

    @extend_schema(request=None, responses=EntrantSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def reinstate(self, request: Request, pk: str | None = None) -> Response:
        """Undo the player's withdrawal; 409 `next_round_drawn` once a round has been drawn
        since."""
        entrant = self.get_object()
        require_director(request.user, entrant.tournament.club_id)
        entrant = reinstate_entrant(entrant, by=request.user)
        return self.answer(EntrantSerializer, entrant)
