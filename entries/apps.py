from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# The pages of this app that the event's own pages link to (tournaments.pages).
LINKED_PAGES = (
    "register",
    "self_check_in",
    "director_registrations",
    "director_check_in",
    "director_cash",
)


class EntriesConfig(AppConfig):
    name = "entries"
    verbose_name = _("Entries")

    def ready(self) -> None:
        from club.hooks import member_erased
        from tournaments import changes, pages

        from .services import members, waiting_list

        # More places (a higher capacity, set in the tournament's settings): the waiting list
        # moves up into them, inside the settings' transaction.
        changes.capacity_changed.connect(
            waiting_list.on_capacity_changed, dispatch_uid="belote_capacity_changed"
        )
        # An erased member's name out of the registrations that typed it (club.privacy).
        member_erased.connect(members.on_member_erased, dispatch_uid="entries_member_erased")
        for name in LINKED_PAGES:
            pages.add_page(name, f"entries:{name}")
