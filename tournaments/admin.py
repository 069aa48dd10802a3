"""The Django admin for tournaments, their teams, rounds, matches, deals and audit trail.

A tournament's settings go through the settings service (checked by the admin's form with
`settings_errors`, saved by `save_settings`, which re-scores the matches if the house rules change). Other
rows edited here are seen by the signals of tournaments.changes, which ask for the
recompute exactly as a service would.

What the services refuse, the admin does not let through: once a tournament's results are
final (`results_final_refusal`) every row of it is read-only here, a team's players once it
has played (`players_change_refusal`), and a match's teams, sides and dealer once its round
has started (`swap_refusal`, the draw edits' rule).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ObjectDoesNotExist, ValidationError

from club.admin import ReadOnlyAdmin

from .models import (
    Bracket,
    Deal,
    DealAudit,
    Entrant,
    Match,
    MatchConfirmation,
    MatchEvent,
    MatchSeat,
    RefereeLink,
    Round,
    SitOut,
    Standing,
    Submission,
    Team,
    Tournament,
)
from .permissions import results_final_refusal
from .services.draw_edits import swap_refusal
from .services.settings import save_settings, settings_errors
from .services.teams import players_change_refusal


def _tournament_of(obj: object) -> Tournament | None:
    if isinstance(obj, Tournament):
        return obj
    if isinstance(obj, (Deal, MatchSeat, Submission)):
        return obj.match.tournament
    return getattr(obj, "tournament", None)


class FinalResultsReadOnly:
    """Mixed into the admins (and inlines) of a tournament's rows: read-only once its results
    are final, as every service refuses then (409 `results_final`). For an inline, `obj` is
    the row it is shown on."""

    def _final(self, obj: object) -> bool:
        tournament = _tournament_of(obj) if obj is not None else None
        return tournament is not None and results_final_refusal(tournament) is not None

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        if not isinstance(self, InlineModelAdmin):
            return super().has_add_permission(request)  # type: ignore[misc]
        return not self._final(obj) and super().has_add_permission(request, obj)  # type: ignore[misc]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return not self._final(obj) and super().has_change_permission(request, obj)  # type: ignore[misc]

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return not self._final(obj) and super().has_delete_permission(request, obj)  # type: ignore[misc]

    def get_form(self, request, obj=None, change=False, **kwargs):  # type: ignore[no-untyped-def]
        form = super().get_form(request, obj, change=change, **kwargs)  # type: ignore[misc]

        class RefusedWhenFinal(form):  # type: ignore[misc,valid-type]
            """A new row (or one moved) into a tournament whose results are final: refused."""

            def _post_clean(self) -> None:
                super()._post_clean()
                try:
                    tournament = _tournament_of(self.instance)
                except ObjectDoesNotExist:
                    return  # its tournament is missing: the form says so by field
                refusal = results_final_refusal(tournament) if tournament else None
                if refusal is not None:
                    self.add_error(None, refusal.message)

        return RefusedWhenFinal


# A match's draw: who plays whom, on which side, who deals first. Fixed once its round has
# started, as for a director's draw edits (`swap_refusal`).
MATCH_DRAW_FIELDS = ["round", "tournament", "ns_team", "ew_team", "first_dealer"]


class TeamInline(FinalResultsReadOnly, admin.TabularInline):
    """The registered teams; an individual tournament's partnerships are its rounds'.

    Teams are added, and their players changed, on the team's own page (read-only there once
    it has played); withdrawing goes through the director's pages, which make its byes.
    """

    model = Team
    extra = 0
    fields = ["seed", "name", "first_player", "second_player", "withdrawn"]
    readonly_fields = ["first_player", "second_player", "withdrawn"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).filter(round__isnull=True)


class EntrantInline(FinalResultsReadOnly, admin.TabularInline):
    """Players are entered on the entrant's own page; no service changes an entrant's player."""

    model = Entrant
    extra = 0
    fields = ["seed", "player", "withdrawn"]
    readonly_fields = ["player", "withdrawn"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


class RoundInline(FinalResultsReadOnly, admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "stage", "is_closed"]
    show_change_link = True


class TournamentAdminForm(forms.ModelForm):
    """The model's field checks, then the settings service's (the model calls no service)."""

    # Where the model's own clean ran: its errors are kept by field, as the model's would be.
    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]
        errors = settings_errors(self.instance)
        if errors:
            self._update_errors(ValidationError(errors))  # type: ignore[attr-defined]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Its settings go through the settings service, which refuses what final results fix
    (`FIXED_WHEN_FINAL`, 409 `results_final` in the API); its rows' inlines are read-only then."""

    form = TournamentAdminForm
    list_display = ["name", "club", "starts_on", "format", "status", "is_public", "change_seq"]
    list_filter = ["status", "format", "is_public", "club"]
    search_fields = ["name", "slug", "club__name"]
    date_hierarchy = "starts_on"
    autocomplete_fields = ["club"]
    prepopulated_fields = {"slug": ["name"]}
    # The draw seed is stored at creation: the same seed and results draw the same round.
    readonly_fields = [
        "draw_seed",
        "change_seq",
        "standings_seq",
        "standings_computed_at",
        "created_at",
    ]
    list_select_related = ["club"]
    inlines = [TeamInline, EntrantInline, RoundInline]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        save_settings(obj, list(form.changed_data), by=request.user)


