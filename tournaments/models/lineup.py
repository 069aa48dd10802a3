"""Who sits for a team: substitutes from a given round on, and the director's calls from a table."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player

from .match import Match
from .tournament import Team, Tournament


class Substitution(models.Model):
    """A player of a team replaced by another from round `from_round` on.

    The team keeps its name, seed and results; the seats of its matches from that round on
    (`MatchSeat.first_player`, `second_player`) name who actually sat, so the match sheet,
    the player's page and the ratings follow them. In an individual tournament the
    partnership of one round (`Team.round`) is changed itself.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="substitutions"
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="substitutions")
    player_out = models.ForeignKey(
        Player, verbose_name=_("player out"), on_delete=models.PROTECT, related_name="+"
    )
    player_in = models.ForeignKey(
        Player, verbose_name=_("player in"), on_delete=models.PROTECT, related_name="+"
    )
    from_round = models.PositiveSmallIntegerField(_("from round"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["team", "from_round", "at", "id"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_out=models.F("player_in")),
                name="substitution_two_different_players",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player_out} → {self.player_in} ({self.from_round})"

    @staticmethod
    def line_up(team: Team, number: int, substitutions: Iterable[Substitution]) -> tuple[int, int]:
        """The ids of the two players who sit for `team` in round `number`: its registered
        players with every substitution up to that round applied in order."""
        first, second = team.first_player_id, team.second_player_id
        for sub in sorted(substitutions, key=lambda s: (s.from_round, s.at, s.pk or 0)):
            if sub.team_id != team.pk or sub.from_round > number:
                continue
            if first == sub.player_out_id:
                first = sub.player_in_id
            elif second == sub.player_out_id:
                second = sub.player_in_id
        return first, second


class DirectorCall(models.Model):
    """A table calling the director (a dispute, a question), shown until a director answers."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("called by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("answered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "at", "id"]
        verbose_name = _("call to the director")
        verbose_name_plural = _("calls to the director")
        indexes = [models.Index(fields=["tournament", "answered_at"])]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.reason}"

    @property
    def answered(self) -> bool:
        return self.answered_at is not None
