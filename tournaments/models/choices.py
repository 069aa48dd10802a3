"""The words of the game as database choices: each mirrors an enum of the engine (a test holds them equal)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Seat(models.TextChoices):
    """Mirrors scoring.engine.Seat."""

    NORTH = "N", _("North")
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")


class Side(models.TextChoices):
    """Mirrors scoring.engine.Team: the two partnerships at a table."""

    NS = "NS", _("North–South")
    EW = "EW", _("East–West")


def seat_of(side: str, *, first: bool) -> Seat:
    """The seat of a team's first player (`first`) or of the partner, when the team sits
    `side`: the first player sits North (or East), the partner opposite. The one place it
    is said: the table's seats, a player's next seat and the pages read it."""
    if side == Side.NS:
        return Seat.NORTH if first else Seat.SOUTH
    return Seat.EAST if first else Seat.WEST


class Outcome(models.TextChoices):
    """Mirrors scoring.engine.Outcome."""

    MADE = "made", _("made")
    DEDANS = "dedans", _("dedans")
    LITIGE = "litige", _("litige")
    THROWN_IN = "thrown_in", _("thrown in")
