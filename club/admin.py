"""The Django admin for clubs, players, memberships and the derived ratings."""

from __future__ import annotations

from django.contrib import admin

from .models import ApiToken, Club, Membership, Player, Rating, RatingChange, YearRanking


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "role", "joined_on"]
    readonly_fields = ["joined_on"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "created_at"]
    search_fields = ["name", "slug", "city"]
    list_filter = ["city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "user", "created_at"]
    list_display_links = ["last_name", "first_name"]
    search_fields = ["first_name", "last_name", "user__username"]
    list_filter = ["clubs"]
    raw_id_fields = ["user"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role", "joined_on"]
    list_filter = ["role", "club"]
    search_fields = ["player__first_name", "player__last_name", "club__name"]
    autocomplete_fields = ["player", "club"]
    list_select_related = ["player", "club"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Derived rows (ratings, standings) and audit trails: shown as written, never edited by hand."""

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "club", "rating", "mu", "sigma", "matches_played", "matches_won"]
    list_filter = ["club"]
    search_fields = ["player__first_name", "player__last_name"]
    list_select_related = ["player", "club"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["player", "club", "match_id", "played_at", "rating", "won"]
    list_filter = ["club", "won"]
    search_fields = ["player__first_name", "player__last_name", "match_id"]
    date_hierarchy = "played_at"
    list_select_related = ["player", "club"]


@admin.register(YearRanking)
class YearRankingAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "club",
        "year",
        "tournaments_played",
        "matches_played",
        "matches_won",
        "average_place",
    ]
    list_filter = ["club", "year"]
    search_fields = ["player__first_name", "player__last_name"]
    list_select_related = ["player", "club"]


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    """Who holds which key, who issued and revoked it: tokens are made and revoked by the API."""

    list_display = ["prefix", "user", "scope", "club", "name", "issued_by", "created_at"]
    list_display += ["last_used_at", "revoked_at"]
    list_filter = ["scope", "club"]
    search_fields = ["user__username", "prefix", "name"]
    list_select_related = ["user", "club", "issued_by"]
    exclude = ["digest"]
