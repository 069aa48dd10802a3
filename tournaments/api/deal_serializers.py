"""The deal resource: the entry exactly as docs/rules.md §8 (checked by the engine only) and the
engine's result beside it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.engine import Rank, Suit, validate_deal
from tournaments.errors import DealRefused
from tournaments.models import Deal, Outcome, Seat, Side

SEATS = Seat.choices
SIDES = Side.choices
SUITS = [suit.value for suit in Suit]
RANKS = [rank.value for rank in Rank]


class DeclarationSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["sequence", "four"])
    length = serializers.IntegerField(required=False, min_value=3, max_value=8)
    top = serializers.ChoiceField(choices=RANKS, required=False)
    suit = serializers.ChoiceField(choices=SUITS, required=False)
    rank = serializers.ChoiceField(choices=RANKS, required=False)


class DeclarationsSerializer(serializers.Serializer):
    NS = DeclarationSerializer(many=True, required=False)
    EW = DeclarationSerializer(many=True, required=False)


class DealPointsSerializer(serializers.Serializer):
    team = serializers.ChoiceField(choices=SIDES)
    cards = serializers.IntegerField(min_value=0, max_value=162)


class DealEntrySerializer(serializers.Serializer):
    """A deal as the referee enters it: exactly the JSON contract of docs/rules.md §8.

    The fields are declared for the schema only; the entry itself goes to the engine's
    `validate_deal`, whose problems come back under its own paths (`points.cards`, ...).
    """

    taker = serializers.ChoiceField(
        choices=SEATS, allow_null=True, help_text=_("null for a thrown-in deal.")
    )
    trump = serializers.ChoiceField(choices=SUITS, allow_null=True, required=False)
    points = DealPointsSerializer(required=False)
    capot = serializers.ChoiceField(choices=SIDES, allow_null=True, required=False)
    belote = serializers.ChoiceField(choices=SIDES, allow_null=True, required=False)
    declarations = DeclarationsSerializer(required=False)

    def __init__(self, *args: Any, rules: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules

    def run_validation(self, data: Any = serializers.empty) -> dict[str, Any]:
        # Straight to the engine: whatever the body is (null, a list, a string), it names
        # the problems, so DRF's own checks of an empty or null body must not come first.
        return self.to_internal_value({} if data is serializers.empty else data)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        problems = validate_deal(data, self.rules)
        if problems:
            raise DealRefused(problems)
        return dict(data)


class DealResultSerializer(serializers.Serializer):
    """The engine's result of one deal (docs/rules.md §8)."""

    outcome = serializers.ChoiceField(choices=Outcome.choices)
    capot = serializers.ChoiceField(choices=SIDES, allow_null=True)
    cards = serializers.DictField(child=serializers.IntegerField())
    declarations = serializers.DictField(child=serializers.IntegerField())
    belote = serializers.DictField(child=serializers.IntegerField())
    score = serializers.DictField(child=serializers.IntegerField())
    pot_in = serializers.IntegerField()
    pot_awarded = serializers.DictField(child=serializers.IntegerField())


class DealSerializer(serializers.ModelSerializer):
    entry = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    entered_by: Any = serializers.SlugRelatedField(slug_field="username", read_only=True)
    version = serializers.CharField(
        read_only=True,
        help_text=_(
            "This deal's version (also its ETag): send it back in If-Match with a correction "
            "or a removal, so that an edit made meanwhile is not silently replaced."
        ),
    )

    class Meta:
        model = Deal
        fields = [
            "number",
            "dealer",
            "entry",
            "result",
            "entered_by",
            "entered_at",
            "updated_at",
            "version",
        ]
        read_only_fields = fields

    @extend_schema_field(DealEntrySerializer)
    def get_entry(self, deal: Deal) -> dict[str, Any]:
        return deal.entry

    @extend_schema_field(DealResultSerializer)
    def get_result(self, deal: Deal) -> dict[str, Any]:
        return deal.result
