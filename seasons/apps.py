from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        """seasons/ builds on tournaments/, which never imports it: it listens to what
        tournaments/ says it stored, and adds itself to the pages below it."""
        from club.pages import add_section
        from tournaments import changes as tournament_changes
        from tournaments.forms import add_tournament_form_part

        from . import changes, pages, tasks

        changes.series_changed.connect(tasks.on_series_changed, dispatch_uid="seasons_changed")
        tournament_changes.standings_stored.connect(
            tasks.on_standings_stored, dispatch_uid="seasons_standings_stored"
        )
        tournament_changes.ratings_stored.connect(
            tasks.on_ratings_stored, dispatch_uid="seasons_ratings_stored"
        )
        tournament_changes.ratings_changed.connect(
            tasks.on_ratings_changed, dispatch_uid="seasons_ratings_changed"
        )
        add_section("club:detail", pages.honour_roll)
        add_section("tournaments:director_club", pages.director_club)
        add_section("tournaments:screen", pages.screen_slides)
        add_tournament_form_part(pages.EveningSeries())
        add_section("tournaments:player", pages.player_series)
