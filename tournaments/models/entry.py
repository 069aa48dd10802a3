"""The entry: what a registered team and a mêlée's player (`Entrant`) share, defined once.

Every read or write that takes "an entry" takes this type and asks it, never the format:
its players, its name, whose line of the standings it is, how a list orders it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .checkin import Attendance, Payment

if TYPE_CHECKING:
    from club.models import Player


class Entry(models.Model):
    """A team registered for the evening, or a player registered alone in a mêlée.

    Its seed, its withdrawal and its check-in; `fee_paid` is the amount received when it was
    marked paid (the fee may change afterwards; a waived fee received nothing).
    """

    # The entry's key on a standings line and an online registration (`Standing.team`, …).
    line_field: ClassVar[str]
    # What a query joins to name the entry's players, and to name the entry itself.
    players_related: ClassVar[tuple[str, ...]]
    name_related: ClassVar[tuple[str, ...]]
    # How a list of entries reads alphabetically (the check-in page, the door's search).
    name_order: ClassVar[tuple[str, ...]]
    # How many players it seats (an entry fee per player is this many fees).
    player_count: ClassVar[int]
    # The public page of one entry's evening, by its key (`tournaments:team`, …).
    page_name: ClassVar[str]
    # What the column of a list of entries is headed ("Team", "Player").
    heading: ClassVar[str | Promise]
    # The columns that name an entry in an exported sheet (`naming` gives their values).
    naming_columns: ClassVar[tuple[str, ...]]

    seed = models.PositiveSmallIntegerField(_("seed"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # What the withdrawal changed, so that a reinstatement can undo it: the last round drawn
    # then (`rounds`); a team's also the matches turned into byes and its own byes removed.
    withdrawal = models.JSONField(default=dict, blank=True, editable=False)
    # A director's tag (Ladies, Youth…) that a category prize line names (docs/prizes.md).
    category = models.CharField(_("category"), max_length=40, blank=True, default="")
    attendance = models.CharField(
        _("attendance"), max_length=8, choices=Attendance.choices, default=Attendance.EXPECTED
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    paid = models.CharField(_("paid"), max_length=8, choices=Payment.choices, blank=True)
    fee_paid = models.DecimalField(
        _("amount paid"), max_digits=8, decimal_places=2, null=True, blank=True
    )

    if TYPE_CHECKING:
        # Each kind declares its own key to the tournament (this module is below it).
        tournament: Any
        tournament_id: int
        name: Any

    class Meta:
        abstract = True

    @property
    def is_present(self) -> bool:
        return self.attendance == Attendance.PRESENT

    @property
    def players(self) -> tuple[Player, ...]:
        """Who plays under this entry, in seat order (one for a mêlée's player)."""
        raise NotImplementedError

    @property
    def naming(self) -> list[Any]:
        """The values of `naming_columns`."""
        raise NotImplementedError

    @property
    def players_in_words(self) -> str:
        """Its players as a list shows them: "First & Second", or the one player's name."""
        return " & ".join(str(player) for player in self.players)

    @classmethod
    def joined(cls, *, players: bool = True, via: str | None = None) -> list[str]:
        """What `select_related` joins to name the entry (`players`: and its players), or,
        reached through the key `via` (a standings line's), the entry too."""
        fields = cls.players_related if players else cls.name_related
        if via is None:
            return list(fields)
        return [f"{via}__{field}" for field in fields] or [via]

    @classmethod
    def registered(cls, tournament: Any) -> models.QuerySet[Any]:
        """The tournament's entries of this kind, withdrawn or not."""
        raise NotImplementedError
