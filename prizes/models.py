"""A tournament's prize list, as computed from its final standings (derived, rebuilt), and a
series' prize table."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

from seasons.models import Series
from tournaments.models import Tournament


class PrizeList(models.Model):
    """The prize list of a tournament whose last round is finished; derived, overwritten by
    each recompute (services.recompute_prize_list).

    `digest` names what it was computed from (the prize table, the final standings, the
    categories, the fees due): a recompute with the same digest stores nothing. `lines` holds
    one object per award: `place`, `shared_place`, `entry` {`id`, `name`}, `amount` (a decimal
    string or null), `kind`, `shared`, `line`, `category`.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="prize_list"
    )
    digest = models.CharField(max_length=64)
    fees_due = models.DecimalField(_("fees due"), max_digits=10, decimal_places=2)
    pool = models.DecimalField(_("pool"), max_digits=10, decimal_places=2)
    awarded = models.DecimalField(_("awarded"), max_digits=10, decimal_places=2)
    lines = models.JSONField(default=list)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("prize list")
        verbose_name_plural = _("prize lists")

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def retained(self) -> Decimal:
        """What the club keeps of the pool: negative when it adds money."""
        return self.pool - self.awarded


class SeriesPrizes(models.Model):
    """A series' prize table (the `prizes` setting's shape, docs/prizes.md), over the ranks of
    its table at the end of the season; the list is worked out when read (the table is
    stored, the arithmetic is quick)."""

    series = models.OneToOneField(Series, on_delete=models.CASCADE, related_name="prize_table")
    prizes = models.JSONField(_("prizes"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("series prize table")
        verbose_name_plural = _("series prize tables")

    def __str__(self) -> str:
        return str(self.series)
