"""The REST API of a club's members (its directors'): the roster, adding and editing a
member, deactivating, importing a spreadsheet, merging two records, erasing, exporting."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from .api import AccountBriefSerializer, PlayerBriefSerializer
from .importing import ImportRefused, import_members, parse, preview, rows_as_data, summary
from .members import MEMBER_FIELDS, add_member, edit_member, require_member_reader, set_active
from .merging import merge_members
from .models import Club, Membership, Player
from .privacy import erase_member, export_member
from .selectors import club_member, roster

BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


class ClubMemberSerializer(serializers.ModelSerializer):
    """A member as the club keeps them; `id` is the player's (their page's, the teams')."""

    id = serializers.IntegerField(source="player_id", read_only=True)
    first_name = serializers.CharField(source="player.first_name", max_length=80)
    last_name = serializers.CharField(
        source="player.last_name", max_length=80, required=False, allow_blank=True
    )
    profile = serializers.ChoiceField(
        source="player.profile", choices=Player.Profile.choices, required=False
    )
    active = serializers.BooleanField(required=False)
    player = PlayerBriefSerializer(read_only=True)
    user = AccountBriefSerializer(source="player.user", read_only=True, allow_null=True)

    class Meta:
        model = Membership
        fields = [
            "id",
            "first_name",
            "last_name",
            "email",
            "phone",
            "licence",
            "active",
            "profile",
            "role",
            "joined_on",
            "player",
            "user",
        ]
        read_only_fields = ["role", "joined_on"]
        # The services check the fields and name each problem (club.members).
        extra_kwargs = {
            "email": {"validators": [], "required": False},
            "phone": {"required": False},
            "licence": {"required": False},
        }


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    flat = {**data.pop("player", {}), **data}
    return {key: value for key, value in flat.items() if key in MEMBER_FIELDS}


class ImportRowSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["new", "same", "similar", "invalid"])
    member = serializers.IntegerField(
        allow_null=True, help_text=_("The member it is or is close to.")
    )
    member_name = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    licence = serializers.CharField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        # `errors` is a Serializer's own attribute: the field is added by name.
        fields["errors"] = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text=_("The problems of an `invalid` row, by column."),
        )
        return fields


class MergeSerializer(serializers.Serializer):
    into = serializers.IntegerField(min_value=1, max_value=2**53, help_text=_("The record kept."))


