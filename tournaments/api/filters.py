"""django-filter filter sets and a stable ordering for the API's lists."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters

from club.api import IdFilter, StableOrderingFilter
from tournaments.models import Entrant, Match, Round, Team, Tournament

__all__ = [
    "EntrantFilter",
    "IdFilter",
    "MatchFilter",
    "RoundFilter",
    "StableOrderingFilter",
    "TeamFilter",
    "TournamentFilter",
]


class SmallNumberFilter(filters.NumberFilter):
    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 32767)
        super().__init__(*args, **kwargs)


class TournamentFilter(filters.FilterSet):
    club = IdFilter(field_name="club_id")
    starts_after = filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    starts_before = filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    # Not `format`: REST framework reads `?format=` as the choice of renderer (json, api).
    tournament_format = filters.ChoiceFilter(field_name="format", choices=Tournament.Format.choices)

    class Meta:
        model = Tournament
        fields = ["club", "status", "tournament_format", "is_public"]


class TeamFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    player = IdFilter(method="with_player")

    class Meta:
        model = Team
        fields = ["tournament", "withdrawn"]

    def with_player(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(Q(first_player_id=value) | Q(second_player_id=value))


class EntrantFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    player = IdFilter(field_name="player_id")

    class Meta:
        model = Entrant
        fields = ["tournament", "player", "withdrawn"]


class RoundFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    number = SmallNumberFilter()

    class Meta:
        model = Round
        fields = ["tournament", "number", "is_closed"]


class MatchFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    round = IdFilter(field_name="round_id")
    round_number = SmallNumberFilter(field_name="round__number")
    table = SmallNumberFilter()
    referee = IdFilter(field_name="referee_id")
    team = IdFilter(method="with_team")
    player = IdFilter(method="with_player")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round_number", "table", "referee", "status", "is_closed"]

    def with_team(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(Q(ns_team_id=value) | Q(ew_team_id=value))

    def with_player(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        """The matches a player sits at, in a team or in a mêlée's partnerships."""
        return queryset.filter(
            Q(ns_team__first_player_id=value)
            | Q(ns_team__second_player_id=value)
            | Q(ew_team__first_player_id=value)
            | Q(ew_team__second_player_id=value)
        )
