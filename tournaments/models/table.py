"""What the table adds to a match: each team's confirmation of the finished sheet, and the
private links that sign a referee in for one tournament's tables."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Credential, secret_digest

from .choices import Side
from .match import Match
from .tournament import Tournament


class MatchConfirmation(models.Model):
    """One team's answer to the finished sheet: agreed, or disputed (which alerts the director).

    At most one per team and match: a team that changes its mind replaces its answer. A change
    of the match's deals deletes both (the deal services), so a confirmation always speaks of
    the sheet as it stands.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="confirmations")
    side = models.CharField(_("team"), max_length=2, choices=Side.choices)
    agree = models.BooleanField(_("agrees"))
    remark = models.CharField(_("remark"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # A director answering for the team (in person, or after settling a dispute), not the
    # players on the referee's phone.
    by_director = models.BooleanField(_("by a director"), default=False)
    at = models.DateTimeField(_("at"), auto_now=True)

    class Meta:
        ordering = ["match", "side"]
        verbose_name = _("sheet confirmation")
        verbose_name_plural = _("sheet confirmations")
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="confirmation_once_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side} {'agrees' if self.agree else 'disputes'}"


class RefereeLink(Credential):
    """A private address that signs one referee in for one tournament's tables, until revoked.

    Only the secret's hash is kept: the address is shown once, when it is made; a director
    who loses it makes a new one (which revokes this one).
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="referee_links"
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referee"),
        on_delete=models.CASCADE,
        related_name="referee_links",
    )

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("referee link")
        verbose_name_plural = _("referee links")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "referee"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_live_link_per_referee",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.referee} @ {self.tournament}"

    @staticmethod
    def new_secret() -> str:
        """144 random bits, URL-safe: the private part of the address."""
        return secrets.token_urlsafe(18)

    @classmethod
    def find(cls, secret: str) -> RefereeLink | None:
        if not secret or len(secret) > 64:
            return None
        return (
            cls.objects.select_related("tournament__club", "referee__player")
            .filter(digest=secret_digest(secret))
            .first()
        )
