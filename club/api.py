"""The REST API of clubs: clubs and their rankings, and the serializers and filters of players
(the players viewset is in tournaments/api/players.py: who may see a player depends on tournaments)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import F, QuerySet, prefetch_related_objects
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.request import Request
from rest_framework.response import Response

from .founding import create_club
from .models import Club, Membership, Player, Rating, RatingChange, YearRanking
from .permissions import require_club_director, require_site_admin
from .privacy import name_is_shown, shown_name
from .referees import create_referee
from .registration import MAX_PASTED_CHARACTERS, register_players
from .selectors import best_rated, ratings_prefetch

# Primary keys in URLs: digits only and short enough for a database integer, so an absurd
# id answers 404 instead of overflowing the database driver.
ID_PATTERN = r"[0-9]{1,15}"


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(filters.NumberFilter):
    """A whole id; bigger than a database integer is refused by the form, not the database."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**53)
        super().__init__(*args, **kwargs)


class StableOrderingFilter(OrderingFilter):
    """The client's ordering (or the view's), always ending with the primary key.

    Pages of a list must not repeat or skip rows, so every ordering ends on a unique column.
    """

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        ordering = list(self.get_ordering(request, queryset, view) or [])
        if not any(field.lstrip("-") in ("pk", "id") for field in ordering):
            ordering.append("pk")
        return queryset.order_by(*ordering)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "created_at"]


class PlayerRatingSerializer(serializers.ModelSerializer):
    class Meta:
        model = Rating
        fields = ["club", "rating", "mu", "sigma", "matches_played", "matches_won", "computed_at"]


def _viewer(serializer: serializers.Serializer) -> Any:
    request = serializer.context.get("request")
    return getattr(request, "user", None)


class PlayerBriefSerializer(serializers.ModelSerializer):
    """A player by id and name, the name as the reader may read it (club.privacy)."""

    name = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name"]

    def get_name(self, player: Player) -> str:
        return shown_name(player, _viewer(self))


class PlayerSerializer(PlayerBriefSerializer):
    ratings = PlayerRatingSerializer(many=True, read_only=True)
    first_name = serializers.SerializerMethodField()
    last_name = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "name", "ratings"]

    def get_first_name(self, player: Player) -> str:
        if name_is_shown(player, _viewer(self)) and not player.erased_at:
            return player.first_name
        return shown_name(player, _viewer(self)).split(" ")[0]

    def get_last_name(self, player: Player) -> str:
        if name_is_shown(player, _viewer(self)) and not player.erased_at:
            return player.last_name
        return " ".join(shown_name(player, _viewer(self)).split(" ")[1:])


class AccountBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


class MemberSerializer(serializers.ModelSerializer):
    """A member of a club, their role, and their account (the id a token is issued to)."""

    player = PlayerBriefSerializer(read_only=True)
    user = AccountBriefSerializer(
        source="player.user", read_only=True, allow_null=True, help_text=_("None: no account.")
    )

    class Meta:
        model = Membership
        fields = ["player", "user", "role", "joined_on"]
        read_only_fields = fields


class DirectorAccountSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        help_text=_("Their login; an existing account becomes the director as it is."),
    )
    name = serializers.CharField(
        max_length=170, required=False, default="", help_text=_("For a new account.")
    )
    password = serializers.CharField(
        max_length=4096,
        required=False,
        write_only=True,
        trim_whitespace=False,
        help_text=_("For a new account; left out, an admin sets it later."),
    )


class ClubCreateSerializer(serializers.Serializer):
    # The lengths are checked by the founding service (club.founding), which names the field.
    name = serializers.CharField()
    slug = serializers.CharField(
        required=False, default="", help_text=_("Default: made from the name.")
    )
    city = serializers.CharField(required=False, default="")
    director = DirectorAccountSerializer()


class FoundedClubSerializer(ClubSerializer):
    director = AccountBriefSerializer(read_only=True)

    class Meta(ClubSerializer.Meta):
        fields = [*ClubSerializer.Meta.fields, "director"]


class RefereeCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=170, help_text=_("First and last name."))


class PastedNamesSerializer(serializers.Serializer):
    text = serializers.CharField(
        max_length=MAX_PASTED_CHARACTERS,
        help_text=_("One per line, as on the director's page."),
    )


class RankingSerializer(serializers.ModelSerializer):
    """A line of a club's ranking: the conservative rating (mean minus three deviations)."""

    player = PlayerBriefSerializer(read_only=True)

    class Meta:
        model = Rating
        fields = ["player", "rating", "mu", "sigma", "matches_played", "matches_won", "computed_at"]


class RatingChangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingChange
        fields = ["club", "match_id", "played_at", "rating", "mu", "sigma", "won"]


class YearRankingSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer(read_only=True)
    # The API's name for the calendar year (docs/api.md), kept since before dated seasons.
    season = serializers.IntegerField(source="year", read_only=True)

    class Meta:
        model = YearRanking
        fields = [
            "season",
            "player",
            "tournaments_played",
            "matches_played",
            "matches_won",
            "average_place",
            "computed_at",
        ]


class PlayerFilter(filters.FilterSet):
    club = IdFilter(field_name="memberships__club_id")
    name = filters.CharFilter(method="with_name")

    class Meta:
        model = Player
        fields = ["club", "name"]

    def with_name(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        from django.db.models import Q

        q = Q()
        for word in value.split()[:5]:
            q &= Q(first_name__icontains=word) | Q(last_name__icontains=word)
        return queryset.filter(q)


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    """Clubs, and each club's ranking of its players by rating; its staff for its directors."""

    queryset = Club.objects.order_by("name", "pk")
    serializer_class = ClubSerializer
    lookup_value_regex = ID_PATTERN
    filter_backends = [StableOrderingFilter]
    ordering_fields = ["name", "city", "created_at"]
    ordering = ["name"]

    @extend_schema(
        request=ClubCreateSerializer,
        responses={201: FoundedClubSerializer},
        summary=_("Found a club with its first director (site admins)"),
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_site_admin(request.user)
        serializer = ClubCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        founded = create_club(
            name=data["name"],
            slug=data["slug"],
            city=data["city"],
            director_username=data["director"]["username"],
            director_name=data["director"]["name"],
            director_password=data["director"].get("password"),
            by=request.user,
        )
        body = {**ClubSerializer(founded.club).data, "director": founded.director}
        return Response(FoundedClubSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RefereeCreateSerializer,
        responses={201: MemberSerializer},
        summary=_("Make a referee from a name (directors)"),
    )
    @action(detail=True, methods=["post"], filter_backends=[], ordering=None)
    def referees(self, request: Request, pk: str | None = None) -> Response:
        """A new referee, or the member of that name made one; then issue their token."""
        club = self.get_object()
        require_club_director(request.user, club.pk)
        serializer = RefereeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = create_referee(club, serializer.validated_data["name"], by=request.user)
        membership = Membership.objects.select_related("player__user").get(club=club, player=player)
        return Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PastedNamesSerializer, responses={201: PlayerSerializer(many=True)})
    # The players just registered, all of them: not a page of a list.
    @action(detail=True, methods=["post"], filter_backends=[], ordering=None, pagination_class=None)
    def players(self, request: Request, pk: str | None = None) -> Response:
        """A director registers players into the club, one name per line."""
        club = self.get_object()
        serializer = PastedNamesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        players = register_players(club, serializer.validated_data["text"], by=request.user)
        prefetch_related_objects(players, ratings_prefetch())
        return Response(PlayerSerializer(players, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=RankingSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], ordering=None)
    def rankings(self, request: Request, pk: str | None = None) -> Response:
        """The club's players by rating, best first (ties by more matches, then by name)."""
        ratings = best_rated(self.get_object())
        page = self.paginate_queryset(ratings)
        data = RankingSerializer(page if page is not None else ratings, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(
        responses=YearRankingSerializer(many=True),
        parameters=[
            OpenApiParameter(
                "season", OpenApiTypes.INT, description=_("The season (default: the latest).")
            )
        ],
    )
    @action(detail=True, methods=["get"], filter_backends=[], ordering=None)
    def season(self, request: Request, pk: str | None = None) -> Response:
        """The club's season table: tournaments played, matches won, average finishing place."""
        club = self.get_object()
        raw = request.query_params.get("season") or ""
        if raw and (not raw.isdigit() or len(raw) > 4):
            raise ValidationError({"season": [_("Enter a season (a year).")]})
        entries = YearRanking.objects.filter(club=club).select_related("player")
        year = int(raw) if raw else entries.order_by("-year").values_list("year", flat=True).first()
        entries = entries.filter(year=year or 0).order_by(
            F("average_place").asc(nulls_last=True), "-matches_won", "player__last_name", "pk"
        )
        page = self.paginate_queryset(entries)
        data = YearRankingSerializer(page if page is not None else entries, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)
