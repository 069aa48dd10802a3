from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrizesConfig(AppConfig):
    name = "prizes"
    verbose_name = _("Prizes")

    def ready(self) -> None:
        from club.pages import add_rows, add_section
        from tournaments.changes import standings_stored
        from tournaments.services.setting_checks import register_setting_check

        from . import checks, receivers, views

        # The `prizes` setting lives on the tournament but is read here: its check joins the
        # tournament's settings checks (one check, every way in), and the prize list follows
        # each storing of the standings, as tournaments may not import this app; the list
        # shows on the tournament's page and the big screen through their sections (club.pages).
        register_setting_check("prizes", checks.setting_problems)
        standings_stored.connect(receivers.on_standings_stored, dispatch_uid="prizes_standings")
        add_section("tournaments:detail", views.overview_section)
        add_section("tournaments:screen", views.screen_slides)
        add_section("seasons:series", views.series_section)
        add_section("seasons:season", views.season_section)
        add_section("entries:director_cash", views.cash_section)
        add_rows("entries:director_export_cash", views.cash_rows)