@admin.register(Team)
class TeamAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    list_display = [
        "name",
        "tournament",
        "round",
        "seed",
        "first_player",
        "second_player",
        "withdrawn",
    ]
    list_filter = ["withdrawn", "tournament__club", "tournament"]
    search_fields = [
        "name",
        "tournament__name",
        "first_player__first_name",
        "first_player__last_name",
        "second_player__first_name",
        "second_player__last_name",
    ]
    autocomplete_fields = ["tournament", "first_player", "second_player"]
    raw_id_fields = ["round"]
    list_select_related = ["tournament", "round", "first_player", "second_player"]

    def get_readonly_fields(self, request, obj=None):  # type: ignore[no-untyped-def]
        if obj is None:
            return []
        # Withdrawing turns the team's matches into byes: the director's pages do it.
        fixed = ["tournament", "round", "withdrawn"]
        if players_change_refusal(obj) is not None:
            fixed += ["first_player", "second_player"]
        return fixed


@admin.register(Entrant)
class EntrantAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    """A player of an individual tournament; their partners are drawn round by round."""

    list_display = ["player", "tournament", "seed", "withdrawn"]
    list_filter = ["withdrawn", "tournament"]
    search_fields = ["player__first_name", "player__last_name", "tournament__name"]
    autocomplete_fields = ["tournament", "player"]
    list_select_related = ["tournament", "player"]

    def get_readonly_fields(self, request, obj=None):  # type: ignore[no-untyped-def]
        # No service changes an entrant's player (delete and register instead); withdrawing
        # goes through the director's pages.
        return [] if obj is None else ["tournament", "player", "withdrawn"]


@admin.register(SitOut)
class SitOutAdmin(ReadOnlyAdmin):
    """Who sat a round out: made by the draw, deleted with its round."""

    list_display = ["entrant", "round"]
    list_filter = ["round__tournament"]
    list_select_related = ["entrant__player", "round"]


class MatchInline(FinalResultsReadOnly, admin.TabularInline):
    model = Match
    fk_name = "round"
    extra = 0
    fields = ["table", "ns_team", "ew_team", "referee", "status", "ns_total", "ew_total"]
    raw_id_fields = ["ns_team", "ew_team", "referee"]
    show_change_link = True

    def get_readonly_fields(self, request, obj=None):  # type: ignore[no-untyped-def]
        # `obj` is the round: once it has started, its matches' teams are fixed.
        fixed = ["status", "ns_total", "ew_total"]
        if obj is not None and swap_refusal(obj) is not None:
            fixed += ["ns_team", "ew_team"]
        return fixed

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        started = obj is not None and swap_refusal(obj) is not None
        return not started and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        started = obj is not None and swap_refusal(obj) is not None
        return not started and super().has_delete_permission(request, obj)


@admin.register(Round)
class RoundAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "tournament", "number", "stage", "is_closed"]
    list_filter = ["is_closed", "stage", "tournament"]
    search_fields = ["tournament__name"]
    autocomplete_fields = ["tournament"]
    list_select_related = ["tournament"]
    inlines = [MatchInline]

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        # The match rows of the inline take their tournament from the round.
        for obj in formset.save(commit=False):
            if isinstance(obj, Match) and obj.tournament_id is None:
                obj.tournament_id = form.instance.tournament_id
            obj.save()
        for obj in formset.deleted_objects:
            obj.delete()
        formset.save_m2m()


@admin.register(Bracket)
class BracketAdmin(ReadOnlyAdmin):
    """A final is started and played through the director's pages or the API."""

    list_display = ["tournament", "size", "third_place", "after_round", "created_at"]
    list_select_related = ["tournament"]


DEAL_COLUMNS = (
    "number",
    "dealer",
    "outcome",
    "taker_side",
    "ns_score",
    "ew_score",
    "pot_in",
    "entered_by",
)


