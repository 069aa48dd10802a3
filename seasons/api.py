"""A club's seasons and series through the API (docs/api.md, "Seasons and series").

    GET/POST /api/v1/clubs/{id}/seasons/      the club's seasons; a director adds one
    GET      /api/v1/seasons/{id}/            its `tournaments` (ids) and `series`
    GET/POST /api/v1/seasons/{id}/series/     its series; a director adds one
    GET      /api/v1/series/{id}/             a series, its rules and evenings (those the
                                              reader may read)
    PATCH/PUT /api/v1/series/{id}/            a director changes its name, rules or evenings
    DELETE   /api/v1/series/{id}/             a director removes it (its table goes with it)
    GET      /api/v1/series/{id}/standings/   the series table, one row per player

Reading is open to everyone, as the club's pages are; writing is for the club's directors.
Bad rules and dates answer 400 naming the field, and store nothing (the services check).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Club
from club.privacy import public_name
from tournaments.models import Tournament
from tournaments.permissions import readable_tournaments, require_director

from . import selectors
from .models import Season, Series
from .services import delete_series, save_season, save_series
from .services.seasons import RULE_FIELDS


class SeasonInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class SeriesBriefSerializer(serializers.ModelSerializer):
    tournaments = serializers.SerializerMethodField()

    class Meta:
        model = Series
        fields = [
            "id",
            "season",
            "name",
            *RULE_FIELDS,
            "tournaments",
            "computed_at",
        ]

    def get_tournaments(self, series: Series) -> list[int]:
        # A draft's or a private tournament's id is not the reader's to know (nor that it
        # exists): the evenings they may read, by the permission module's one rule.
        request = self.context.get("request")
        viewer = getattr(request, "user", None) or AnonymousUser()
        readable = readable_tournaments(viewer).filter(series=series)
        return sorted(readable.values_list("pk", flat=True))


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on"]


class SeasonDetailSerializer(SeasonSerializer):
    tournaments = serializers.SerializerMethodField()
    series = serializers.SerializerMethodField()

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "tournaments", "series"]

    def get_tournaments(self, season: Season) -> list[int]:
        viewer = self.context["request"].user
        return list(selectors.season_tournaments(season, viewer).values_list("pk", flat=True))

    def get_series(self, season: Season) -> list[dict[str, Any]]:
        found = season.series.order_by("name", "pk")
        return list(SeriesBriefSerializer(found, many=True, context=self.context).data)


class SeriesInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    points = serializers.ChoiceField(choices=Series.Points.choices, default=Series.Points.PLACE)
    place_points = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list, max_length=200
    )
    participation_points = serializers.IntegerField(required=False, default=0)
    best_of = serializers.IntegerField(required=False, allow_null=True, default=None)
    absent_points = serializers.IntegerField(required=False, default=0)
    min_evenings = serializers.IntegerField(required=False, default=0)
    handicap = serializers.ChoiceField(
        choices=Series.Handicap.choices, required=False, default=Series.Handicap.NONE
    )
    tournaments = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list, max_length=500
    )


class EveningPointsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField()
    played = serializers.BooleanField()


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeriesRowSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    rank = serializers.IntegerField(allow_null=True)
    evenings = EveningPointsSerializer(many=True)
    total = serializers.IntegerField()
    handicap_total = serializers.IntegerField()
    handicap_rank = serializers.IntegerField(allow_null=True)
    needs = serializers.IntegerField(allow_null=True)


def standings_rows(view: selectors.SeriesView) -> list[dict[str, Any]]:
    """The series table as the API and the CSV give it."""
    ids = [evening.tournament.pk for evening in view.evenings]
    return [
        {
            "player": {"id": row.player.pk, "name": public_name(row.player)},
            "rank": row.line.rank,
            "evenings": [
                {"tournament": tid, "points": c.points, "counted": c.counted, "played": c.played}
                for tid, c in zip(ids, row.cells, strict=False)
            ],
            "total": row.line.total,
            "handicap_total": row.line.handicap_total,
            "handicap_rank": row.line.handicap_rank,
            "needs": row.line.needs,
        }
        for row in view.rows
    ]


def _tournaments(club: Club, ids: list[int]) -> list[Tournament]:
    # Only the club's: another club's tournament is answered as one that does not exist.
    found = {t.pk: t for t in Tournament.objects.filter(pk__in=ids, club=club)}
    missing = [tid for tid in ids if tid not in found]
    if missing:
        raise ValidationError({"tournaments": [_("No tournament %(id)s.") % {"id": missing[0]}]})
    return [found[tid] for tid in dict.fromkeys(ids)]


class ClubSeasonsView(APIView):
    """The club's seasons, the latest first; a director adds one (`name`, `starts_on`,
    `ends_on`; dates overlapping another season are refused naming the field)."""

    @extend_schema(responses=SeasonSerializer(many=True), summary=gettext_lazy("A club's seasons"))
    def get(self, request: Request, club_pk: str) -> Response:
        club = get_object_or_404(Club, pk=club_pk)
        return Response(SeasonSerializer(selectors.seasons_of(club), many=True).data)

    @extend_schema(
        request=SeasonInputSerializer,
        responses={201: SeasonSerializer},
        summary=gettext_lazy("Add a season (directors)"),
    )
    def post(self, request: Request, club_pk: str) -> Response:
        club = get_object_or_404(Club, pk=club_pk)
        given = SeasonInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        season = save_season(club=club, by=request.user, **given.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonView(APIView):
    """A season: its dates, its `tournaments` (ids: the club's tournaments whose date falls
    in it) and its `series`."""

    @extend_schema(responses=SeasonDetailSerializer)
    def get(self, request: Request, pk: str) -> Response:
        season = get_object_or_404(Season, pk=pk)
        return Response(SeasonDetailSerializer(season, context={"request": request}).data)


class SeasonSeriesView(APIView):
    """A season's series; a director adds one with its rules and evenings (`tournaments`:
    ids, each inside the season's dates, else 400 naming `tournaments`)."""

    @extend_schema(responses=SeriesBriefSerializer(many=True))
    def get(self, request: Request, pk: str) -> Response:
        season = get_object_or_404(Season, pk=pk)
        found = season.series.order_by("name", "pk")
        return Response(SeriesBriefSerializer(found, many=True, context={"request": request}).data)

    @extend_schema(
        request=SeriesInputSerializer,
        responses={201: SeriesBriefSerializer},
        summary=gettext_lazy("Add a series to a season (directors)"),
    )
    def post(self, request: Request, pk: str) -> Response:
        season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
        given = SeriesInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        name = data.pop("name")
        tournaments = _tournaments(season.club, data.pop("tournaments"))
        series = save_series(
            season=season, name=name, rules=data, tournaments=tournaments, by=request.user
        )
        return Response(
            SeriesBriefSerializer(series, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class SeriesView(APIView):
    """A series: its rules and its evenings (`tournaments`: ids). A director changes it
    (PATCH: the fields given; PUT: all of them, a field left out taking its default) through
    the service the director's form uses, or deletes it; its table follows."""

    @extend_schema(responses=SeriesBriefSerializer)
    def get(self, request: Request, pk: str) -> Response:
        series = get_object_or_404(Series, pk=pk)
        return Response(SeriesBriefSerializer(series, context={"request": request}).data)

    @extend_schema(
        request=SeriesInputSerializer,
        responses=SeriesBriefSerializer,
        summary=gettext_lazy("Change a series (directors)"),
    )
    def patch(self, request: Request, pk: str) -> Response:
        return self._change(request, pk, partial=True)

    @extend_schema(
        request=SeriesInputSerializer,
        responses=SeriesBriefSerializer,
        summary=gettext_lazy("Replace a series' name, rules and evenings (directors)"),
    )
    def put(self, request: Request, pk: str) -> Response:
        return self._change(request, pk, partial=False)

    @extend_schema(responses={204: None}, summary=gettext_lazy("Delete a series (directors)"))
    def delete(self, request: Request, pk: str) -> Response:
        series = get_object_or_404(Series.objects.select_related("season"), pk=pk)
        delete_series(series, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _change(self, request: Request, pk: str, *, partial: bool) -> Response:
        series = get_object_or_404(Series.objects.select_related("season__club"), pk=pk)
        season = series.season
        # Refused before the body is read: a reader who may not change it learns nothing of
        # what the body would have been answered.
        require_director(request.user, season.club_id)
        given = SeriesInputSerializer(data=request.data, partial=partial)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        name = data.pop("name", series.name)
        ids = data.pop("tournaments", None)
        if ids is None:  # the evenings it has (a draft's too: the director's to keep)
            tournaments = list(series.tournaments.order_by("starts_on", "pk"))  # type: ignore[attr-defined]
        else:
            tournaments = _tournaments(season.club, ids)
        saved = save_series(
            season=season,
            series=series,
            name=name,
            rules=data,
            tournaments=tournaments,
            by=request.user,
        )
        return Response(SeriesBriefSerializer(saved, context={"request": request}).data)


class SeriesStandingsView(APIView):
    """The series table: per player the rank (null under `min_evenings`), every evening so
    far (missed ones `played: false` worth `absent_points`; `counted` among the best N), the
    `total`, the `handicap_total` and `needs` (docs/seasons.md). Also as CSV on the page."""

    @extend_schema(responses=SeriesRowSerializer(many=True))
    def get(self, request: Request, pk: str) -> Response:
        series = get_object_or_404(Series, pk=pk)
        return Response(standings_rows(selectors.series_view(series)))
