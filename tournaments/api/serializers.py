"""Serializers of tournaments, teams, rounds, matches, standings and the audit trail.

The deal resource is in deal_serializers.py; house rules are only ever checked by the
engine's `parse_rules`, whose problems keep their own `rules.<name>` paths.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from club.api import PlayerBriefSerializer
from club.models import Player
from club.privacy import team_shown_name
from club.registration import CREATE, MAX_PASTED_CHARACTERS, NEW_MEMBERS
from scoring.engine import InvalidDeal, parse_rules
from tournaments import selectors
from tournaments.models import (
    Match,
    MatchConfirmation,
    Round,
    Seat,
    Side,
    Team,
    Tournament,
)
from tournaments.permissions import may_see_draw_seed
from tournaments.services.actions import (
    ROUND_ACTIONS,
    TOURNAMENT_ACTIONS,
    actions_json,
    available_actions,
    round_actions,
)
from tournaments.services.settings import SETTINGS
from tournaments.standings.criteria import CRITERIA


class UserBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


# --- tournaments --------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "description": "House rules of docs/rules.md §8; every key optional.",
        "additionalProperties": True,
    }
)
class RulesField(serializers.JSONField):
    pass


# What a director sets on a tournament (the settings service's list, `round_count` by its API
# name `rounds`); the status moves through its own endpoint.
_TOURNAMENT_SETTINGS = [
    "club",
    *("rounds" if name == "round_count" else name for name in SETTINGS if name != "status"),
]


class ActionSerializer(serializers.Serializer):
    """Whether the requester may take a director's action now, and if not why: the code and
    message the action itself would answer (a non-director: `forbidden`)."""

    allowed = serializers.BooleanField()
    code = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


def _single(field: serializers.Field) -> bool:
    # A list's items leave `actions` out (null): each would cost its own queries.
    return not isinstance(field.parent, serializers.ListSerializer) and not isinstance(
        getattr(field.parent, "parent", None), serializers.ListSerializer
    )


ACTIONS_HELP = _(
    "The director's actions and whether each would succeed now (its refusal's `code` and "
    "`reason` otherwise); null in a list."
)


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament; `rules` are the full house rules, defaults filled in by the engine.

    `rounds` and `bye_points` are a Swiss's, a concours's or an individual tournament's,
    `draw` a concours's (null otherwise); `bye_points` is what a bye (a player sitting out)
    scores, the default when none was set.
    """

    rules = serializers.SerializerMethodField()
    tie_breaks = serializers.ListField(child=serializers.CharField(), read_only=True)
    rounds = serializers.IntegerField(source="round_count", allow_null=True, read_only=True)
    bye_points = serializers.IntegerField(
        source="bye_points_in_use", allow_null=True, read_only=True
    )
    draw = serializers.SerializerMethodField()
    actions = serializers.SerializerMethodField(help_text=ACTIONS_HELP)
    draw_seed = serializers.SerializerMethodField(
        help_text=_(
            "The seed of every draw: null for all but the club's directors until the last "
            "round is drawn (or the tournament is finished), then published so anyone can "
            "re-run the draws."
        )
    )
    results = serializers.SerializerMethodField(
        help_text=_(
            "provisional: deals may still change (while the tournament is not finished, "
            "and for correction_minutes after); final: only a director's reopen changes them."
        )
    )
    final_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text=_("When the results become (or became) final; null while not finished."),
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            *_TOURNAMENT_SETTINGS,
            "status",
            "results",
            "final_at",
            "created_at",
            "change_seq",
            "standings_seq",
            "standings_computed_at",
            "actions",
        ]
        read_only_fields = fields

    @extend_schema_field(
        serializers.DictField(child=ActionSerializer(), allow_null=True, help_text=ACTIONS_HELP)
    )
    def get_actions(self, tournament: Tournament) -> dict[str, Any] | None:
        if not _single(self):
            return None
        request = self.context.get("request")

        def refusals() -> dict[str, Any]:
            return available_actions(
                tournament,
                selectors.tables(tournament),
                teams=selectors.players.entries(tournament).filter(withdrawn=False).count(),
            )

        user = getattr(request, "user", None)
        return actions_json(TOURNAMENT_ACTIONS, refusals, user, tournament.club_id)

    @extend_schema_field(serializers.ChoiceField(choices=Tournament.Draw.choices, allow_null=True))
    def get_draw(self, tournament: Tournament) -> str | None:
        return tournament.draw or None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_draw_seed(self, tournament: Tournament) -> int | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if may_see_draw_seed(user, tournament):
            return tournament.draw_seed
        return None

    @extend_schema_field(serializers.ChoiceField(choices=Tournament.Results.choices))
    def get_results(self, tournament: Tournament) -> str:
        return tournament.results_state().value

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_rules(self, tournament: Tournament) -> dict[str, Any]:
        try:
            return parse_rules(tournament.rules or None).to_json()
        except InvalidDeal:
            return dict(tournament.rules or {})