class DealInline(FinalResultsReadOnly, admin.TabularInline):
    """Deals are entered through the referee sheet or the API, which replay the match."""

    model = Deal
    extra = 0
    can_delete = False
    fields = DEAL_COLUMNS
    readonly_fields = DEAL_COLUMNS

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Match)
class MatchAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    list_display = [
        "__str__",
        "tournament",
        "round",
        "table",
        "referee",
        "status",
        "ns_total",
        "ew_total",
        "winner",
        "is_closed",
    ]
    list_filter = ["status", "is_closed", "winner", "tournament"]
    search_fields = ["ns_team__name", "ew_team__name", "tournament__name", "referee__username"]
    raw_id_fields = ["round", "tournament", "ns_team", "ew_team", "referee"]
    readonly_fields = [
        "status",
        "ns_total",
        "ew_total",
        "pot",
        "deal_count",
        "winner",
        "finished_at",
        "updated_at",
    ]
    list_select_related = ["tournament", "round", "ns_team", "ew_team", "referee"]
    inlines = [DealInline]

    def get_readonly_fields(self, request, obj=None):  # type: ignore[no-untyped-def]
        fixed = list(self.readonly_fields)
        if obj is not None and swap_refusal(obj.round) is not None:
            fixed += MATCH_DRAW_FIELDS
        return fixed

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        started = obj is not None and swap_refusal(obj.round) is not None
        return not started and super().has_delete_permission(request, obj)


@admin.register(MatchSeat)
class MatchSeatAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    """Who sat where: written with the draw; fixed once the round has started."""

    list_display = ["team", "side", "match", "round"]
    list_filter = ["side"]
    search_fields = ["team__name"]
    raw_id_fields = ["match", "round", "team"]

    def _final(self, obj: object) -> bool:
        started = isinstance(obj, MatchSeat) and swap_refusal(obj.round) is not None
        return started or super()._final(obj)


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    """Deals are read here; they are entered, corrected and removed on the table page.

    Editing a deal row by hand would skip the engine, the replay of the match that follows
    it and the audit trail; a site admin is a director of every club and uses the table page.
    """

    list_display = [
        "__str__",
        "match",
        "number",
        "dealer",
        "outcome",
        "taker_side",
        "ns_score",
        "ew_score",
        "entered_by",
        "entered_at",
    ]
    list_filter = ["outcome", "taker_side", "capot_side", "belote_side", "match__tournament"]
    search_fields = ["match__ns_team__name", "match__ew_team__name", "entered_by__username"]
    raw_id_fields = ["match", "entered_by"]
    readonly_fields = ["entered_at", "updated_at"]
    list_select_related = ["match__ns_team", "match__ew_team", "entered_by"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Submission)
class SubmissionAdmin(FinalResultsReadOnly, admin.ModelAdmin):
    list_display = ["key", "match", "action", "deal_number", "created_at"]
    list_filter = ["action"]
    search_fields = ["key"]
    raw_id_fields = ["match"]


@admin.register(DealAudit)
class DealAuditAdmin(ReadOnlyAdmin):
    list_display = ["match", "deal_number", "action", "by", "at"]
    list_filter = ["action"]
    search_fields = ["by__username", "match__ns_team__name", "match__ew_team__name"]
    date_hierarchy = "at"
    list_select_related = ["match__ns_team", "match__ew_team", "by"]


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ["action", "detail", "tournament", "match", "by", "at"]
    list_filter = ["action", "tournament"]
    search_fields = ["detail", "by__username", "tournament__name"]
    date_hierarchy = "at"
    list_select_related = ["tournament", "by"]


@admin.register(MatchConfirmation)
class MatchConfirmationAdmin(ReadOnlyAdmin):
    """The teams' answers; they change only through the table page or the API (audited)."""

    list_display = ["match", "side", "agree", "remark", "by", "by_director", "at"]
    list_filter = ["agree", "by_director"]
    list_select_related = ["match__ns_team", "match__ew_team", "by"]


@admin.register(RefereeLink)
class RefereeLinkAdmin(ReadOnlyAdmin):
    """Private links are made and revoked on the director's referees page; only hashes here."""

    list_display = [
        "referee",
        "tournament",
        "issued_by",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = ["tournament"]
    search_fields = ["referee__username", "tournament__name"]
    list_select_related = ["referee", "tournament", "issued_by"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = [
        "rank_label",
        "ranked",
        "tournament",
        "round_number",
        "played",
        "won",
        "drawn",
        "lost",
        "match_points",
        "point_difference",
    ]
    list_filter = ["tournament", "round_number"]
    search_fields = ["team__name", "entrant__player__last_name", "tournament__name"]
    list_select_related = ["team", "entrant__player", "tournament"]
