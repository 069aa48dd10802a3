"""A team's (or an individual entrant's) stored line in the standings after one round (derived)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..standings.names import LIVE_ROUND
from .entrant import Entrant
from .entry import Entry
from .tournament import Team, Tournament


class Standing(models.Model):
    """A line in the standings after one round, or in the live table (`is_live`); derived,
    rebuilt by a recompute.

    The line of a team, or in an individual tournament of a player (`entrant`): exactly one
    of the two is set.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    round_number = models.PositiveSmallIntegerField(_("after round"))
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="standings", null=True, blank=True
    )
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="standings", null=True, blank=True
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    shared_rank = models.BooleanField(_("shared rank"), default=False)
    played = models.PositiveSmallIntegerField(_("played"), default=0)
    won = models.PositiveSmallIntegerField(_("won"), default=0)
    drawn = models.PositiveSmallIntegerField(_("drawn"), default=0)
    lost = models.PositiveSmallIntegerField(_("lost"), default=0)
    match_points = models.IntegerField(_("match points"), default=0)
    points_for = models.IntegerField(_("points for"), default=0)
    points_against = models.IntegerField(_("points against"), default=0)
    point_difference = models.IntegerField(_("point difference"), default=0)
    sonneborn_berger = models.IntegerField(_("Sonneborn–Berger"), default=0)
    buchholz = models.IntegerField(_("Buchholz"), default=0)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    contracts_taken = models.PositiveIntegerField(_("contracts taken"), default=0)
    contracts_made = models.PositiveIntegerField(_("contracts made"), default=0)
    contracts_dedans = models.PositiveIntegerField(_("contracts dedans"), default=0)
    capots = models.PositiveIntegerField(_("capots"), default=0)
    belotes = models.PositiveIntegerField(_("belotes"), default=0)
    litiges = models.PositiveIntegerField(_("litiges"), default=0)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    # Live table only (round_number LIVE_ROUND): matches counted on their current totals.
    in_play = models.PositiveSmallIntegerField(_("matches in play"), default=0)

    class Meta:
        ordering = ["tournament", "round_number", "rank", "team__seed"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "team"], name="standing_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["tournament", "round_number", "entrant"],
                condition=models.Q(entrant__isnull=False),
                name="standing_of_entrant_once_per_round",
            ),
            models.CheckConstraint(
                condition=models.Q(team__isnull=False, entrant__isnull=True)
                | models.Q(team__isnull=True, entrant__isnull=False),
                name="standing_of_a_team_or_an_entrant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank_label} {self.ranked}"

    @property
    def ranked(self) -> Entry:
        """Whose line it is: the team, or the individual tournament's entrant (joined)."""
        return self.team if self.entrant_id is None else self.entrant  # type: ignore[return-value]

    @property
    def name(self) -> str:
        # A team named after a member whose name is not public is shown under the name
        # every visitor may read, set by the page that reads the lines (`public_names`).
        return getattr(self, "public_name", None) or self.ranked.name

    @property
    def is_live(self) -> bool:
        """A line of the live table (matches in play counted provisionally)."""
        return self.round_number == LIVE_ROUND

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)
