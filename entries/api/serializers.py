"""Serializers of the evening before its first deal: online registrations, the check-in with
entry fees, and the evening's cash (views.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from club.registration import ASK_IF_SIMILAR, NEW_MEMBERS
from tournaments.models import Attendance, Entry, Payment, Tournament

from .. import selectors
from ..models import Registration


def honeypot(value: str) -> None:
    if value:
        raise serializers.ValidationError(_("Leave this field empty."))


class RegistrationCreateSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=161, allow_blank=True, trim_whitespace=True),
        max_length=4,
        help_text=_(
            "Two names for a team; one with `partner_wanted` (a team format) or in an individual tournament."
        ),
    )
    partner_wanted = serializers.BooleanField(default=False)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    # A field people never see and robots fill in: an entry that fills it is refused.
    website = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        validators=[honeypot],
        help_text=_("Leave empty (a trap for robots)."),
    )


class RegistrationCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField(help_text=_("Keep it: it alone lets you see or cancel the entry."))
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(
        allow_null=True, help_text=_("Place in the waiting list (1 first); null when registered.")
    )


class RegistrationSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    position = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = [
            "id",
            "tournament",
            "players",
            "partner_wanted",
            "paired_with",
            "email",
            "phone",
            "status",
            "position",
            "team",
            "entrant",
            "created_at",
            "decided_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_players(self, registration: Registration) -> list[str]:
        return [n for n in (registration.player, registration.partner) if n]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_position(self, registration: Registration) -> int | None:
        position = getattr(registration, "position", None)
        if position is None and registration.status == Registration.Status.WAITING:
            return selectors.waiting_position(registration)
        return position


class AcceptSerializer(serializers.Serializer):
    new_players = serializers.ChoiceField(
        choices=NEW_MEMBERS,
        default=ASK_IF_SIMILAR,
        help_text=_(
            "Names that are not members of the club yet: `ask_if_similar` (default) answers 409 "
            "`new_members_to_confirm` when one is close to a member's name, `ask` whenever one "
            "is new, `create` creates them (send it once confirmed)."
        ),
    )


class PairSerializer(serializers.Serializer):
    partner = serializers.IntegerField(
        help_text=_("The other registration of a player looking for a partner.")
    )


class CheckInSerializer(serializers.Serializer):
    entry = serializers.IntegerField(
        help_text=_("A team's id, or an entrant's in an individual tournament.")
    )
    present = serializers.BooleanField(
        required=False,
        allow_null=True,
        help_text=_("true: present; false: absent; null: expected again. Left out: unchanged."),
    )
    paid = serializers.ChoiceField(
        choices=Payment.choices,
        required=False,
        allow_null=True,
        help_text=_("How the entry fee was paid (marks the entry present); null: not paid."),
    )


class EntryCheckInSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    players = serializers.SerializerMethodField()
    attendance = serializers.ChoiceField(choices=Attendance.choices)
    checked_in = serializers.SerializerMethodField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    paid = serializers.SerializerMethodField()
    fee_paid = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)
    withdrawn = serializers.BooleanField()

    @extend_schema_field(serializers.CharField())
    def get_players(self, entry: Entry) -> str:
        return selectors.entry_players(entry)

    @extend_schema_field(serializers.BooleanField())
    def get_checked_in(self, entry: Entry) -> bool:
        return entry.is_present

    @extend_schema_field(serializers.ChoiceField(choices=Payment.choices, allow_null=True))
    def get_paid(self, entry: Entry) -> str | None:
        return entry.paid or None


class UnpaidSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    due = serializers.DecimalField(max_digits=9, decimal_places=2)


class CashSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    currency = serializers.CharField()
    entry_fee = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    entry_fee_per = serializers.ChoiceField(choices=Tournament.FeePer.choices)
    received = serializers.DictField(
        child=serializers.DecimalField(max_digits=9, decimal_places=2),
        help_text=_("The amount received per method (`waived` is always 0)."),
    )
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text=_("The entries marked paid per method.")
    )
    total = serializers.DecimalField(max_digits=9, decimal_places=2)
    unpaid = UnpaidSerializer(many=True, help_text=_("Entries present that have not paid."))
    unpaid_total = serializers.DecimalField(max_digits=9, decimal_places=2)
