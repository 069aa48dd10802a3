"""The admin of online registrations: read only, decided on the site's pages."""

from django.contrib import admin

from tournaments.admin import ReadOnlyAdmin

from .models import Registration


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    """Online entries: accepted, paired and cancelled by a director on the site's pages."""

    list_display = ["names", "tournament", "status", "partner_wanted", "created_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["player", "partner", "email"]
    list_select_related = ["tournament"]
    exclude = ["key"]
