"""The seats that keep a team to one match a round: a MatchSeat per side (made with the matches:
`Match.objects.create_seated`)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player

from .choices import Side
from .tournament import Round, Team


class MatchSeat(models.Model):
    """A team's place in a round; exists so a unique constraint can forbid two matches a round."""

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seats")
    side = models.CharField(_("side"), max_length=2, choices=Side.choices)
    # Who sat for the team at this match (North or East, and their partner): the team's
    # players unless a substitute replaced one (`Substitution`). Empty on rows made before
    # substitutes existed: the team's players then.
    first_player = models.ForeignKey(
        Player,
        verbose_name=_("first player"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    second_player = models.ForeignKey(
        Player,
        verbose_name=_("second player"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_team_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.side} ({self.match_id})"

    @staticmethod
    def who_sat(seat: tuple[Any, Any], team: tuple[Any, Any]) -> tuple[Any, Any]:
        """The pair who sat for a team, by id or by player: the seat's line-up when it names
        both (a substitute in place of a team's player), else the team's own. The one place
        this is decided: the match sheet, the ratings and the series tables read it."""
        return seat if seat[0] is not None and seat[1] is not None else team


# What `Match.seated_players` reads without a query: each seat with who sat.
SEATS_PREFETCH = models.Prefetch(
    "seats", queryset=MatchSeat.objects.select_related("first_player", "second_player")
)
