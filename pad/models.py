"""A friendly game kept on the score pad (docs/rules.md §9 for two or three players).

The deals as entered are the game; totals and the winner are replayed from them by the engine
whenever they are read or written, as a tournament match is.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club


def new_key() -> str:
    return secrets.token_urlsafe(18)


def expiry_cutoff(now: datetime.datetime | None = None) -> datetime.datetime:
    """Games last opened before this have expired (`PAD_EXPIRY_DAYS` without being opened)."""
    return (now or timezone.now()) - datetime.timedelta(days=settings.PAD_EXPIRY_DAYS)


class PadQuerySet(models.QuerySet["Pad"]):
    def kept(self) -> PadQuerySet:
        """The games still there: opened within the expiry, or filed with a club (kept)."""
        return self.filter(
            models.Q(last_opened_at__gte=expiry_cutoff()) | models.Q(club__isnull=False)
        )

    def expired(self) -> PadQuerySet:
        return self.filter(last_opened_at__lt=expiry_cutoff(), club__isnull=True)


class Pad(models.Model):
    # The private address (continue the game); `view_key` is the read-only address to share.
    key = models.CharField(_("private key"), max_length=32, unique=True, default=new_key)
    view_key = models.CharField(_("read-only key"), max_length=32, unique=True, default=new_key)
    players = models.JSONField(_("players"), default=list)
    rules = models.JSONField(_("house rules"), default=dict)
    first_dealer = models.CharField(_("first dealer"), max_length=1, default="N")
    deals = models.JSONField(_("deals"), default=list)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="friendly_games",
    )
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("attached by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # Opened by its private or read-only address (or written); the expiry counts from here.
    last_opened_at = models.DateTimeField(_("last opened"), default=timezone.now, db_index=True)

    objects = PadQuerySet.as_manager()

    class Meta:
        verbose_name = _("friendly game")
        verbose_name_plural = _("friendly games")
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return " · ".join(str(name) for name in self.players)

    @property
    def expires_at(self) -> datetime.datetime | None:
        """When the game goes unless it is opened again; None: filed with a club, kept."""
        if self.club_id is not None:
            return None
        return self.last_opened_at + datetime.timedelta(days=settings.PAD_EXPIRY_DAYS)
