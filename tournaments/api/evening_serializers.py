"""Serializers of the evening's changes: substitutes, manual draw edits, calls (evening.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from club.api import PlayerBriefSerializer
from club.models import Player
from tournaments.errors import ServiceError
from tournaments.models import DirectorCall, Substitution
from tournaments.services.calls import REASON_MAX
from tournaments.services.draw_edits import WARNINGS

from .draws import DrawnRoundSerializer
from .serializers import UserBriefSerializer

__all__ = [
    "CallInputSerializer",
    "CallSerializer",
    "SubstituteInputSerializer",
    "SubstitutionSerializer",
    "SwapInputSerializer",
    "SwappedRoundSerializer",
    "player_named",
]

ID_MAX = 2**53


class SubstituteInputSerializer(serializers.Serializer):
    """`{"out": <player id>, "in": <player id>, "from_round": k}`."""

    out = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=gettext_lazy("The player who leaves.")
    )
    from_round = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        help_text=gettext_lazy("The first round the substitute plays (a mêlée: the round)."),
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # `in` is a Python keyword: the field is added by name.
        fields = super().get_fields()
        fields["in"] = serializers.IntegerField(
            min_value=1,
            max_value=ID_MAX,
            help_text=gettext_lazy(
                "The substitute: a club member (a mêlée: a player of the tournament still in)."
            ),
        )
        return {name: fields[name] for name in ("out", "in", "from_round")}


class SubstitutionSerializer(serializers.ModelSerializer):
    out = PlayerBriefSerializer(source="player_out", read_only=True)
    from_round = serializers.IntegerField(read_only=True)

    class Meta:
        model = Substitution
        fields = ["id", "team", "out", "from_round", "at"]
        read_only_fields = fields

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["in"] = PlayerBriefSerializer(source="player_in", read_only=True)
        return {name: fields[name] for name in ("id", "team", "out", "in", "from_round", "at")}


def player_named(value: int, field: str) -> Player:
    player = Player.objects.filter(pk=value).first()
    if player is None:
        raise ServiceError(_("There is no player %(id)s.") % {"id": value}, field=field)
    return player


class SwapInputSerializer(serializers.Serializer):
    """Two teams (a mêlée: two players) to swap, or a table whose sides to swap."""

    a = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        help_text=gettext_lazy("A team id (a mêlée: a player id)."),
    )
    b = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        help_text=gettext_lazy("The other team id (a mêlée: player id)."),
    )
    table = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        help_text=gettext_lazy("With `sides: true`: the id of the match whose sides swap."),
    )
    sides = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("sides"):
            if "table" not in attrs:
                raise serializers.ValidationError(
                    {"table": [_("Give the match whose sides swap.")]}
                )
            return attrs
        if "table" in attrs:
            raise serializers.ValidationError({"sides": [_("Send `sides: true` with `table`.")]})
        missing = {
            name: [_("This field is required (or give `table` and `sides`).")]
            for name in ("a", "b")
            if name not in attrs
        }
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class SwappedRoundSerializer(DrawnRoundSerializer):
    """The round after the edit, and what the edit broke."""

    warnings = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "Codes of what the edit breaks: `repeat_opponents`, `repeat_partners`, "
            "`score_gap` (a Swiss); empty when it breaks nothing."
        )
    )

    class Meta(DrawnRoundSerializer.Meta):
        fields = [*DrawnRoundSerializer.Meta.fields, "warnings"]

    def get_warnings(self, round_: Any) -> list[str]:
        return [code for code in self.context.get("warnings", []) if code in WARNINGS]


class CallInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX
    )


class CallSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="match.table", read_only=True)
    round_number = serializers.IntegerField(source="match.round.number", read_only=True)
    by = UserBriefSerializer(read_only=True)
    answered_by = UserBriefSerializer(read_only=True)
    answered = serializers.BooleanField(read_only=True)

    class Meta:
        model = DirectorCall
        fields = [
            "id",
            "tournament",
            "match",
            "round_number",
            "table",
            "reason",
            "by",
            "at",
            "answered",
            "answered_by",
            "answered_at",
        ]
        read_only_fields = fields
