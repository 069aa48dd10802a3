"""A tournament of a club, its teams and its rounds."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player

from ..standings.criteria import DEFAULT_TIE_BREAKS


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        OPEN = "open", _("open for registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("double round robin")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80)
    starts_on = models.DateField(_("date"))
    format = models.CharField(
        _("format"), max_length=24, choices=Format.choices, default=Format.ROUND_ROBIN
    )
    # The house rules of rules.md §8, as JSON; always checked by the engine's parse_rules.
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    tie_breaks = models.JSONField(_("tie-break order"), default=default_tie_breaks)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Bumped by every change of a deal, match or team; the standings record which change
    # they were computed from, so a recompute can tell it has nothing to do.
    change_seq = models.PositiveBigIntegerField(_("change number"), default=0)
    standings_seq = models.PositiveBigIntegerField(_("standings computed from change"), default=0)
    standings_computed_at = models.DateTimeField(_("standings computed at"), null=True, blank=True)
    # A digest per round of what the stored standings after it were computed from
    # (standings.table.Tabulation.digests): a recompute skips the rounds whose digest holds.
    standings_digests = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_per_club"),
            models.CheckConstraint(
                condition=models.Q(points_win__gte=models.F("points_draw"))
                & models.Q(points_draw__gte=models.F("points_loss")),
                name="tournament_match_points_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:detail", kwargs={"club_slug": self.club.slug, "slug": self.slug}
        )

    @property
    def house_rules(self) -> Any:
        """The engine's `Rules` for this tournament."""
        from scoring.engine import parse_rules

        return parse_rules(self.rules)

    @property
    def is_running(self) -> bool:
        return self.status == Tournament.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == Tournament.Status.FINISHED

    def has_deals(self) -> bool:
        """Whether a deal has been entered: the house rules and the schedule are then fixed."""
        from .deal import Deal

        return Deal.objects.filter(match__tournament_id=self.pk).exists()

    @property
    def match_points(self) -> tuple[int, int, int]:
        """Match points for a win, a draw and a loss."""
        return (self.points_win, self.points_draw, self.points_loss)

    def clean(self) -> None:
        # Validated once, by the settings service; the admin's form reaches it through here.
        from ..services.settings import settings_errors

        super().clean()
        errors = settings_errors(self)
        if errors:
            raise ValidationError(errors)


class Team(models.Model):
    """A partnership: the first player sits North (or East), the partner opposite."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    first_player = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    second_player = models.ForeignKey(
        Player, verbose_name=_("second player"), on_delete=models.PROTECT, related_name="+"
    )
    seed = models.PositiveSmallIntegerField(_("seed"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="team_seed_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.CheckConstraint(
                condition=~models.Q(first_player=models.F("second_player")),
                name="team_two_different_players",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.first_player, self.second_player)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    is_closed = models.BooleanField(_("closed"), default=False)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}
