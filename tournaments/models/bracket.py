"""A tournament's knockout final: the bracket's size, its seeds and whether a third place is played."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..scheduling.knockout import BRACKET_SIZES
from .tournament import Tournament


class Bracket(models.Model):
    """The top of the qualifying standings, seeded into a knockout final (docs/formats.md).

    `seeds` are fixed when the final starts, so a later correction of a qualifying match
    cannot reshuffle a bracket being played; its rounds are the tournament's rounds of a
    knockout stage, numbered after the qualifying ones.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="bracket")
    size = models.PositiveSmallIntegerField(
        _("teams in the final"), choices=[(n, str(n)) for n in BRACKET_SIZES]
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    # Team ids, seed 1 first: the first `size` of the standings after `after_round`.
    seeds = models.JSONField(_("seeds"), default=list)
    after_round = models.PositiveSmallIntegerField(_("seeded after round"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("knockout final")
        verbose_name_plural = _("knockout finals")

    def __str__(self) -> str:
        return _("Final of %(size)s") % {"size": self.size}

    @property
    def rounds(self) -> int:
        """How many rounds the bracket has: 1 for 2 teams, 4 for 16."""
        return self.size.bit_length() - 1
