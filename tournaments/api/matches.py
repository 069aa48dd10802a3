"""Viewsets of teams, rounds and matches: reads for everyone who may see them, and what a
director does to them, each write handed to its service (tournaments.services)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.errors import ServiceError
from tournaments.models import Match, Round, Substitution, Team
from tournaments.permissions import (
    readable_q,
    readable_tournaments,
    require_director,
)
from tournaments.services.calls import call_director
from tournaments.services.categories import set_category
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import close_match, reopen_match
from tournaments.services.draw_edits import swap_sides, swap_teams
from tournaments.services.lineup import remove_substitution, substitute
from tournaments.services.round_closing import close_round, reopen_round
from tournaments.services.table_referees import assign_referee
from tournaments.services.teams import delete_team, edit_team
from tournaments.services.withdrawals import reinstate_team, withdraw_team

from .draws import TABLES_THEN_BYE
from .evening_serializers import (
    CallInputSerializer,
    CallSerializer,
    SubstituteInputSerializer,
    SubstitutionSerializer,
    SwapInputSerializer,
    SwappedRoundSerializer,
    player_named,
)
from .filters import (
    MatchFilter,
    RoundFilter,
    TeamFilter,
)
from .serializers import (
    ConfirmationInputSerializer,
    MatchSerializer,
    RefereeAssignmentSerializer,
    RoundSerializer,
    TeamEditSerializer,
    TeamSerializer,
)
from .standing_serializers import AuditSerializer, DealAuditSerializer, MatchEventSerializer
from .views import ApiViewSet, match_queryset, rounds_with_tables


class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Teams of the tournaments one may see; directors rename, change, delete and withdraw them."""

    serializer_class = TeamSerializer
    filterset_class = TeamFilter
    ordering_fields = ["seed", "name", "withdrawn"]
    ordering = ["tournament", "seed"]

    def get_queryset(self) -> QuerySet[Team]:
        return Team.objects.filter(
            tournament__in=readable_tournaments(self.request.user)
        ).select_related("first_player", "second_player", "round")

    @extend_schema(request=TeamEditSerializer, responses=TeamSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Rename the team, change its players before it has played, or tag its category."""
        team = self.get_object()
        require_director(request.user, team.tournament.club_id)
        changes = dict(self.read_input(TeamEditSerializer))
        if "category" in changes:
            set_category(team, by=request.user, category=changes.pop("category"))
        if changes:
            edit_team(team, by=request.user, **changes)
        team.refresh_from_db()
        return self.answer(TeamSerializer, team)

    @extend_schema(request=None, responses={204: None})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete a team that has not played (a schedule without deals goes with it)."""
        team = self.get_object()
        require_director(request.user, team.tournament.club_id)
        delete_team(team, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=TeamSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the team: its unplayed matches become byes for the opponents."""
        team = self.get_object()
        require_director(request.user, team.tournament.club_id)
        withdraw_team(team, by=request.user)
        team.refresh_from_db()
        return self.answer(TeamSerializer, team)

    @extend_schema(request=None, responses={200: TeamSerializer, 409: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"], filter_backends=[])
    def reinstate(self, request: Request, pk: str | None = None) -> Response:
        """Undo the team's withdrawal: its byes are matches again. 409 `next_round_drawn`
        once a round has been drawn since."""
        team = self.get_object()
        require_director(request.user, team.tournament.club_id)
        reinstate_team(team, by=request.user)
        team.refresh_from_db()
        return self.answer(TeamSerializer, team)

    @extend_schema(methods=["GET"], request=None, responses=SubstitutionSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=SubstituteInputSerializer,
        responses={201: SubstitutionSerializer, 409: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def substitutes(self, request: Request, pk: str | None = None) -> Response:
        """GET: the team's substitutes. POST (directors): `in` sits for the team in place of
        `out` from round `from_round` on (a mêlée: in that round's partnership). Refused,
        naming the field: a substitute who already plays in that round (`in`), a player not
        in the team (`out`), a round already finished (`from_round`, 409 `round_finished`)."""
        team = self.get_object()
        if request.method == "GET":
            listed = team.substitutions.select_related("player_out", "player_in")
            return self.answer(SubstitutionSerializer, listed, many=True)
        require_director(request.user, team.tournament.club_id)
        data = self.read_input(SubstituteInputSerializer)
        sub = substitute(
            team,
            out=player_named(data["out"], "out"),
            into=player_named(data["in"], "in"),
            from_round=data["from_round"],
            by=request.user,
        )
        return self.answer(SubstitutionSerializer, sub, status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={204: None, 409: OpenApiTypes.OBJECT},
        parameters=[
            OpenApiParameter("sub", int, OpenApiParameter.PATH, description="The substitution.")
        ],
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"substitutes/(?P<sub>[0-9]+)",
        filter_backends=[],
    )
    def remove_substitute(
        self, request: Request, pk: str | None = None, sub: str | None = None
    ) -> Response:
        """Undo a substitution (directors; audited): from its round on the team's seats
        name who sits without it; the deals and the team's results stay. 409 `conflict`
        naming `substitution` while a later substitution builds on it."""
        team = self.get_object()
        require_director(request.user, team.tournament.club_id)
        found = get_object_or_404(Substitution, team=team, pk=int(sub or 0))
        remove_substitution(found, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Rounds of the schedule; directors close and reopen them (with their matches)."""

    serializer_class = RoundSerializer
    filterset_class = RoundFilter
    ordering_fields = ["number"]
    ordering = ["tournament", "number"]

    def get_queryset(self) -> QuerySet[Round]:
        return Round.objects.filter(tournament__in=readable_tournaments(self.request.user))

    def _director_action(self, service: Any, **options: Any) -> Response:
        round = self.get_object()
        require_director(self.request.user, round.tournament.club_id)
        round = service(round, by=self.request.user, **options)
        return self.answer(RoundSerializer, round)

    @extend_schema(
        request=None,
        responses={200: RoundSerializer, 409: OpenApiTypes.OBJECT},
        parameters=[
            OpenApiParameter(
                "force",
                OpenApiTypes.BOOL,
                description=_(
                    "Close even with matches unfinished or sheets not confirmed by both teams. "
                    "Without it such a round answers 409 `round_not_ready`, naming the tables "
                    "in `unfinished_tables` and `unconfirmed_tables`."
                ),
            )
        ],
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close the round and its matches: referees can no longer change their deals."""
        force = request.query_params.get("force", "").lower() in ("1", "true", "yes")
        return self._director_action(close_round, force=force)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Reopen the round and its matches."""
        return self._director_action(reopen_round)

    @extend_schema(
        request=SwapInputSerializer,
        responses={200: SwappedRoundSerializer, 409: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Edit the draw by hand before the round's first deal: `{"a", "b"}` swaps two
        teams (a mêlée: two players, a sit-out included) between their tables, `{"table":
        <match id>, "sides": true}` the sides of a table. The round comes back with
        `warnings`, what the edit breaks; 409 `round_started` once the round has a deal."""
        round = self.get_object()
        require_director(request.user, round.tournament.club_id)
        data = self.read_input(SwapInputSerializer)
        if data.get("sides"):
            match = Match.objects.filter(round=round, pk=data["table"]).first()
            if match is None:
                raise ServiceError(
                    _("There is no match %(id)s in this round.") % {"id": data["table"]},
                    field="table",
                )
            edit = swap_sides(match, by=request.user)
        else:
            edit = swap_teams(round, a=data["a"], b=data["b"], by=request.user)
        drawn = rounds_with_tables(
            Round.objects.all(), match_queryset().order_by(*TABLES_THEN_BYE)
        ).get(pk=round.pk)
        context = {**self.get_serializer_context(), "warnings": edit.warnings}
        return Response(SwappedRoundSerializer(drawn, context=context).data)


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Matches: teams, table, referee, state, totals, pot, winner; directors manage them."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    ordering_fields = ["table", "round__number", "status", "updated_at"]
    ordering = ["tournament", "round__number", "table"]

    def get_queryset(self) -> QuerySet[Match]:
        return match_queryset().filter(tournament__in=readable_tournaments(self.request.user))

    def _director_match(self) -> Match:
        match = self.get_object()
        require_director(self.request.user, match.tournament.club_id)
        return match

    def _fresh(self, match: Match) -> Response:
        return self.answer(MatchSerializer, match_queryset().get(pk=match.pk))

    @extend_schema(request=None, responses=MatchSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close the match: read-only for its referee until a director reopens it."""
        match = self._director_match()
        close_match(match, by=request.user)
        return self._fresh(match)

    @extend_schema(request=None, responses=MatchSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Reopen a closed match, so its referee may correct it again."""
        match = self._director_match()
        reopen_match(match, by=request.user)
        return self._fresh(match)

    @extend_schema(request=RefereeAssignmentSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def referee(self, request: Request, pk: str | None = None) -> Response:
        """Assign the match's referee (a referee or director of the club), or none with null."""
        match = self._director_match()
        user_id = self.read_input(RefereeAssignmentSerializer)["referee"]
        referee = None
        if user_id is not None:
            referee = get_user_model().objects.filter(pk=user_id, is_active=True).first()
            if referee is None:
                raise ServiceError(
                    _("There is no active user %(id)s.") % {"id": user_id}, field="referee"
                )
        assign_referee(match, referee, by=request.user)
        return self._fresh(match)

    @extend_schema(request=ConfirmationInputSerializer, responses={201: MatchSerializer})
    @action(detail=True, methods=["post"], filter_backends=[])
    def confirmations(self, request: Request, pk: str | None = None) -> Response:
        """A team confirms (`agree: true`) or disputes (`agree: false`) the finished sheet.

        The match's referee records it (the players answer on their phone) while the match is
        not closed; a director any time, on the team's behalf. The match then lists the team
        in `confirmed_by` or `disputed_by`; `confirmed` is true once both teams agree. A later
        change of a deal forgets every answer (and the audit says so).
        """
        match = self.get_object()
        data = self.read_input(ConfirmationInputSerializer)
        confirm_sheet(
            match,
            side=data["team"],
            agree=data["agree"],
            remark=data.get("remark", ""),
            by=request.user,
        )
        return self.answer(MatchSerializer, match_queryset().get(pk=match.pk), 201)

    @extend_schema(
        request=CallInputSerializer, responses={201: CallSerializer, 409: OpenApiTypes.OBJECT}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def calls(self, request: Request, pk: str | None = None) -> Response:
        """Call the director to this table, with an optional `reason` (the match's referee or
        a director). 409 while a call of the table waits for an answer."""
        match = self.get_object()
        data = self.read_input(CallInputSerializer)
        call = call_director(match, reason=data["reason"], by=request.user)
        return self.answer(CallSerializer, call, status.HTTP_201_CREATED)

    @extend_schema(responses=AuditSerializer)
    @action(detail=True, methods=["get"], filter_backends=[])
    def audit(self, request: Request, pk: str | None = None) -> Response:
        """Every change of the match's deals and every director action on it (directors)."""
        match = self._director_match()
        deals = match.audit.select_related("by").order_by("at", "pk")
        events = match.events.select_related("by").order_by("at", "pk")
        return Response(
            {
                "match": match.pk,
                "deals": DealAuditSerializer(deals, many=True).data,
                "director_actions": MatchEventSerializer(events, many=True).data,
            }
        )


def find_match(request: Request, match_pk: Any) -> Match:
    """The match if the user may see its tournament, else 404 (private ones do not leak).

    Only the match and its tournament: the deal endpoints need nothing else, and fewer joins
    keep the planning of this hot query cheap.
    """
    return get_object_or_404(
        Match.objects.select_related("tournament", "round")
        .filter(readable_q(request.user, "tournament__"))
        .order_by(),
        pk=match_pk,
    )
