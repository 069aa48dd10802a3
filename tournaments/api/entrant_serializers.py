"""Serializers of an individual tournament's players (mêlée), registered alone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from club.api import PlayerBriefSerializer
from club.models import Player
from club.registration import CREATE, MAX_PASTED_CHARACTERS, NEW_MEMBERS
from tournaments.models import Entrant

__all__ = ["EntrantCreateSerializer", "EntrantEditSerializer", "EntrantSerializer"]


class EntrantSerializer(serializers.ModelSerializer):
    """A player registered alone in an individual tournament."""

    player = PlayerBriefSerializer(read_only=True)

    class Meta:
        model = Entrant
        fields = ["id", "tournament", "player", "seed", "withdrawn", "withdrawn_at", "category"]
        read_only_fields = fields


class EntrantEditSerializer(serializers.Serializer):
    """A player's category tag (empty: none)."""

    category = serializers.CharField(
        allow_blank=True,
        max_length=100,
        help_text=_("A tag such as Ladies or Youth, which a category prize line names."),
    )


class EntrantCreateSerializer(serializers.Serializer):
    """Players of an individual tournament: `text` with one name per line, or `players`, the
    ids of club members."""

    text = serializers.CharField(required=False, max_length=MAX_PASTED_CHARACTERS)
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, required=False
    )
    new_players = serializers.ChoiceField(
        choices=NEW_MEMBERS,
        default=CREATE,
        help_text=_(
            "With `text`, what to do with names that are not members of the club yet: `create` "
            "them; `ask` or `ask_if_similar`: answer 409 `new_members_to_confirm` first."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("players" in attrs):
            raise serializers.ValidationError(
                {"text": [_("Give either `text` (one name per line) or `players` (ids).")]}
            )
        return attrs
