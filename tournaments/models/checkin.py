"""The words of an entry's check-in: whether it came, and how it paid (fields on `Entry`)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Attendance(models.TextChoices):
    """With check-in on, every entry is expected until a director (or a player) checks it in."""

    EXPECTED = "expected", _("expected")
    PRESENT = "present", _("present")
    ABSENT = "absent", _("absent")


class Payment(models.TextChoices):
    CASH = "cash", _("cash")
    CARD = "card", _("card")
    TRANSFER = "transfer", _("transfer")
    WAIVED = "waived", _("waived")
