"""The API of the evening's changes: substitutes, manual draw edits, calls to the director.

The endpoints are actions of the team, round, match and tournament resources
(`teams/<id>/substitutes/`, `teams/<id>/reinstate/`, `rounds/<id>/swap/`,
`matches/<id>/calls/`, `tournaments/<id>/calls/`, matches.py and views.py) and this call
resource (`calls/<id>/answer/`), each handing its write to a service.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import DirectorCall
from tournaments.permissions import directed_tournaments
from tournaments.services.calls import answer_call as answer_the_call

from .evening_serializers import CallSerializer
from .views import ApiViewSet

__all__ = ["CallViewSet"]


class CallViewSet(mixins.RetrieveModelMixin, ApiViewSet):
    """Calls from the tables to the director: a director of the club reads and answers them."""

    serializer_class = CallSerializer

    def get_queryset(self) -> QuerySet[DirectorCall]:
        return DirectorCall.objects.filter(
            tournament__in=directed_tournaments(self.request.user)
        ).select_related("tournament__club", "match__round", "by", "answered_by")

    @extend_schema(request=None, responses=CallSerializer)
    @action(detail=True, methods=["post"], url_path="answer", url_name="answer", filter_backends=[])
    def answer_call(self, request: Request, pk: str | None = None) -> Response:
        """A director has come to the table: the call is answered (409 if it already was)."""
        call = answer_the_call(self.get_object(), by=request.user)
        return self.answer(CallSerializer, self.get_queryset().get(pk=call.pk))
