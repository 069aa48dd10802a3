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