class TournamentWriteSerializer(serializers.ModelSerializer):
    """What a director sets: house rules, match points, tie-break order, visibility.

    Only the types are read here; the settings service checks the values
    (tournaments.services.settings) and its problems come back with their paths.
    """

    rules = RulesField(required=False)
    rounds = serializers.IntegerField(
        source="round_count",
        required=False,
        allow_null=True,
        help_text=_(
            "Swiss, concours and individual: how many rounds (a concours's parties) are played."
        ),
    )
    bye_points = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=_(
            "Swiss, concours and individual: the points a bye (a sit-out) scores; null: half the target, or 80 a deal."
        ),
    )
    draw = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=16,
        help_text=_("Concours: random (default) or ranking."),
    )
    draw_seed = serializers.IntegerField(
        required=False, help_text=_("The seed of every draw; a random one when left out.")
    )
    tie_breaks = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=len(CRITERIA),
        help_text=_("Criteria, first decides first: %(choices)s.")
        % {"choices": ", ".join(CRITERIA)},
    )

    class Meta:
        model = Tournament
        fields = _TOURNAMENT_SETTINGS
        # The service checks every value (slug included) once; no model validator here.
        extra_kwargs = {"slug": {"validators": [], "required": False}}

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        if self.instance is not None:
            fields["club"].read_only = True
        return fields

    def get_validators(self) -> list[Any]:
        return []

    def validate_draw(self, value: str | None) -> str:
        return value or ""

    @classmethod
    def api_names(cls) -> dict[str, str]:
        """The model fields this serializer names otherwise (`round_count` is `rounds`)."""
        return {
            str(field.source): name
            for name, field in cls().fields.items()
            if field.source not in (name, "*")
        }


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=2000,
        trim_whitespace=False,
        help_text=_("Why the results are reopened (kept in the audit trail)."),
    )


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)


# --- teams, rounds, matches ------------------------------------------------------------------


class TeamSerializer(serializers.ModelSerializer):
    """A team; in an individual tournament, a partnership drawn for one round (`round_number`)."""

    first_player = PlayerBriefSerializer(read_only=True)
    second_player = PlayerBriefSerializer(read_only=True)
    name = serializers.SerializerMethodField(
        help_text=_("Named after a member who is not public: made of the names as read.")
    )
    round_number = serializers.SerializerMethodField(
        help_text=_(
            "Individual tournaments: the round this partnership was drawn for, and plays alone; "
            "null for a team registered for the whole tournament."
        )
    )

    class Meta:
        model = Team
        fields = [
            "id",
            "tournament",
            "name",
            "seed",
            "first_player",
            "second_player",
            "withdrawn",
            "withdrawn_at",
            "round_number",
            "category",
        ]
        read_only_fields = fields

    def get_name(self, team: Team) -> str:
        request = self.context.get("request")
        return team_shown_name(team, getattr(request, "user", None))

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_round_number(self, team: Team) -> int | None:
        return team.round.number if team.round_id is not None else None  # type: ignore[union-attr]


class TeamBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "seed", "withdrawn"]


class TeamCreateSerializer(serializers.Serializer):
    """One team; or `text` with one team per line ("Name: First Player & Second Player")."""

    text = serializers.CharField(required=False, max_length=MAX_PASTED_CHARACTERS)
    name = serializers.CharField(required=False, max_length=120)
    first_player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    second_player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False
    )
    seed = serializers.IntegerField(required=False, min_value=1, max_value=32767)
    new_players = serializers.ChoiceField(
        choices=NEW_MEMBERS,
        default=CREATE,
        help_text=_(
            "With `text`, what to do with players who are not members of the club yet: "
            "`create` them; `ask`: answer 409 `new_members_to_confirm` listing them (and the "
            "members whose names are close) if there is any; `ask_if_similar`: only if one is "
            "close to a member's name. Send again with `create` once confirmed."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "text" in attrs:
            return attrs
        missing = {
            name: [_("This field is required (or give `text`).")]
            for name in ("name", "first_player", "second_player")
            if name not in attrs
        }
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class TeamEditSerializer(serializers.Serializer):
    """A team's new name or players (players only before the team has played), or its
    category tag (empty: none)."""

    name = serializers.CharField(required=False, max_length=120)
    category = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text=_("A tag such as Ladies or Youth, which a category prize line names."),
    )
    first_player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    second_player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False
    )


class RoundSerializer(serializers.ModelSerializer):
    # A Serializer is a Field, whose `label` this field shadows on purpose.
    label = serializers.CharField(source="__str__", read_only=True)  # type: ignore[assignment]
    actions = serializers.SerializerMethodField(help_text=ACTIONS_HELP)

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "stage", "label", "is_closed", "actions"]
        read_only_fields = fields

    @extend_schema_field(
        serializers.DictField(child=ActionSerializer(), allow_null=True, help_text=ACTIONS_HELP)
    )
    def get_actions(self, round_: Round) -> dict[str, Any] | None:
        if not _single(self):
            return None
        request = self.context.get("request")
        return actions_json(
            ROUND_ACTIONS,
            lambda: round_actions(round_),
            getattr(request, "user", None),
            round_.tournament.club_id,
        )


