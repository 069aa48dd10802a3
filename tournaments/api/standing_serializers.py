"""Serializers of the standings (team or player lines, live or after a round) and the audit trail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from club.models import Player
from club.privacy import public_name
from tournaments.models import (
    DealAudit,
    MatchEvent,
    Standing,
)
from tournaments.standings.names import FIGURES

from .serializers import TeamBriefSerializer


class StandingPlayerSerializer(serializers.Serializer):
    """The player of an individual tournament's line: who, and their seed."""

    id = serializers.IntegerField(source="player.pk")
    name = serializers.SerializerMethodField()
    seed = serializers.IntegerField()
    withdrawn = serializers.BooleanField()

    def get_name(self, entrant: Any) -> str:
        # Every reader gets the public form: the standings are one body for all (club.privacy).
        return public_name(entrant.player)


class StandingSerializer(serializers.ModelSerializer):
    """A line: a team's, or in an individual tournament a player's (`team` is then null)."""

    team = TeamBriefSerializer(read_only=True, allow_null=True)
    player = StandingPlayerSerializer(
        source="entrant",
        read_only=True,
        allow_null=True,
        help_text=_("Individual tournaments: the player whose line it is (`team` is null)."),
    )

    class Meta:
        model = Standing
        fields = [
            "rank",
            "rank_label",
            "shared_rank",
            "team",
            "player",
            *FIGURES,
            "withdrawn",
            "in_play",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "in_play": {"help_text": _("Matches in play counted on their current totals.")}
        }


_TEAM_FIELDS = TeamBriefSerializer.Meta.fields
_STANDING_COLUMNS = [
    f for f in StandingSerializer.Meta.fields if f not in ("rank_label", "team", "player")
]
# The player of a line, as StandingPlayerSerializer names it, from the entrant's columns.
_PLAYER_COLUMNS = {
    "id": "entrant__player_id",
    "first_name": "entrant__player__first_name",
    "last_name": "entrant__player__last_name",
    "profile": "entrant__player__profile",
    "seed": "entrant__seed",
    "withdrawn": "entrant__withdrawn",
}


def standing_lines(
    lines: QuerySet[Standing] | Sequence[Standing],
    *,
    individual: bool = False,
    team_names: dict[int, str] | None = None,
) -> list[dict[str, Any]]:
    """Exactly StandingSerializer's output (a test holds them equal), read with `values()`.

    The standings are the API's most polled read; building 64 lines from plain rows costs a
    tenth of serializing 64 model instances field by field. `individual`: the lines are
    players' (the columns of the entrant are read, not the team's). `team_names`: the names
    every reader may read of the teams holding a member who is not public
    (`selectors.members.public_team_names`). A past round's lines,
    computed (never stored: `selectors.standings.past_lines`), are serialized as they are.
    """
    team_names = team_names or {}
    if not isinstance(lines, QuerySet):
        computed = list(StandingSerializer(lines, many=True).data)
        for serialized in computed:
            team = serialized["team"]
            if team and team["id"] in team_names:
                serialized["team"] = {**team, "name": team_names[team["id"]]}
        return computed
    whose = _PLAYER_COLUMNS.values() if individual else (f"team__{f}" for f in _TEAM_FIELDS)
    rows = lines.values(*_STANDING_COLUMNS, *whose)
    body = []
    for row in rows:
        line: dict[str, Any] = {}
        for field in StandingSerializer.Meta.fields:
            if field == "team":
                line[field] = None if individual else {f: row[f"team__{f}"] for f in _TEAM_FIELDS}
                if line[field] and line[field]["id"] in team_names:
                    line[field]["name"] = team_names[line[field]["id"]]
            elif field == "player":
                line[field] = _standing_player(row) if individual else None
            elif field == "rank_label":
                line[field] = Standing(rank=row["rank"], shared_rank=row["shared_rank"]).rank_label
            else:
                line[field] = row[field]
        body.append(line)
    return body


def _standing_player(row: dict[str, Any]) -> dict[str, Any]:
    named = Player(
        first_name=row[_PLAYER_COLUMNS["first_name"]],
        last_name=row[_PLAYER_COLUMNS["last_name"]],
        profile=row[_PLAYER_COLUMNS["profile"]],
    )
    return {
        "id": row[_PLAYER_COLUMNS["id"]],
        "name": public_name(named),
        "seed": row[_PLAYER_COLUMNS["seed"]],
        "withdrawn": row[_PLAYER_COLUMNS["withdrawn"]],
    }


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    after_round = serializers.IntegerField(
        allow_null=True, help_text=_("The round shown; null for the live table.")
    )
    provisional = serializers.BooleanField(
        help_text=_("The live table: matches in play are counted on their current totals.")
    )
    rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Rounds after which standings exist.")
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    change = serializers.IntegerField(help_text=_("The change number they were computed from."))
    latest_change = serializers.IntegerField()
    up_to_date = serializers.BooleanField(
        help_text=_("Whether the latest change is in the table shown.")
    )
    results = StandingSerializer(many=True)


class DealAuditSerializer(serializers.ModelSerializer):
    by: Any = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = DealAudit
        fields = ["deal_number", "action", "before", "after", "by", "at"]


class MatchEventSerializer(serializers.ModelSerializer):
    """`action` is the event's stable code (MatchEvent.Action); `label` says it in the
    request's language."""

    by: Any = serializers.SlugRelatedField(slug_field="username", read_only=True)
    label: Any = serializers.CharField(source="get_action_display", read_only=True)

    class Meta:
        model = MatchEvent
        fields = ["action", "label", "detail", "by", "at"]


class AuditSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    deals = DealAuditSerializer(many=True)
    director_actions = MatchEventSerializer(many=True)
