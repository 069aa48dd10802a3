"""Tournaments, teams, rounds, matches and deals; standings and the audit trail derived from them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player

from .standings_names import DEFAULT_TIE_BREAKS, TIE_BREAKS


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


class Outcome(models.TextChoices):
    """Mirrors scoring.engine.Outcome."""

    MADE = "made", _("made")
    DEDANS = "dedans", _("dedans")
    LITIGE = "litige", _("litige")
    THROWN_IN = "thrown_in", _("thrown in")


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        OPEN = "open", _("open for registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("double round robin")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80)
    starts_on = models.DateField(_("date"))
    format = models.CharField(
        _("format"), max_length=24, choices=Format.choices, default=Format.ROUND_ROBIN
    )
    # The house rules of rules.md §8, as JSON; always checked by the engine's parse_rules.
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    tie_breaks = models.JSONField(_("tie-break order"), default=default_tie_breaks)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Bumped by every change of a deal, match or team; the standings record which change
    # they were computed from, so a recompute can tell it has nothing to do.
    change_seq = models.PositiveBigIntegerField(_("change number"), default=0)
    standings_seq = models.PositiveBigIntegerField(_("standings computed from change"), default=0)
    standings_computed_at = models.DateTimeField(_("standings computed at"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_per_club"),
            models.CheckConstraint(
                condition=models.Q(points_win__gte=models.F("points_draw"))
                & models.Q(points_draw__gte=models.F("points_loss")),
                name="tournament_match_points_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:detail", kwargs={"club_slug": self.club.slug, "slug": self.slug}
        )

    @property
    def house_rules(self) -> Any:
        """The engine's `Rules` for this tournament."""
        from scoring.engine import parse_rules

        return parse_rules(self.rules)

    def clean(self) -> None:
        super().clean()
        errors: dict[str, list[Any]] = {}
        from scoring.engine import InvalidDeal, parse_rules
        from scoring.translation import problem_message

        try:
            self.rules = parse_rules(self.rules).to_json()
        except InvalidDeal as invalid:
            errors["rules"] = [f"{p.path}: {problem_message(p)}" for p in invalid.problems]
        unknown = [name for name in self.tie_breaks or [] if name not in TIE_BREAKS]
        if not isinstance(self.tie_breaks, list) or unknown:
            errors["tie_breaks"] = [
                _("Unknown tie-break %(names)s; choose from %(choices)s.")
                % {"names": ", ".join(map(str, unknown)), "choices": ", ".join(TIE_BREAKS)}
            ]
        elif len(set(self.tie_breaks)) != len(self.tie_breaks):
            errors["tie_breaks"] = [_("A tie-break may appear only once.")]
        if errors:
            raise ValidationError(errors)


