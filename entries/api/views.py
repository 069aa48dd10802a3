"""The evening before its first deal, through the API: online registration (anyone, while
open), the director's check-in with entry fees, and the evening's cash.

`POST /api/v1/tournaments/{id}/registrations/` takes an entry without an account (throttled
per address); the answer's `key` is the entry's private key, which alone (besides a director)
cancels it: `DELETE /api/v1/registrations/{id}/?key=...`.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.views import ApiViewSet
from tournaments.models import Tournament
from tournaments.permissions import readable_tournaments, require_director
from tournaments.selectors.players import entries

from .. import selectors
from ..models import Registration
from ..services.check_in import check_in
from ..services.online import (
    accept_registration,
    cancel_registration,
    pair_registrations,
    register_online,
)
from .serializers import (
    AcceptSerializer,
    CashSerializer,
    CheckInSerializer,
    EntryCheckInSerializer,
    PairSerializer,
    RegistrationCreatedSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
)
from .throttles import RegistrationThrottle

__all__ = [
    "CashViewSet",
    "CheckInViewSet",
    "RegistrationViewSet",
    "TournamentRegistrationViewSet",
]

TOURNAMENT_ID = OpenApiParameter(
    "tournament_pk", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The tournament.")
)
KEY = OpenApiParameter(
    "key",
    OpenApiTypes.STR,
    description=_("The entry's private key (from the answer to its registration)."),
)


class _NestedInTournament(ApiViewSet):
    """Under `tournaments/{tournament_pk}/`: the tournament as its reader may see it."""

    pagination_class = None
    filter_backends: list[Any] = []

    def tournament(self) -> Tournament:
        return get_object_or_404(
            readable_tournaments(self.request.user).select_related("club"),
            pk=self.kwargs["tournament_pk"],
        )


@extend_schema(parameters=[TOURNAMENT_ID])
class TournamentRegistrationViewSet(_NestedInTournament):
    """A tournament's online registrations: anyone registers while it is open; directors list."""

    permission_classes = [AllowAny]
    serializer_class = RegistrationSerializer

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.action == "create":
            throttles.append(RegistrationThrottle())
        return throttles

    @extend_schema(responses={200: RegistrationSerializer(many=True)})
    def list(self, request: Request, tournament_pk: str | None = None) -> Response:
        """Every entry in order of arrival, with its place in the waiting list (directors)."""
        tournament = self.tournament()
        require_director(request.user, tournament.club_id)
        return self.answer(RegistrationSerializer, selectors.registrations(tournament), many=True)

    @extend_schema(
        request=RegistrationCreateSerializer,
        responses={201: RegistrationCreatedSerializer},
        auth=[],
    )
    def create(self, request: Request, tournament_pk: str | None = None) -> Response:
        """Register a team, or (team formats) a player looking for a partner, or (individual)
        a player; no account needed. 409 `registration_closed` when it is not open."""
        tournament = self.tournament()
        data = self.read_input(RegistrationCreateSerializer)
        registration = register_online(
            tournament,
            by=request.user,
            players=data["players"],
            partner_wanted=data["partner_wanted"],
            email=data["email"],
            phone=data["phone"],
            link=request.build_absolute_uri,
        )
        # Read again once the entry is committed: a cancellation committed meanwhile may
        # have moved it up the list or into a place. Still a snapshot of this moment.
        registration.refresh_from_db(fields=["status"])
        body = {
            "id": registration.pk,
            "key": registration.key,
            "status": registration.status,
            "position": selectors.waiting_position(registration),
        }
        return Response(RegistrationCreatedSerializer(body).data, status.HTTP_201_CREATED)


