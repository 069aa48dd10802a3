"""The players of an individual tournament (mêlée), and who sits out a round."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player
from club.privacy import public_name

from .entry import Entry
from .tournament import Round, Tournament


class Entrant(Entry):
    """A player registered alone in an individual tournament; ranked on their own line.

    Partners are drawn every round: each round's partnerships are Team rows of that round
    (`Team.round`), so a partnership exists for one round only and the entrant is what
    lasts the evening (seed, withdrawal, standings).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )

    line_field = "entrant"
    players_related = ("player",)
    name_related = ("player",)
    player_count = 1
    name_order = ("player__last_name", "player__first_name")
    page_name = "tournaments:player_table"
    heading = _("Player")
    naming_columns = ("player",)

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="entrant_seed_unique"),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entrant_player_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return self.player.full_name

    @property
    def players(self) -> tuple[Player]:
        return (self.player,)

    @property
    def naming(self) -> list[Any]:
        return [self.name]

    @property
    def name(self) -> str:
        """What a standings line or a list shows, as a team's name is shown: the name as
        every visitor may read it (club.privacy: initials for a member who asked)."""
        return public_name(self.player)

    @classmethod
    def registered(cls, tournament: Tournament) -> models.QuerySet[Entrant]:
        return cls.objects.filter(tournament=tournament)


class SitOut(models.Model):
    """An entrant without a seat in a round (the players were not a multiple of four).

    Scored as a bye: a won match worth `bye_points` (docs/formats.md). Deleted with its round.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="sit_outs")

    class Meta:
        ordering = ["round", "entrant__seed"]
        verbose_name = _("sit-out")
        verbose_name_plural = _("sit-outs")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="sit_out_once_per_round"),
        ]

    def __str__(self) -> str:
        return _("%(player)s sits out %(round)s") % {"player": self.entrant, "round": self.round}
