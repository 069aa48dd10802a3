from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from . import changes  # noqa: F401  (its signals record the admin's edits)
        from .api import schema  # noqa: F401  (registers the token scheme with drf-spectacular)
