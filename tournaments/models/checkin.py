"""Whether an entry (a team, an individual tournament's player) came, and how it paid."""

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


class CheckInFields(models.Model):
    """The check-in of an entry; `fee_paid` is the amount received when it was marked paid
    (the fee may change afterwards; a waived fee received nothing)."""

    attendance = models.CharField(
        _("attendance"), max_length=8, choices=Attendance.choices, default=Attendance.EXPECTED
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    paid = models.CharField(_("paid"), max_length=8, choices=Payment.choices, blank=True)
    fee_paid = models.DecimalField(
        _("amount paid"), max_digits=8, decimal_places=2, null=True, blank=True
    )

    class Meta:
        abstract = True

    @property
    def is_present(self) -> bool:
        return self.attendance == Attendance.PRESENT