class MemberViewSet(viewsets.ViewSet):
    """The club's members, for its directors only: to anyone else, 404."""

    lookup_value_regex = r"[0-9]{1,15}"
    # /clubs/{id}/members/{player_id}/: the club's id as on the club's own resource.
    lookup_url_kwarg = "player_id"
    pagination_class = PageNumberPagination

    def club(self) -> Club:
        club = get_object_or_404(Club, pk=self.kwargs["id"])
        require_member_reader(self.request.user, club)
        return club

    @extend_schema(
        responses=ClubMemberSerializer(many=True),
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, description=_("A name, typos forgiven.")),
            OpenApiParameter("name", OpenApiTypes.STR, description=_("The same as `q`.")),
            OpenApiParameter("active", OpenApiTypes.BOOL),
            OpenApiParameter("role", OpenApiTypes.STR, enum=list(Membership.Role.values)),
        ],
        summary=_("The club's members (directors)"),
    )
    def list(self, request: Request, id: str) -> Response:
        club = self.club()
        params = request.query_params
        active = params.get("active", "").lower()
        if active and active not in BOOLEANS:
            raise ValidationError({"active": [_("Use true or false.")]})
        role = params.get("role", "")
        if role and role not in Membership.Role.values:
            raise ValidationError(
                {"role": [_("Use one of: %(roles)s.") % {"roles": ", ".join(Membership.Role)}]}
            )
        query = (params.get("q") or params.get("name") or "")[:200]
        found = roster(club, query=query, active=BOOLEANS.get(active))
        if role:
            found = [membership for membership in found if membership.role == role]
        paginator = self.pagination_class()
        page: list[Membership] | None = paginator.paginate_queryset(found, request, view=self)  # type: ignore[arg-type]
        data = ClubMemberSerializer(
            page if page is not None else found, many=True, context={"request": request}
        ).data
        return paginator.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(request=ClubMemberSerializer, responses={201: ClubMemberSerializer})
    def create(self, request: Request, id: str) -> Response:
        club = self.club()
        serializer = ClubMemberSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = add_member(club, by=request.user, **_fields(dict(serializer.validated_data)))
        return Response(
            ClubMemberSerializer(membership, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses=ClubMemberSerializer)
    def retrieve(self, request: Request, id: str, player_id: str) -> Response:
        return Response(
            ClubMemberSerializer(
                club_member(self.club(), player_id), context={"request": request}
            ).data
        )

    @extend_schema(request=ClubMemberSerializer, responses=ClubMemberSerializer)
    def partial_update(self, request: Request, id: str, player_id: str) -> Response:
        membership = club_member(self.club(), player_id)
        serializer = ClubMemberSerializer(membership, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        active = data.pop("active", None)
        edit_member(membership, by=request.user, **_fields(data))
        if active is not None:
            set_active(membership, active, by=request.user)
        return Response(
            ClubMemberSerializer(
                club_member(membership.club, player_id), context={"request": request}
            ).data
        )

    @extend_schema(responses={204: None}, summary=_("Deactivate a member (history kept)"))
    def destroy(self, request: Request, id: str, player_id: str) -> Response:
        set_active(club_member(self.club(), player_id), False, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
            }
        },
        responses={200: ImportRowSerializer(many=True)},
        parameters=[
            OpenApiParameter("dry_run", OpenApiTypes.BOOL, description=_("Preview only.")),
            OpenApiParameter(
                "add_similar",
                OpenApiTypes.STR,
                description=_("Lines of `similar` rows to add as new members, comma-separated."),
            ),
        ],
        summary=_("Import the club's list from a .csv or .xlsx file"),
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[MultiPartParser, FormParser],
    )
    def import_file(self, request: Request, id: str) -> Response:
        club = self.club()
        upload = request.FILES.get("file")
        if upload is None:
            raise ImportRefused(_("Send the file as multipart form data, field `file`."))
        rows = parse(upload.read(), upload.name or "")
        dry_run = request.query_params.get("dry_run", "").lower()
        if dry_run and dry_run not in BOOLEANS:
            raise ValidationError({"dry_run": [_("Use true or false.")]})
        if BOOLEANS.get(dry_run):
            rows = preview(club, rows)
            return Response({"summary": summary(rows), "rows": rows_as_data(rows)})
        raw = request.query_params.get("add_similar", "")
        if raw and not all(part.strip().isdigit() for part in raw.split(",")):
            raise ValidationError({"add_similar": [_("Enter line numbers, comma-separated.")]})
        lines = frozenset(int(part) for part in raw.split(",") if part.strip())
        counts = import_members(club, rows, by=request.user, add_similar=lines)
        code = status.HTTP_201_CREATED if counts["created"] else status.HTTP_200_OK
        return Response({"summary": counts, "rows": rows_as_data(rows)}, status=code)

    @extend_schema(request=MergeSerializer, responses=ClubMemberSerializer)
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, id: str, player_id: str) -> Response:
        """Merge this record into `into`: everything of it moves there (409 `played_together`)."""
        club = self.club()
        second = club_member(club, player_id).player
        serializer = MergeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        into = get_object_or_404(Player, pk=serializer.validated_data["into"])
        kept = merge_members(club, second, into=into, by=request.user)
        return Response(
            ClubMemberSerializer(club_member(club, kept.pk), context={"request": request}).data
        )

    @extend_schema(request=None, responses=ClubMemberSerializer)
    @action(detail=True, methods=["post"])
    def erase(self, request: Request, id: str, player_id: str) -> Response:
        """Erase the member's personal data for good (results and standings keep figures)."""
        club = self.club()
        membership = club_member(club, player_id)
        erase_member(club, membership.player, by=request.user)
        return Response(
            ClubMemberSerializer(club_member(club, player_id), context={"request": request}).data
        )

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, methods=["get"])
    def export(self, request: Request, id: str, player_id: str) -> Response:
        """The member's data as JSON (the right of access)."""
        club = self.club()
        return Response(export_member(club, club_member(club, player_id).player, by=request.user))
