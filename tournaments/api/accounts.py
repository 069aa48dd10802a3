"""Signing in by API, who am I, a person's own tokens, referees' device tokens; ping and 404.

Every decision is club.permissions' (through the club.tokens services); these views only
map requests to the services and answers back.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from club.api import ID_PATTERN
from club.models import ApiToken, Club, Membership
from club.permissions import (
    directed_club_ids,
    is_site_admin,
    may_manage_own_tokens,
    referee_only_club,
    require_token_issuer,
)
from club.tokens import (
    IssuedToken,
    active_user,
    issue_own_token,
    issue_referee_token,
    revoke_referee_tokens,
    revoke_token,
    sign_in,
    tokens_of,
)
from tournaments.errors import NotAllowed, ServiceError

from .permissions import ReadOnlyOrAuthenticated
from .serializers import UserBriefSerializer

# --- serializers -------------------------------------------------------------------------


class TokenSerializer(serializers.ModelSerializer):
    """A token in force; its key is never shown again after it was made."""

    user = UserBriefSerializer(read_only=True)
    issued_by: Any = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "user",
            "name",
            "scope",
            "club",
            "prefix",
            "issued_by",
            "created_at",
            "last_used_at",
        ]
        read_only_fields = fields


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(
        read_only=True,
        help_text=gettext_lazy(
            "The key, shown this once: send it as `Authorization: Token <key>`."
        ),
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "key"]
        read_only_fields = fields


def _new_token(issued: IssuedToken) -> Response:
    token = issued.token
    body = NewTokenSerializer(token).data
    body["key"] = issued.key
    return Response(body, status=status.HTTP_201_CREATED)


TOKEN_NAME = serializers.CharField(
    required=False,
    allow_blank=True,
    max_length=100,
    help_text=gettext_lazy(
        "What the token is for, to tell your tokens apart (a device, a script)."
    ),
)


class SignInSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    name = TOKEN_NAME


class NewOwnTokenSerializer(serializers.Serializer):
    name = TOKEN_NAME


class RefereeTokenSerializer(serializers.Serializer):
    user = serializers.IntegerField(
        min_value=1, max_value=2**53, help_text=gettext_lazy("The referee's user id.")
    )
    club = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**53,
        help_text=gettext_lazy("The club; needed only when the referee serves several of yours."),
    )
    name = TOKEN_NAME


class ClubRoleSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="club.id")
    name = serializers.CharField(source="club.name")
    slug = serializers.CharField(source="club.slug")
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField(help_text=gettext_lazy("The person's name, as players see it."))
    player = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("Their player id, if they have one.")
    )
    is_site_admin = serializers.BooleanField(
        help_text=gettext_lazy("Whether this request may do everything (a site admin).")
    )
    clubs = ClubRoleSerializer(many=True, help_text=gettext_lazy("Their clubs and role in each."))
    directs = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("The clubs this request may direct (none with a referee's token)."),
    )
    referee_only_in = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy(
            "With a referee's device token: the one club where it acts, as a referee only."
        ),
    )
    authenticated_by = serializers.ChoiceField(choices=["session", "token"])
    token = TokenSerializer(allow_null=True, help_text=gettext_lazy("The token of this request."))


# --- views -------------------------------------------------------------------------------


class SignInView(APIView):
    """Exchange a username and password for a token of your own (no cookie, no CSRF)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "api_sign_in"

    @extend_schema(
        request=SignInSerializer,
        responses={201: NewTokenSerializer},
        auth=[],
        summary=gettext_lazy("Sign in: your username and password for a token"),
        examples=[
            OpenApiExample(
                "Sign in",
                request_only=True,
                value={"username": "marie", "password": "her password", "name": "laptop"},
            ),
            OpenApiExample(
                "Wrong password",
                status_codes=["400"],
                response_only=True,
                value={
                    "errors": {"detail": ["The username or the password is wrong."]},
                    "code": "invalid_credentials",
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = SignInSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        issued = sign_in(
            request._request,
            username=data["username"],
            password=data["password"],
            name=data.get("name", ""),
        )
        return _new_token(issued)


class MeView(APIView):
    """Who the request acts for: the person, their clubs and roles, and the credential."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer, summary=gettext_lazy("Who am I"))
    def get(self, request: Request) -> Response:
        user: Any = request.user  # signed in (IsAuthenticated)
        player = getattr(user, "player", None)
        memberships = (
            Membership.objects.filter(player__user=user)
            .select_related("club")
            .order_by("club__name", "pk")
        )
        token = request.auth if isinstance(request.auth, ApiToken) else None
        body = {
            "id": user.pk,
            "username": user.get_username(),
            "name": player.full_name if player else user.get_full_name() or user.get_username(),
            "player": player.pk if player else None,
            "is_site_admin": is_site_admin(user),
            "clubs": memberships,
            "directs": sorted(
                Club.objects.values_list("pk", flat=True)
                if is_site_admin(user)
                else directed_club_ids(user)
            ),
            "referee_only_in": referee_only_club(user),
            "authenticated_by": "token" if token else "session",
            "token": token,
        }
        return Response(MeSerializer(body).data)


class MyTokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Your tokens in force; make another from a signed-in session; revoke any of them."""

    serializer_class = TokenSerializer
    permission_classes = [IsAuthenticated]
    filter_backends: list[Any] = []
    lookup_value_regex = ID_PATTERN

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if not may_manage_own_tokens(request.user, request.auth):
            raise NotAllowed(
                _(
                    "A referee's device token or private link cannot see or make tokens; sign in with your password."
                )
            )

    def get_queryset(self) -> QuerySet[ApiToken]:
        return tokens_of(self.request.user)

    @extend_schema(
        request=NewOwnTokenSerializer,
        responses={201: NewTokenSerializer},
        summary=gettext_lazy("Make another token of your own"),
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = NewOwnTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = issue_own_token(
            by=request.user, credential=request.auth, name=serializer.validated_data.get("name", "")
        )
        return _new_token(issued)

    def perform_destroy(self, instance: ApiToken) -> None:
        revoke_token(instance, by=self.request.user)


def _referees_club(by: Any, user: Any, club_id: int | None) -> Club:
    """The club a referee's token is for: the one named, or the only one both share."""
    if club_id is not None:
        return get_object_or_404(Club, pk=club_id)
    clubs = Club.objects.filter(memberships__player__user=user).distinct()
    if not is_site_admin(by):
        clubs = clubs.filter(pk__in=directed_club_ids(by))
    found = list(clubs[:2])
    if not found:
        raise NotFound(_("None of your clubs has this person on its staff."))
    if len(found) > 1:
        raise ServiceError(
            _("This person serves several of your clubs: name the club."), field="club"
        )
    return found[0]


class RefereeTokenView(APIView):
    """A director gives a referee's device a token: referee rights in the club, no more."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        request=RefereeTokenSerializer,
        responses={201: NewTokenSerializer},
        summary=gettext_lazy("Issue a referee's device token (directors)"),
    )
    def post(self, request: Request) -> Response:
        serializer = RefereeTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        require_token_issuer(request.user)
        user = active_user(data["user"])
        if user is None:
            raise NotFound(_("There is no such user."))
        club = _referees_club(request.user, user, data.get("club"))
        issued = issue_referee_token(club, user, by=request.user, name=data.get("name", ""))
        return _new_token(issued)


class RefereeTokenRevokeView(APIView):
    """A director takes back a referee's device tokens: the device must be given a new one."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH),
            OpenApiParameter(
                "club", OpenApiTypes.INT, description=gettext_lazy("Only this club's tokens.")
            ),
        ],
        responses={204: None},
        summary=gettext_lazy("Revoke a referee's device tokens (directors)"),
    )
    def delete(self, request: Request, user_id: str) -> Response:
        require_token_issuer(request.user)
        user = active_user(int(user_id))
        raw = request.query_params.get("club", "")
        if raw and (not raw.isdigit() or len(raw) > 15):
            raise ServiceError(_("Enter a club id."), field="club")
        if user is None:
            raise NotFound(_("There is no such user."))
        club = _referees_club(request.user, user, int(raw) if raw else None)
        revoke_referee_tokens(club, user, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PingView(APIView):
    """The smallest JSON answer the stack can give: the benchmark's yardstick."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("Ping", {"ok": serializers.BooleanField()}), auth=[])
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
