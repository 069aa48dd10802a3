from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from live.versions import register_source

        from . import (
            changes,  # its signals record the admin's edits
            tasks,
        )
        from .api import schema  # noqa: F401  (registers the token scheme with drf-spectacular)
        from .selectors import LIVE_SOURCE

        # What follows a committed change (the recompute, the live versions) is the task
        # module's: changes.py knows nothing of it.
        changes.change_committed.connect(
            tasks.on_change_committed, dispatch_uid="belote_change_committed"
        )
        changes.ratings_changed.connect(
            tasks.on_ratings_changed, dispatch_uid="belote_ratings_changed"
        )
        # live/ reads a tournament's versions through this when the cache has none.
        register_source(LIVE_SOURCE)
        # What club asks of the tournaments about its members (club.hooks).
        from club import hooks

        from .selectors import members

        hooks.member_merged.connect(tasks.on_member_merged, dispatch_uid="belote_member_merged")
        hooks.member_erased.connect(tasks.on_member_erased, dispatch_uid="belote_member_erased")
        hooks.HOOKS.add_merge_refusal(members.played_together)
        hooks.HOOKS.evenings = members.evenings_of