class ConfirmationSerializer(serializers.ModelSerializer):
    """One team's answer to the finished sheet."""

    team = serializers.CharField(source="side", help_text=_("NS or EW."))
    agree = serializers.BooleanField(help_text=_("true: the team confirms; false: it disputes."))
    by = UserBriefSerializer(read_only=True, allow_null=True)
    by_director = serializers.BooleanField(
        help_text=_("A director answered for the team (not the players on the referee's phone).")
    )

    class Meta:
        model = MatchConfirmation
        fields = ["team", "agree", "remark", "by", "by_director", "at"]
        read_only_fields = fields


class ConfirmationInputSerializer(serializers.Serializer):
    team = serializers.ChoiceField(choices=Side.choices, help_text=_("The team answering."))
    agree = serializers.BooleanField(
        help_text=_("true confirms the sheet; false disputes it (the director is alerted).")
    )
    remark = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text=_("What is wrong, for a dispute."),
    )


class SeatedPlayerSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=Seat.choices)
    player = PlayerBriefSerializer()


class MatchSerializer(serializers.ModelSerializer):
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    ns_team = TeamBriefSerializer(read_only=True)
    ew_team = TeamBriefSerializer(read_only=True, allow_null=True)
    players = serializers.SerializerMethodField(
        help_text=_(
            "The players at the table in the order of play, North, East, South, West (a bye: "
            "its team's two); in an individual tournament the teams are the round's partnerships."
        )
    )
    referee = UserBriefSerializer(read_only=True, allow_null=True)
    is_bye = serializers.BooleanField(read_only=True)
    is_third_place = serializers.BooleanField(read_only=True)
    winner = serializers.SerializerMethodField()
    confirmed_by = serializers.ListField(
        child=serializers.ChoiceField(choices=Side.choices),
        read_only=True,
        help_text=_("The teams that confirmed the finished sheet as it stands."),
    )
    disputed_by = serializers.ListField(
        child=serializers.ChoiceField(choices=Side.choices),
        read_only=True,
        help_text=_("The teams that dispute the sheet: the director settles it."),
    )
    confirmed = serializers.BooleanField(
        source="is_confirmed", read_only=True, help_text=_("Both teams confirmed the sheet.")
    )
    confirmations = ConfirmationSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "round",
            "round_number",
            "table",
            "ns_team",
            "ew_team",
            "players",
            "is_bye",
            "is_third_place",
            "referee",
            "first_dealer",
            "status",
            "is_closed",
            "ns_total",
            "ew_total",
            "pot",
            "deal_count",
            "winner",
            "finished_at",
            "confirmed_by",
            "disputed_by",
            "confirmed",
            "confirmations",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=Match.Winner.choices, allow_null=True))
    def get_winner(self, match: Match) -> str | None:
        return match.winner or None

    @extend_schema_field(SeatedPlayerSerializer(many=True))
    def get_players(self, match: Match) -> list[dict[str, Any]]:
        return [
            {"seat": seat.value, "player": PlayerBriefSerializer(player).data}
            for seat, player in match.seated_players()
        ]


class RefereeAssignmentSerializer(serializers.Serializer):
    referee = serializers.IntegerField(
        allow_null=True, min_value=1, max_value=2**53, help_text=_("A user id, or null.")
    )


class ScheduleRoundSerializer(serializers.ModelSerializer):
    # A Serializer is a Field, whose `label` this field shadows on purpose.
    label = serializers.CharField(source="__str__", read_only=True)  # type: ignore[assignment]
    matches = MatchSerializer(many=True, read_only=True)
    sit_outs = serializers.SerializerMethodField(
        help_text=_(
            "Individual tournaments: the players who sit this round out (a won match worth "
            "`bye_points`); empty otherwise."
        )
    )

    class Meta:
        model = Round
        fields = ["id", "number", "stage", "label", "is_closed", "matches", "sit_outs"]

    @extend_schema_field(PlayerBriefSerializer(many=True))
    def get_sit_outs(self, round_: Round) -> list[dict[str, Any]]:
        return [
            PlayerBriefSerializer(s.entrant.player).data
            for s in round_.sit_outs.all()  # type: ignore[attr-defined]
        ]


class ScheduleSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    change = serializers.IntegerField(help_text=_("The tournament's change number."))
    rounds = ScheduleRoundSerializer(many=True)


class GenerateScheduleSerializer(serializers.Serializer):
    draw_lots = serializers.BooleanField(
        default=False, help_text=_("Draw pairing numbers by lot instead of following seeds.")
    )
    leave_out_expected = serializers.BooleanField(
        default=False,
        help_text=_(
            "With check-in on: generate with the teams present only, leaving out those still "
            "expected (otherwise 409 `entries_not_checked_in` lists them)."
        ),
    )
