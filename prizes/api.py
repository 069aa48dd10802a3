"""`GET /api/v1/tournaments/{id}/prizes/`: the prize list (docs/prizes.md)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Tournament
from tournaments.permissions import readable_tournaments

from .selectors import prizes_shown


class PrizeEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PrizeLineSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = PrizeEntrySerializer()
    amount = serializers.CharField(
        allow_null=True, help_text=_("Cash, a decimal string; null for a prize in kind alone.")
    )
    kind = serializers.CharField(allow_blank=True)
    shared = serializers.BooleanField(
        help_text=_("A prize in kind that tied entries share: the director settles it.")
    )
    line = serializers.IntegerField(help_text=_("The index of the prize line in `prizes.lines`."))


class PrizesSerializer(serializers.Serializer):
    currency = serializers.CharField()
    pool = serializers.CharField()
    awarded = serializers.CharField()
    retained = serializers.CharField(
        help_text=_("The pool less the cash awarded; negative when the club adds money.")
    )
    results = serializers.ChoiceField(choices=Tournament.Results.choices)
    lines = PrizeLineSerializer(many=True)


def _money(amount: Decimal) -> str:
    return str(amount.quantize(Decimal("0.01")))


def prizes_body(tournament: Tournament) -> dict[str, Any] | None:
    shown = prizes_shown(tournament)
    if shown is None:
        return None
    stored = shown.stored
    return {
        "currency": shown.currency,
        "pool": _money(stored.pool),
        "awarded": _money(stored.awarded),
        "retained": _money(stored.retained),
        "results": shown.results,
        "lines": [
            {key: line[key] for key in ("place", "entry", "amount", "kind", "shared", "line")}
            for line in shown.lines
        ],
    }


class TournamentPrizesView(APIView):
    """The prize list once the last round is finished (provisional until the results are
    final); 404 `not_found` while there is none (no prizes, or rounds still to play)."""

    @extend_schema(responses=PrizesSerializer)
    def get(self, request: Request, tournament_pk: str) -> Response:
        tournament = get_object_or_404(readable_tournaments(request.user), pk=tournament_pk)
        body = prizes_body(tournament)
        if body is None:
            return Response(
                {
                    "errors": {"detail": [str(_("This tournament has no prize list yet."))]},
                    "code": "not_found",
                },
                status=404,
            )
        return Response(body)
