"""Online registration: a request to play, kept apart from the teams (and an individual
tournament's entrants) until a director accepts it; then its names are matched to the club's
members exactly as pasted teams are, and it points at the team (or entrant) it became.
Presence and payment are the entry's own (`tournaments.models.Entry`, on Team and
Entrant): the event owns its entries, this app the actions and pages before the first deal.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entrant, Team, Tournament


def new_registration_key() -> str:
    """The private part of an entry's link: to see or cancel it without an account."""
    return secrets.token_urlsafe(18)


class Registration(models.Model):
    """One online entry: a team (two names), a player asking for a partner, or (individual)
    one player. In order of arrival; past the capacity it waits (`Status.WAITING`)."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WAITING = "waiting", _("on the waiting list")
        ACCEPTED = "accepted", _("accepted")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    key = models.CharField(max_length=32, unique=True, default=new_registration_key, editable=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    player = models.CharField(_("player"), max_length=161)
    partner = models.CharField(_("partner"), max_length=161, blank=True)
    # A team format: one player alone, to be paired by the director with another one.
    partner_wanted = models.BooleanField(_("partner wanted"), default=False)
    paired_with = models.OneToOneField(
        "self",
        verbose_name=_("paired with"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    # The language the entry was made in: its later e-mails (a place freed) speak it too.
    language = models.CharField(_("language"), max_length=10, blank=True)
    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.SET_NULL, null=True, blank=True
    )
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("accepted or cancelled at"), null=True, blank=True)

    class Meta:
        # Made by tournaments (0013) and moved here with its rows (migrations/0001).
        db_table = "tournaments_registration"
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")

    def __str__(self) -> str:
        return self.names

    @property
    def names(self) -> str:
        return f"{self.player} & {self.partner}" if self.partner else self.player

    @property
    def is_pending(self) -> bool:
        """Registered or waiting: neither accepted nor cancelled yet."""
        return self.status in (Registration.Status.REGISTERED, Registration.Status.WAITING)

    def places(self, tournament: Tournament) -> int:
        """The halves of a place it holds in its `tournament` (given: no query): a whole entry
        2, a player looking for a partner half a team (1: two of them fill one place); in an
        individual tournament a player is a whole entry."""
        return 1 if self.partner_wanted and tournament.entry_model.player_count > 1 else 2
