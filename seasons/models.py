"""A club's seasons, their series and the series' stored tables (the rules: docs/seasons.md).

The tables are those club/ created (`db_table`): the models moved here without their rows
moving (docs/architecture.md, "How a model moves between apps").
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player


class Season(models.Model):
    """A club's season, with its own dates; a tournament belongs to the season its date falls
    in. Two seasons of a club never overlap (the services refuse it, naming the field)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))

    class Meta:
        db_table = "club_season"
        ordering = ["club", "-starts_on"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} — {self.name}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("seasons:season", kwargs={"club_slug": self.club.slug, "pk": self.pk})

    def holds(self, day: Any) -> bool:
        return bool(self.starts_on <= day <= self.ends_on)


class Series(models.Model):
    """A competition inside a season: a set of the club's tournaments (its evenings) ranked
    by its rules (seasons.arithmetic holds the arithmetic; docs/seasons.md the rules).

    Its evenings are `tournaments`, declared here (tournaments/ imports no season; a
    tournament reads them as `tournament.series`) on the link table tournaments/ created."""

    class Points(models.TextChoices):
        SCORE = "score", _("game points")
        MATCH_POINTS = "match_points", _("match points")
        PLACE = "place", _("points per place")

    class Handicap(models.TextChoices):
        NONE = "none", _("none")
        RATING = "rating", _("by club rating")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="series")
    name = models.CharField(_("name"), max_length=80)
    tournaments = models.ManyToManyField(
        "tournaments.Tournament",
        verbose_name=_("tournaments"),
        related_name="series",
        blank=True,
        db_table="tournaments_tournament_series",
    )
    points = models.CharField(
        _("points"), max_length=12, choices=Points.choices, default=Points.PLACE
    )
    place_points = models.JSONField(_("points per place"), default=list, blank=True)
    participation_points = models.IntegerField(_("participation points"), default=0)
    best_of = models.PositiveSmallIntegerField(_("best of"), null=True, blank=True)
    absent_points = models.IntegerField(_("points for a missed evening"), default=0)
    min_evenings = models.PositiveSmallIntegerField(_("minimum evenings"), default=0)
    handicap = models.CharField(
        _("handicap"), max_length=8, choices=Handicap.choices, default=Handicap.NONE
    )
    # What the stored table was computed from (the evenings' standings versions and the
    # rules): a recompute that finds the same skips the write.
    computed_from = models.CharField(max_length=64, blank=True, editable=False)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)

    class Meta:
        db_table = "club_series"
        ordering = ["season", "name", "pk"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return f"{self.season.name} — {self.name}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("seasons:series", kwargs={"club_slug": self.season.club.slug, "pk": self.pk})

    @property
    def has_handicap(self) -> bool:
        return self.handicap == Series.Handicap.RATING


class SeriesLine(models.Model):
    """A player's line in a series table; derived, rebuilt by a recompute (seasons.arithmetic).

    `evenings`: per evening of the series so far, [tournament id, points, counted, played,
    handicap points, handicap counted]; `ranks`: the rank after each evening (the chart).
    """

    # Rebuilt by a recompute: on a merge, the second record's line that collides with the
    # first's in the same series is dropped rather than moved (club.merging).
    derived_per_player = True

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="series_lines")
    position = models.PositiveIntegerField(_("position"))
    rank = models.PositiveIntegerField(_("rank"), null=True)
    shared_rank = models.BooleanField(_("shared rank"), default=False)
    played = models.PositiveIntegerField(_("evenings played"), default=0)
    total = models.IntegerField(_("total"), default=0)
    handicap_total = models.IntegerField(_("handicap total"), default=0)
    handicap_rank = models.PositiveIntegerField(_("handicap rank"), null=True)
    needs = models.IntegerField(_("needs"), null=True)
    evenings = models.JSONField(_("evenings"), default=list)
    ranks = models.JSONField(_("ranks after each evening"), default=list)

    class Meta:
        db_table = "club_seriesline"
        ordering = ["series", "position"]
        verbose_name = _("series line")
        verbose_name_plural = _("series lines")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "player"], name="series_line_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.player}"

    @property
    def rank_label(self) -> str:
        if self.rank is None:
            return ""
        return f"{self.rank}=" if self.shared_rank else str(self.rank)
