"""The tournaments' viewset: reads for everyone who may see them, and the director's workflow
(settings, teams, schedule and draws, standings, finals), each write handed to its service."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from club.api import ID_PATTERN
from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import SEATS_PREFETCH, Match, Round, SitOut, Standing, Tournament
from tournaments.permissions import (
    listed_q,
    readable_tournaments,
    reopen_results_refusal,
    require_director,
)
from tournaments.selectors.members import public_team_names
from tournaments.services.director import (
    finish_tournament,
    publish_tournament,
    set_status,
)
from tournaments.services.draws import delete_last_round, draw_next_round
from tournaments.services.entrants import (
    register_entrants,
    register_members,
)
from tournaments.services.finals import start_final
from tournaments.services.registration import (
    register_team,
    register_teams,
)
from tournaments.services.results import reopen_results
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import SettingsRefused, create_tournament, update_tournament

from . import etags
from .draws import (
    TABLES_THEN_BYE,
    BracketSerializer,
    DrawnRoundSerializer,
    StartFinalSerializer,
    bracket_body,
)
from .entrant_serializers import EntrantCreateSerializer, EntrantSerializer
from .evening_serializers import CallSerializer
from .filters import (
    StableOrderingFilter,
    TournamentFilter,
)
from .permissions import ReadOnlyOrAuthenticated
from .serializers import (
    GenerateScheduleSerializer,
    ReopenSerializer,
    ScheduleRoundSerializer,
    ScheduleSerializer,
    StatusSerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TournamentSerializer,
    TournamentWriteSerializer,
)
from .standing_serializers import StandingsSerializer, standing_lines

BACKENDS = [filters.DjangoFilterBackend, StableOrderingFilter]


@contextmanager
def api_setting_names() -> Iterator[None]:
    """Refused settings named as the API names them (`rounds`, not the model's `round_count`)."""
    try:
        yield
    except SettingsRefused as refused:
        raise refused.renamed(TournamentWriteSerializer.api_names()) from None


MATCH_RELATED = (
    "round",
    "ns_team__first_player",
    "ns_team__second_player",
    "ew_team__first_player",
    "ew_team__second_player",
    "referee",
)


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related(*MATCH_RELATED).prefetch_related(
        "confirmations__by", SEATS_PREFETCH
    )


def rounds_with_tables(rounds: QuerySet[Round], matches: QuerySet[Match]) -> QuerySet[Round]:
    """Rounds as ScheduleRoundSerializer shows them: `matches`, and who sits out (a mêlée)."""
    return rounds.prefetch_related(
        Prefetch("matches", queryset=matches),
        Prefetch("sit_outs", queryset=SitOut.objects.select_related("entrant__player")),
    )


class ApiViewSet(viewsets.GenericViewSet):
    permission_classes = [ReadOnlyOrAuthenticated]
    filter_backends = BACKENDS
    lookup_value_regex = ID_PATTERN

    def answer(self, serializer_class: Any, instance: Any, code: int = 200, **kw: Any) -> Response:
        return Response(
            serializer_class(instance, context=self.get_serializer_context(), **kw).data, code
        )

    def read_input(self, serializer_class: Any, **kw: Any) -> dict[str, Any]:
        serializer = serializer_class(
            data=self.request.data, context=self.get_serializer_context(), **kw
        )
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    ApiViewSet,
):
    """Tournaments: house rules, match points, tie-break order, status; schedule and standings."""

    filterset_class = TournamentFilter
    ordering_fields = ["starts_on", "name", "created_at", "status"]
    ordering = ["-starts_on", "name"]

    def get_queryset(self) -> QuerySet[Tournament]:
        if self.action == "list":
            return Tournament.with_rounds_drawn(
                Tournament.objects.filter(listed_q(self.request.user))
            )
        return readable_tournaments(self.request.user)

    def get_serializer_class(self) -> Any:
        if self.action in ("create", "update", "partial_update"):
            return TournamentWriteSerializer
        return TournamentSerializer

    @extend_schema(request=TournamentWriteSerializer, responses={201: TournamentSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = self.read_input(TournamentWriteSerializer)
        with api_setting_names():
            tournament = create_tournament(data.pop("club"), by=request.user, **data)
        return self.answer(TournamentSerializer, tournament, status.HTTP_201_CREATED)

    @extend_schema(request=TournamentWriteSerializer, responses=TournamentSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        require_director(request.user, tournament.club_id)
        serializer = TournamentWriteSerializer(
            tournament, data=request.data, partial=kwargs.get("partial", False)
        )
        serializer.is_valid(raise_exception=True)
        with api_setting_names():
            update_tournament(tournament, by=request.user, **serializer.validated_data)
        tournament.refresh_from_db()
        return self.answer(TournamentSerializer, tournament)

    @extend_schema(request=TournamentWriteSerializer, responses=TournamentSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(request=StatusSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def status(self, request: Request, pk: str | None = None) -> Response:
        """Move the tournament along draft → open → running → finished (directors)."""
        tournament = self.get_object()
        data = self.read_input(StatusSerializer)
        set_status(tournament, data["status"], by=request.user)
        return self.answer(TournamentSerializer, tournament)

    @extend_schema(request=ReopenSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Reopen a finished tournament's results, with a reason (directors, audited): they
        are provisional again until the tournament is finished again (a new window)."""
        tournament = self.get_object()
        if (refusal := reopen_results_refusal(request.user, tournament)) is not None:
            raise refusal
        data = self.read_input(ReopenSerializer)
        reopen_results(tournament, by=request.user, reason=data["reason"])
        tournament.refresh_from_db()
        return self.answer(TournamentSerializer, tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish a tournament whose schedule is generated: it is running, referees play."""
        tournament = self.get_object()
        publish_tournament(tournament, by=request.user)
        return self.answer(TournamentSerializer, tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Finish a running tournament whose rounds are all drawn and played (its `actions`
        say when): the standings become the final ones and the correction window opens."""
        tournament = self.get_object()
        finish_tournament(tournament, by=request.user)
        return self.answer(TournamentSerializer, tournament)

    @extend_schema(request=TeamCreateSerializer, responses={201: TeamSerializer(many=True)})
    # The teams just registered, all of them: not a page of a list.
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def teams(self, request: Request, pk: str | None = None) -> Response:
        """Register one team, or several from `text` (one "Name: First & Second" per line)."""
        tournament = self.get_object()
        require_director(request.user, tournament.club_id)
        data = self.read_input(TeamCreateSerializer)
        if "text" in data:
            teams = register_teams(
                tournament, data["text"], by=request.user, new_members=data["new_players"]
            )
        else:
            teams = [
                register_team(
                    tournament,
                    by=request.user,
                    name=data["name"],
                    first_player=data["first_player"],
                    second_player=data["second_player"],
                    seed=data.get("seed"),
                )
            ]
        return self.answer(TeamSerializer, teams, status.HTTP_201_CREATED, many=True)

    @extend_schema(methods=["GET"], responses={200: EntrantSerializer(many=True)})
    @extend_schema(
        methods=["POST"],
        request=EntrantCreateSerializer,
        responses={201: EntrantSerializer(many=True)},
    )
    # Every player of the tournament (or every one just registered): not a page of a list.
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def entrants(self, request: Request, pk: str | None = None) -> Response:
        """An individual tournament's players. GET: all of them, by seed. POST (directors):
        register players alone, `text` with one name per line (club members are found by
        name, others become members) or `players`, ids of club members; 409 for a team format."""
        tournament = self.get_object()
        if request.method == "GET":
            listed = tournament.entrants.select_related("player").order_by("seed")
            return self.answer(EntrantSerializer, listed, many=True)
        require_director(request.user, tournament.club_id)
        data = self.read_input(EntrantCreateSerializer)
        if "text" in data:
            entrants = register_entrants(
                tournament, data["text"], by=request.user, new_members=data["new_players"]
            )
        else:
            entrants = register_members(tournament, data["players"], by=request.user)
        return self.answer(EntrantSerializer, entrants, status.HTTP_201_CREATED, many=True)

    @extend_schema(
        methods=["GET"],
        responses={200: ScheduleSerializer, 304: None},
        parameters=[OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER)],
    )
    @extend_schema(
        methods=["POST"], request=GenerateScheduleSerializer, responses={201: ScheduleSerializer}
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def schedule(self, request: Request, pk: str | None = None) -> Response:
        """GET: the rounds and their matches (with an ETag). POST: generate the round robin."""
        tournament = self.get_object()
        if request.method == "POST":
            require_director(request.user, tournament.club_id)
            data = self.read_input(GenerateScheduleSerializer)
            generate_round_robin(
                tournament,
                by=request.user,
                draw_lots=data["draw_lots"],
                leave_out_expected=data["leave_out_expected"],
            )
            tournament.refresh_from_db()
        etag = etags.schedule_etag(tournament)
        if request.method == "GET":
            return etags.versioned_response(request, etag, lambda: self._schedule_body(tournament))
        return etags.tagged(
            Response(self._schedule_body(tournament), status.HTTP_201_CREATED), etag
        )

    @extend_schema(responses=CallSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def calls(self, request: Request, pk: str | None = None) -> Response:
        """The calls from the tables, newest first, `answered` or not (directors)."""
        tournament = self.get_object()
        require_director(request.user, tournament.club_id)
        return self.answer(CallSerializer, selectors.calls(tournament), many=True)

    @extend_schema(request=None, responses={201: DrawnRoundSerializer})
    @action(detail=True, methods=["post"], url_path="rounds", filter_backends=[])
    def draw_round(self, request: Request, pk: str | None = None) -> Response:
        """Draw the next round of a Swiss, a concours or a knockout final (directors).

        409 with the reason when the round before is not over or every round is drawn.
        """
        tournament = self.get_object()
        require_director(request.user, tournament.club_id)
        round_ = draw_next_round(tournament, by=request.user)
        drawn = rounds_with_tables(
            Round.objects.all(), match_queryset().order_by(*TABLES_THEN_BYE)
        ).get(pk=round_.pk)
        return self.answer(DrawnRoundSerializer, drawn, status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={204: None},
        parameters=[
            OpenApiParameter(
                "number",
                OpenApiTypes.INT,
                OpenApiParameter.PATH,
                description=_("The round's number (the last round)."),
            )
        ],
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"rounds/(?P<number>[0-9]{1,5})",
        filter_backends=[],
    )
    def delete_round(
        self, request: Request, pk: str | None = None, number: str | None = None
    ) -> Response:
        """Delete the last round while none of its deals exists, to draw it again (directors)."""
        tournament = self.get_object()
        require_director(request.user, tournament.club_id)
        round_ = get_object_or_404(Round, tournament=tournament, number=int(number or 0))
        delete_last_round(round_, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(methods=["GET"], responses={200: BracketSerializer})
    @extend_schema(
        methods=["POST"], request=StartFinalSerializer, responses={201: BracketSerializer}
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def finals(self, request: Request, pk: str | None = None) -> Response:
        """GET: the knockout final (404 before it starts). POST: start it from the standings
        (`size` 2, 4, 8 or 16, `third_place`); its rounds are drawn by POST rounds/."""
        tournament = self.get_object()
        if request.method == "POST":
            require_director(request.user, tournament.club_id)
            data = self.read_input(StartFinalSerializer)
            start_final(
                tournament, size=data["size"], third_place=data["third_place"], by=request.user
            )
        progress = selectors.knockout_progress(tournament)
        if progress is None:
            raise Http404
        code = status.HTTP_201_CREATED if request.method == "POST" else status.HTTP_200_OK
        return Response(bracket_body(tournament, progress, match_queryset()), code)

    @staticmethod
    def _schedule_body(tournament: Tournament) -> dict[str, Any]:
        rounds = rounds_with_tables(
            tournament.rounds.order_by("number", "pk"), match_queryset().order_by("table", "pk")
        )
        return {
            "tournament": tournament.pk,
            "change": tournament.change_seq,
            "rounds": ScheduleRoundSerializer(rounds, many=True).data,
        }

    @extend_schema(
        responses={200: StandingsSerializer, 304: None},
        parameters=[
            OpenApiParameter(
                "after_round",
                OpenApiTypes.INT,
                description=_(
                    "The standings after this round, finished matches only (default: the "
                    "live table while a match is in play, else the latest)."
                ),
            ),
            OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER),
        ],
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The stored standings and how fresh they are: after round `after_round` (finished
        matches only); by default the live table while a match is in play (`provisional`,
        each line's `in_play` matches counted on their current totals), else the latest."""
        tournament = self.get_object()
        after_round = self._after_round(request)
        etag = etags.standings_etag(tournament, after_round)
        # Standings only change when a recompute stores them: the body is kept per version.
        return etags.versioned_response(
            request, etag, lambda: self._standings_body(tournament, after_round)
        )

    @staticmethod
    def _standings_body(tournament: Tournament, after_round: int | None) -> dict[str, Any]:
        view = selectors.standings_after(tournament, after_round)
        # A round asked for is shown even when it has no standings yet (no lines).
        shown = after_round if after_round is not None else view.after
        individual = tournament.is_individual
        lines = view.lines() if shown == view.after else Standing.objects.none()
        live = after_round is None and view.live
        return {
            "tournament": tournament.pk,
            "after_round": None if live else shown,
            "provisional": live,
            "rounds": view.rounds,
            "computed_at": serializers.DateTimeField().to_representation(
                tournament.standings_computed_at
            )
            if tournament.standings_computed_at
            else None,
            "change": tournament.standings_seq,
            "latest_change": tournament.change_seq,
            "up_to_date": tournament.standings_current,
            "results": standing_lines(
                lines,
                individual=individual,
                team_names=None if individual else public_team_names(tournament),
            )
            if shown is not None
            else [],
        }

    @staticmethod
    def _after_round(request: Request) -> int | None:
        raw = request.query_params.get("after_round") or ""
        if not raw:
            return None
        if not raw.isdigit() or len(raw) > 5 or int(raw) < 1:
            raise ServiceError(_("after_round must be a round number."), field="after_round")
        return int(raw)
