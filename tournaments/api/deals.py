"""The deals of a match: read by whoever sees the match, written by its referee or a director
through the deal services, with the `Idempotency-Key` header as the submission key."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api_errors import error_body
from scoring.engine import Rules, codec, score_deal, validate_deal
from scoring.rulebook import worked_examples
from tournaments.errors import DealChanged, NotAllowed
from tournaments.models import Deal, Match
from tournaments.permissions import can_write_deals, is_referee_of
from tournaments.services.deals import correct_deal, enter_deal, remove_deal

from . import etags
from .deal_serializers import DealEntrySerializer, DealSerializer
from .matches import find_match
from .schema import ERROR_RESPONSE
from .views import ApiViewSet

MATCH_ID = OpenApiParameter(
    "match_pk", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The match.")
)
NUMBER = OpenApiParameter(
    "number",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description=_("The deal's number in the match, from 1."),
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=_(
        "A key of your choice (1–100 characters) for this one action: sending it again "
        "does not repeat the action but answers as the first time did."
    ),
)

IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=_(
        "The deal's ETag (its `version`) as you read it: if the deal was changed since, "
        "nothing is changed and the answer is 412 with the deal as it stands (`current`)."
    ),
)

THROWN_IN = {"taker": None}
REFUSED = {"taker": "X", "points": {"team": "NS", "cards": 161}, "belote": "NS"}
RULE_BOOK = settings.BASE_DIR / "docs" / "rules.md"


def _rule_book_examples() -> list[OpenApiExample]:
    """The rule book's worked examples (docs/rules.md §6), each entry with the engine's result."""
    examples = []
    for worked in worked_examples(RULE_BOOK):
        examples.append(
            OpenApiExample(
                f"Rule book example {worked.number}",
                summary=f"Rule book §6, example {worked.number}: {worked.summary}",
                description=worked.text,
                value=worked.deal,
                request_only=True,
            )
        )
    return examples


def _stored_deal() -> dict[str, Any]:
    first = worked_examples(RULE_BOOK)[0]
    return {
        "number": 1,
        "dealer": "N",
        "entry": first.deal,
        # Scored by the engine, so the documented result cannot drift from the rules.
        "result": codec.result_to_json(score_deal(first.deal, Rules())),
        "entered_by": "referee",
        "entered_at": "2026-11-28T14:03:00Z",
        "updated_at": "2026-11-28T14:03:00Z",
        "version": "5d0c7b1f6a2e9c4b8d31",
    }


EXAMPLES = [
    *_rule_book_examples(),
    OpenApiExample(
        "A thrown-in deal",
        summary="A thrown-in deal (everyone passed): rule book §8",
        value=THROWN_IN,
        request_only=True,
    ),
    OpenApiExample("A stored deal", response_only=True, value=_stored_deal()),
    OpenApiExample(
        "A refused deal",
        status_codes=["400"],
        response_only=True,
        # The engine's own words for the rule book's example of §8 "Errors".
        value={**codec.errors_to_json(validate_deal(REFUSED)), "code": "invalid_deal"},
    ),
]


@extend_schema_view(
    list=extend_schema(
        parameters=[
            MATCH_ID,
            OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER),
        ],
        responses={200: DealSerializer(many=True), 304: None},
        summary=_("The deals of a match, in order (with an ETag)"),
    ),
    retrieve=extend_schema(parameters=[MATCH_ID, NUMBER], summary=_("One deal and its result")),
    create=extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY],
        request=DealEntrySerializer,
        responses={201: DealSerializer, 400: ERROR_RESPONSE},
        examples=EXAMPLES,
        summary=_("Enter the next deal (the match's referee or a director)"),
    ),
    update=extend_schema(
        parameters=[MATCH_ID, NUMBER, IDEMPOTENCY_KEY, IF_MATCH],
        request=DealEntrySerializer,
        responses={200: DealSerializer, 400: ERROR_RESPONSE, 412: ERROR_RESPONSE},
        examples=EXAMPLES,
        summary=_("Correct a deal; the deals after it are scored again"),
    ),
    destroy=extend_schema(
        parameters=[MATCH_ID, NUMBER, IDEMPOTENCY_KEY, IF_MATCH],
        responses={204: None, 409: ERROR_RESPONSE, 412: ERROR_RESPONSE},
        summary=_(
            "Remove a deal: any deal for a director, the last one for the match's referee; "
            "the deals after it move up one number"
        ),
    ),
)
class DealViewSet(ApiViewSet):
    """The deals of one match: the entry exactly as docs/rules.md §8, the engine's result beside it."""

    serializer_class = DealSerializer
    filter_backends: list[Any] = []
    lookup_field = "number"
    lookup_value_regex = r"[0-9]{1,5}"

    def get_queryset(self) -> Any:
        return Deal.objects.filter(match=self.match).select_related("entered_by").order_by("number")

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.match = find_match(request, kwargs["match_pk"])

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Scoreboards poll this: the body is kept per version of the match's deals.
        return etags.versioned_response(request, etags.deals_etag(self.match), self._page)

    def _page(self) -> Any:
        deals = self.get_queryset()
        page = self.paginate_queryset(deals)
        data = DealSerializer(page if page is not None else deals, many=True).data
        return self.get_paginated_response(data).data if page is not None else data

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        deal = get_object_or_404(self.get_queryset(), number=kwargs["number"])
        return _with_etag(Response(DealSerializer(deal).data), deal)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        entry = self._entry(request)
        deal = enter_deal(self.match, entry, by=request.user, submission_key=self._key(request))
        return _with_etag(Response(DealSerializer(deal).data, status=status.HTTP_201_CREATED), deal)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        number = int(kwargs["number"])
        get_object_or_404(self.get_queryset(), number=number)
        entry = self._entry(request)
        try:
            deal = correct_deal(
                self.match,
                number,
                entry,
                by=request.user,
                submission_key=self._key(request),
                expected_version=_if_match(request),
            )
        except DealChanged as changed:
            return _changed(changed)
        return _with_etag(Response(DealSerializer(deal).data), deal)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        number = int(kwargs["number"])
        key = self._key(request)
        self._check_writer(request)
        # With a key, everything is decided under the match's lock: a retry answers as the
        # first removal did even when that one committed a moment ago (never a 404).
        if not key:
            get_object_or_404(self.get_queryset(), number=number)
        try:
            remove_deal(
                self.match,
                number,
                by=request.user,
                submission_key=key,
                expected_version=_if_match(request),
            )
        except DealChanged as changed:
            return _changed(changed)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _check_writer(self, request: Request) -> None:
        # Refuse strangers before looking at their entry; the match's own referee goes on to
        # the service, which tells a closed match (409) from a forbidden one.
        match: Match = self.match
        if not can_write_deals(request.user, match) and not is_referee_of(request.user, match):
            raise NotAllowed(
                _("Only this match's referee or a director of the club may change its deals.")
            )

    def _entry(self, request: Request) -> dict[str, Any]:
        self._check_writer(request)
        serializer = DealEntrySerializer(data=request.data, rules=self.match.rules)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    @staticmethod
    def _key(request: Request) -> str | None:
        return request.headers.get("Idempotency-Key")


def _if_match(request: Request) -> str | None:
    """The version named by `If-Match` (None when absent or `*`: any version)."""
    header = request.headers.get("If-Match", "").strip()
    if not header:
        return None
    # A bare version (no quotes) is taken as it is rather than ignored.
    wanted = parse_etags(header) or [header]
    if "*" in wanted:
        return None
    return wanted[0].removeprefix("W/").strip('"')


def _with_etag(response: Response, deal: Deal) -> Response:
    response["ETag"] = f'"{deal.version}"'
    return response


def _changed(changed: DealChanged) -> Response:
    """412: the refusal, and the deal as it stands, so the client can show it."""
    body = {
        **error_body({"If-Match": [changed.message]}, changed.code),
        "current": DealSerializer(changed.current).data,
    }
    return _with_etag(Response(body, status=changed.status), changed.current)
