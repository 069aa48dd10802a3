"""The API of the round-by-round formats and the knockout final: a drawn round, the bracket.

The endpoints themselves are actions of the tournament resource (views.py): `rounds/`
draws the next round, `rounds/<n>/` deletes the last one, `finals/` starts the final and
reads its bracket.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Match, Round, Tournament

from .serializers import ScheduleRoundSerializer, TeamBriefSerializer

# A drawn round's matches by table, the bye (no table) last on every database.
TABLES_THEN_BYE = (F("table").asc(nulls_last=True), "pk")


class DrawnRoundSerializer(ScheduleRoundSerializer):
    """A round just drawn, with its matches (the bye last)."""

    class Meta(ScheduleRoundSerializer.Meta):
        fields = ["id", "tournament", *ScheduleRoundSerializer.Meta.fields[1:]]


class StartFinalSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text=_("Teams in the bracket: 2, 4, 8 or 16."))
    third_place = serializers.BooleanField(
        default=False, help_text=_("Play a match for third place between the semi-finals' losers.")
    )


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    team = TeamBriefSerializer()


class BracketSerializer(serializers.Serializer):
    """The knockout final: its seeds, its rounds as drawn, and the final ranking once played."""

    tournament = serializers.IntegerField()
    size = serializers.IntegerField()
    third_place = serializers.BooleanField()
    after_round = serializers.IntegerField(
        help_text=_("The qualifying round whose standings seeded the bracket.")
    )
    seeds = TeamBriefSerializer(many=True, help_text=_("Seed 1 first."))
    rounds = ScheduleRoundSerializer(many=True)
    finished = serializers.BooleanField()
    ranking = PlaceSerializer(
        many=True,
        help_text=_(
            "Once the final is played: the bracket's places, then the other teams by the "
            "qualifying standings."
        ),
    )


def bracket_body(
    tournament: Tournament, progress: selectors.KnockoutProgress, matches: QuerySet[Match]
) -> dict[str, Any]:
    """The bracket as BracketSerializer gives it; `matches`: the match queryset to show."""
    bracket = progress.bracket
    teams = {t.pk: t for t in tournament.teams.all()}
    rounds = (
        tournament.rounds.exclude(stage=Round.Stage.QUALIFYING)
        .order_by("number")
        .prefetch_related(Prefetch("matches", queryset=matches.order_by(*TABLES_THEN_BYE)))
    )
    ranking = selectors.final_ranking(tournament, progress)
    return BracketSerializer(
        {
            "tournament": tournament.pk,
            "size": bracket.size,
            "third_place": bracket.third_place,
            "after_round": bracket.after_round,
            "seeds": [teams[pk] for pk in bracket.seeds if pk in teams],
            "rounds": rounds,
            "finished": progress.finished,
            "ranking": [
                {"place": place, "shared": shared, "team": team} for place, shared, team in ranking
            ],
        }
    ).data
