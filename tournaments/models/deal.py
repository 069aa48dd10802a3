"""A deal as the referee entered it and the engine scored it; submission keys and the audit trail."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.permissions import actor_user
from scoring.engine import PlayedDeal, codec
from scoring.engine import Team as EngineTeam

from .choices import Outcome, Seat, Side
from .match import Match
from .tournament import Tournament


class Deal(models.Model):
    """One deal as the referee entered it (docs/rules.md §8) and the engine's result for it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("number"))
    entry = models.JSONField(_("entry"))
    result = models.JSONField(_("result"), default=dict)
    dealer = models.CharField(_("dealer"), max_length=1, choices=Seat.choices, blank=True)
    # Columns copied from `result` so standings aggregate in SQL instead of reading JSON.
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices, blank=True)
    taker_side = models.CharField(_("taking team"), max_length=2, choices=Side.choices, blank=True)
    capot_side = models.CharField(_("capot"), max_length=2, choices=Side.choices, blank=True)
    belote_side = models.CharField(_("belote"), max_length=2, choices=Side.choices, blank=True)
    ns_score = models.IntegerField(_("NS score"), default=0)
    ew_score = models.IntegerField(_("EW score"), default=0)
    pot_in = models.IntegerField(_("into the pot"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Deal %(number)s") % {"number": self.number}

    @property
    def version(self) -> str:
        """What an edit is based on: this row with this entry (a new entry, a new version).

        The row counts too: once an earlier deal is removed, deal n is another row, and an
        edit meant for the deal that had number n must not land on it.
        """
        text = json.dumps([self.pk, self.entry], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    # The columns a replay writes, all from the engine's PlayedDeal (`columns_of`).
    REPLAY_FIELDS = (
        "dealer",
        "outcome",
        "taker_side",
        "capot_side",
        "belote_side",
        "ns_score",
        "ew_score",
        "pot_in",
        "result",
    )

    @staticmethod
    def columns_of(played: PlayedDeal) -> dict[str, Any]:
        """Every REPLAY_FIELDS column of a deal, from the engine's replay of its match."""
        result = played.result
        belote = next((team for team in EngineTeam if result.belote[team]), None)
        return {
            "dealer": played.dealer.value,
            "outcome": result.outcome.value,
            "taker_side": result.taker.value if result.taker else "",
            "capot_side": result.capot.value if result.capot else "",
            "belote_side": belote.value if belote else "",
            "ns_score": result.score[EngineTeam.NS],
            "ew_score": result.score[EngineTeam.EW],
            "pot_in": result.pot_in,
            "result": codec.result_to_json(result),
        }

    def apply_replay(self, played: PlayedDeal) -> list[str]:
        """Set the columns from the replay; the names that changed (to save only those)."""
        changed = []
        for name, value in Deal.columns_of(played).items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed.append(name)
        return changed


class Submission(models.Model):
    """A one-time submission key: a form or an Idempotency-Key that has been used once.

    A key is one user's on one match: another referee (or the same one on another match)
    choosing the same key is a different submission.
    """

    key = models.CharField(_("key"), max_length=100)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    # Empty for the system actor (commands, the demo).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=10)
    deal_number = models.PositiveSmallIntegerField(_("deal number"), null=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "user", "key"], name="submission_key_per_match_and_user"
            ),
        ]

    def __str__(self) -> str:
        return self.key


class DealAudit(models.Model):
    """Who changed which deal of a match, when, and the entry before and after."""

    class Action(models.TextChoices):
        ENTERED = "entered", _("entered")
        CORRECTED = "corrected", _("corrected")
        REMOVED = "removed", _("removed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="audit")
    deal_number = models.PositiveSmallIntegerField(_("deal number"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("entry before"), null=True, blank=True)
    after = models.JSONField(_("entry after"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["match", "at", "id"]
        verbose_name = _("deal audit entry")
        verbose_name_plural = _("deal audit trail")

    def __str__(self) -> str:
        return f"{self.match_id} #{self.deal_number} {self.action}"


class MatchEvent(models.Model):
    """Audit of what a director (or a team, on its sheet) did to a tournament, a match or a team.

    Written only by `MatchEvent.record`, with one of the `Action` codes: the code is stable (the
    API sends it), the label is what a page shows.
    """

    class Action(models.TextChoices):
        CREATED = "created", _("tournament created")
        SETTINGS = "settings", _("settings changed")
        REGISTER = "register", _("players registered")
        EDIT_TEAM = "edit_team", _("team changed")
        DELETE_TEAM = "delete_team", _("team deleted")
        DELETE_ENTRANT = "delete_entrant", _("player deleted")
        WITHDRAW = "withdraw", _("withdrawn")
        SCHEDULE = "schedule", _("schedule generated")
        DRAW = "draw", _("round drawn")
        DELETE_ROUND = "delete_round", _("round deleted")
        FINAL = "final", _("final started")
        CLOSE_ROUND = "close_round", _("round closed")
        REOPEN_ROUND = "reopen_round", _("round reopened")
        CLOSE_MATCH = "close_match", _("match closed")
        REOPEN_MATCH = "reopen_match", _("match reopened")
        BYE = "bye", _("turned into a bye")
        BYE_REMOVED = "bye_removed", _("bye removed")
        # A match's referee; a table's, in every open round at once.
        REFEREE = "referee", _("referee changed")
        TABLE_REFEREE = "table_referee", _("table referee changed")
        REFEREE_LINK = "referee_link", _("referee link made")
        REVOKE_LINK = "revoke_link", _("referee link revoked")
        CONFIRM = "confirm", _("sheet confirmed")
        DISPUTE = "dispute", _("sheet disputed")
        UNCONFIRMED = "unconfirmed", _("answers forgotten after a change")
        # Final results reopened by a director; `detail` is the reason.
        REOPEN_RESULTS = "reopen_results", _("results reopened")
        # The evening before the first deal: online entries, check-in and fees.
        ONLINE_REGISTRATION = "online_registration", _("registered online")
        ACCEPT_REGISTRATION = "accept_registration", _("online entry accepted")
        CANCEL_REGISTRATION = "cancel_registration", _("online entry cancelled")
        PAIR_REGISTRATIONS = "pair_registrations", _("players paired")
        CHECK_IN = "check_in", _("checked in")
        SELF_CHECK_IN = "self_check_in", _("checked in at the door")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, related_name="events")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    detail = models.CharField(_("detail"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "at", "id"]
        verbose_name = _("director action")
        verbose_name_plural = _("director actions")

    def __str__(self) -> str:
        return f"{self.action} {self.detail}"

    @classmethod
    def record(
        cls,
        *,
        tournament: Tournament | int,
        action: MatchEvent.Action,
        by: Any,
        match: Match | None = None,
        detail: Any = "",
    ) -> MatchEvent:
        """Write one audit event: the only writer of this table. `by` is the acting user (or
        the system: then nobody is recorded); `detail` is cut to the column's length."""
        if not isinstance(action, cls.Action):
            raise TypeError(f"not a MatchEvent.Action: {action!r}")
        tournament_id = tournament if isinstance(tournament, int) else tournament.pk
        return cls.objects.create(
            tournament_id=tournament_id,
            match=match,
            action=action,
            detail=str(detail)[:200],
            by=actor_user(by),
        )