class Team(models.Model):
    """A partnership: the first player sits North (or East), the partner opposite."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    first_player = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    second_player = models.ForeignKey(
        Player, verbose_name=_("second player"), on_delete=models.PROTECT, related_name="+"
    )
    seed = models.PositiveSmallIntegerField(_("seed"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="team_seed_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.CheckConstraint(
                condition=~models.Q(first_player=models.F("second_player")),
                name="team_two_different_players",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.first_player, self.second_player)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    is_closed = models.BooleanField(_("closed"), default=False)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Match(models.Model):
    """Two teams at one table in one round; a bye when there is no EW team."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("not started")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class Winner(models.TextChoices):
        NS = "NS", _("North–South")
        EW = "EW", _("East–West")
        DRAW = "draw", _("draw")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    # Denormalised from the round so that standings read a tournament's matches in one query.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    # RESTRICT, not PROTECT: a team with matches cannot be deleted alone, but deleting the
    # whole tournament (which cascades to both) works.
    ns_team = models.ForeignKey(
        Team, verbose_name=_("NS team"), on_delete=models.RESTRICT, related_name="ns_matches"
    )
    ew_team = models.ForeignKey(
        Team,
        verbose_name=_("EW team"),
        on_delete=models.RESTRICT,
        related_name="ew_matches",
        null=True,
        blank=True,
        help_text=_("Empty for a bye."),
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referee"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="refereed_matches",
    )
    first_dealer = models.CharField(
        _("first dealer"), max_length=1, choices=Seat.choices, default=Seat.NORTH
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    # Closed by a director: read-only for the referee until reopened.
    is_closed = models.BooleanField(_("closed"), default=False)
    # Derived from the deals by the engine's replay; stored so that pages only read.
    ns_total = models.IntegerField(_("NS total"), default=0)
    ew_total = models.IntegerField(_("EW total"), default=0)
    pot = models.IntegerField(_("open pot"), default=0)
    deal_count = models.PositiveSmallIntegerField(_("deals"), default=0)
    winner = models.CharField(_("winner"), max_length=4, choices=Winner.choices, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # Each side's deal counts, derived from the deals' result columns by `count_deals` every
    # time the deal services replay the match, so the standings read matches, not deals.
    # Never edited by hand (editable=False keeps them out of forms and the admin), never shown.
    deals_played = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_taken = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_taken = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_made = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_made = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_dedans = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_dedans = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_litiges = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_litiges = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_capots = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_capots = models.PositiveSmallIntegerField(default=0, editable=False)
    ns_belotes = models.PositiveSmallIntegerField(default=0, editable=False)
    ew_belotes = models.PositiveSmallIntegerField(default=0, editable=False)

    DEAL_STAT_FIELDS = (
        "deals_played",
        "ns_taken",
        "ew_taken",
        "ns_made",
        "ew_made",
        "ns_dedans",
        "ew_dedans",
        "ns_litiges",
        "ew_litiges",
        "ns_capots",
        "ew_capots",
        "ns_belotes",
        "ew_belotes",
    )

    class Meta:
        ordering = ["round", "table"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_in_round"),
            models.CheckConstraint(
                condition=~models.Q(ns_team=models.F("ew_team")),
                name="match_two_different_teams",
            ),
            models.CheckConstraint(
                condition=models.Q(ew_team__isnull=True) | models.Q(table__isnull=False),
                name="match_has_a_table_unless_bye",
            ),
        ]
        indexes = [models.Index(fields=["referee", "status"])]

    def __str__(self) -> str:
        if self.ew_team_id is None:
            return _("%(team)s: bye") % {"team": self.ns_team}
        return f"{self.ns_team} – {self.ew_team}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.round_id is not None and self.tournament_id is None:
            self.tournament_id = self.round.tournament_id
        super().save(*args, **kwargs)
        self.sync_seats()

    def get_absolute_url(self) -> str:
        return reverse("tournaments:match", kwargs={"pk": self.pk})

    @property
    def is_bye(self) -> bool:
        return self.ew_team_id is None

    def teams(self) -> list[Team]:
        return [t for t in (self.ns_team, self.ew_team) if t is not None]

    @staticmethod
    def deal_stats(deals: Any) -> dict[str, int]:
        """The DEAL_STAT_FIELDS values counted from deals' result columns (stored or not).

        A thrown-in deal is not played; a contract counts for the taking side (taken, and
        made, dedans or litige by its outcome); capots and belotes for the side that has them.
        """
        counts = dict.fromkeys(Match.DEAL_STAT_FIELDS, 0)
        for deal in deals:
            if deal.outcome != "thrown_in":
                counts["deals_played"] += 1
            for side, prefix in (("NS", "ns_"), ("EW", "ew_")):
                if deal.taker_side == side:
                    counts[prefix + "taken"] += 1
                    if deal.outcome == "made":
                        counts[prefix + "made"] += 1
                    elif deal.outcome == "dedans":
                        counts[prefix + "dedans"] += 1
                    elif deal.outcome == "litige":
                        counts[prefix + "litiges"] += 1
                if deal.capot_side == side:
                    counts[prefix + "capots"] += 1
                if deal.belote_side == side:
                    counts[prefix + "belotes"] += 1
        return counts

    def count_deals(self, deals: Any) -> list[str]:
        """Set the deal counts from `deals` (the match's deals, in any order); the names changed."""
        changed = []
        for name, value in Match.deal_stats(deals).items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed.append(name)
        return changed

    def sync_seats(self) -> None:
        """Keep MatchSeat rows equal to the teams, so the database refuses a team twice in a round."""
        wanted: dict[str, int] = {Side.NS.value: self.ns_team_id}
        if self.ew_team_id is not None:
            wanted[Side.EW.value] = self.ew_team_id
        current = {seat.side: seat for seat in self.seats.all()}
        for side, seat in current.items():
            if wanted.get(side) != seat.team_id:
                seat.delete()
        for side, team_id in wanted.items():
            existing = current.get(side)
            if existing is None or existing.team_id != team_id:
                MatchSeat.objects.create(
                    match=self, round_id=self.round_id, team_id=team_id, side=side
                )


class MatchSeat(models.Model):
    """A team's place in a round; exists so a unique constraint can forbid two matches a round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seats")
    side = models.CharField(_("side"), max_length=2, choices=Side.choices)

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_team_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.side} ({self.match_id})"


class Deal(models.Model):
    """One deal as the referee entered it (rules.md §8) and the engine's result for it."""

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


class Submission(models.Model):
    """A one-time submission key: a form or an Idempotency-Key that has been used once."""

    key = models.CharField(_("key"), max_length=100, unique=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    action = models.CharField(_("action"), max_length=10)
    deal_number = models.PositiveSmallIntegerField(_("deal number"), null=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")

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
    """Audit of what a director did to a match or team: close, reopen, withdraw."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, related_name="events")
    action = models.CharField(_("action"), max_length=20)
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


class Standing(models.Model):
    """A team's line in the standings after one round; derived, rebuilt by a recompute."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    round_number = models.PositiveSmallIntegerField(_("after round"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveSmallIntegerField(_("rank"))
    shared_rank = models.BooleanField(_("shared rank"), default=False)
    played = models.PositiveSmallIntegerField(_("played"), default=0)
    won = models.PositiveSmallIntegerField(_("won"), default=0)
    drawn = models.PositiveSmallIntegerField(_("drawn"), default=0)
    lost = models.PositiveSmallIntegerField(_("lost"), default=0)
    match_points = models.IntegerField(_("match points"), default=0)
    points_for = models.IntegerField(_("points for"), default=0)
    points_against = models.IntegerField(_("points against"), default=0)
    point_difference = models.IntegerField(_("point difference"), default=0)
    sonneborn_berger = models.IntegerField(_("Sonneborn–Berger"), default=0)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    contracts_taken = models.PositiveIntegerField(_("contracts taken"), default=0)
    contracts_made = models.PositiveIntegerField(_("contracts made"), default=0)
    contracts_dedans = models.PositiveIntegerField(_("contracts dedans"), default=0)
    capots = models.PositiveIntegerField(_("capots"), default=0)
    belotes = models.PositiveIntegerField(_("belotes"), default=0)
    litiges = models.PositiveIntegerField(_("litiges"), default=0)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        ordering = ["tournament", "round_number", "rank", "team__seed"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "team"], name="standing_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank_label} {self.team}"

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)