class RegistrationViewSet(ApiViewSet):
    """One online entry: seen or cancelled by a director or with its key; accepted and paired
    by a director."""

    permission_classes = [AllowAny]
    serializer_class = RegistrationSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Registration]:
        return Registration.objects.select_related("tournament__club", "paired_with")

    def _entry(self, *, key_allowed: bool) -> Registration:
        registration = self.get_object()
        key = self.request.query_params.get("key") or ""
        if not (key_allowed and key and secrets.compare_digest(key, registration.key)):
            require_director(self.request.user, registration.tournament.club_id)
        return registration

    @extend_schema(parameters=[KEY], responses=RegistrationSerializer)
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The entry, for a director or the holder of its key."""
        return self.answer(RegistrationSerializer, self._entry(key_allowed=True))

    @extend_schema(parameters=[KEY], request=None, responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Cancel the entry (a director, or anyone with `?key=`); the first waiting entry
        that fits moves up."""
        registration = self.get_object()
        cancel_registration(
            registration,
            by=request.user,
            key=request.query_params.get("key") or None,
            link=request.build_absolute_uri,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=AcceptSerializer, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        """Accept the entry (directors): its names matched to the club's members as when
        teams are pasted; a player looking for a partner must be paired first."""
        registration = self._entry(key_allowed=False)
        data = self.read_input(AcceptSerializer)
        accept_registration(registration, by=request.user, new_members=data["new_players"])
        registration.refresh_from_db()
        return self.answer(RegistrationSerializer, registration)

    @extend_schema(request=PairSerializer, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def pair(self, request: Request, pk: str | None = None) -> Response:
        """Pair two players who registered looking for a partner (directors)."""
        registration = self._entry(key_allowed=False)
        data = self.read_input(PairSerializer)
        partner = Registration.objects.filter(pk=data["partner"]).first()
        if partner is None:
            raise serializers.ValidationError({"partner": [_("No such registration.")]})
        pair_registrations(registration, partner, by=request.user)
        registration.refresh_from_db()
        return self.answer(RegistrationSerializer, registration)


@extend_schema(parameters=[TOURNAMENT_ID])
class CheckInViewSet(_NestedInTournament):
    """The director's check-in: every entry with whether it is present and how it paid."""

    serializer_class = EntryCheckInSerializer

    @extend_schema(responses={200: EntryCheckInSerializer(many=True)})
    def list(self, request: Request, tournament_pk: str | None = None) -> Response:
        """Every entry (teams, or players in an individual tournament), withdrawn ones last."""
        tournament = self.tournament()
        require_director(request.user, tournament.club_id)
        return self.answer(
            EntryCheckInSerializer, selectors.check_in_entries(tournament), many=True
        )

    @extend_schema(request=CheckInSerializer, responses={200: EntryCheckInSerializer})
    def create(self, request: Request, tournament_pk: str | None = None) -> Response:
        """Mark an entry present, absent or expected, and its fee paid (directors)."""
        tournament = self.tournament()
        require_director(request.user, tournament.club_id)
        data = self.read_input(CheckInSerializer)
        entry = entries(tournament).filter(pk=data["entry"]).first()
        if entry is None:
            raise serializers.ValidationError({"entry": [_("No such entry in this tournament.")]})
        changes = {name: data[name] for name in ("present", "paid") if name in data}
        entry = check_in(entry, by=request.user, **changes)
        return self.answer(EntryCheckInSerializer, entry)


@extend_schema(parameters=[TOURNAMENT_ID])
class CashViewSet(_NestedInTournament):
    """The evening's entry fees: received per method, and the entries present unpaid."""

    serializer_class = CashSerializer

    @extend_schema(responses={200: CashSerializer})
    def list(self, request: Request, tournament_pk: str | None = None) -> Response:
        tournament = self.tournament()
        require_director(request.user, tournament.club_id)
        summary = selectors.cash_summary(tournament)
        body = {
            "tournament": tournament.pk,
            "currency": settings.BELOTE_CURRENCY,
            "entry_fee": tournament.entry_fee,
            "entry_fee_per": tournament.entry_fee_per,
            "received": summary.received,
            "counts": summary.counts,
            "total": summary.total,
            "unpaid": [
                {"entry": entry.pk, "name": entry.name, "due": due} for entry, due in summary.unpaid
            ],
            "unpaid_total": summary.unpaid_total,
        }
        return Response(CashSerializer(body).data)
