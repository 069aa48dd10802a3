"""A tournament of a club, its teams and its rounds."""

from __future__ import annotations

import datetime
import secrets
from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club.models import Club, Player
from scoring.engine import Draws

from ..standings.criteria import DEFAULT_TIE_BREAKS
from .entry import Entry

# A bye's default points a deal when matches are played to `max_deals` alone (docs/formats.md).
BYE_POINTS_PER_DEAL = 80
DRAW_SEED_LIMIT = 1 << 63
# The house rule a knockout match plays under whatever the tournament's (docs/rules.md §7):
# equal totals at its end are followed by more deals until one team leads.
KNOCKOUT_RULES = {"draws": Draws.PLAY_ON.value}
# How long the results of a finished tournament stay provisional (docs/director.md).
DEFAULT_CORRECTION_MINUTES = 30


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


def new_door_key() -> str:
    """The door's code: in the QR code of the poster and of the director's big screen."""
    return secrets.token_urlsafe(12)


def new_draw_seed() -> int:
    """A random seed for a new tournament's draws, below 2**63 (a signed 64-bit column)."""
    return secrets.randbelow(DRAW_SEED_LIMIT)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        OPEN = "open", _("open for registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("double round robin")
        SWISS = "swiss", _("Swiss")
        CONCOURS = "concours", _("concours")
        INDIVIDUAL = "individual", _("individual (mêlée)")

    class Draw(models.TextChoices):
        """How a concours pairs its teams after the first party."""

        RANDOM = "random", _("at random")
        RANKING = "ranking", _("by ranking")

    class Results(models.TextChoices):
        """Whether a deal may still change: provisional until `final_at`, then final."""

        PROVISIONAL = "provisional", _("provisional")
        FINAL = "final", _("final")

    class RegistrationMode(models.TextChoices):
        """Whether anyone may register online from the tournament's page (a public one)."""

        CLOSED = "closed", _("closed")
        OPEN = "open", _("open")

    class CheckIn(models.TextChoices):
        OFF = "off", _("off")
        ON = "on", _("on")

    class FeePer(models.TextChoices):
        TEAM = "team", _("per team")
        PLAYER = "player", _("per player")

    # The formats drawn one round at a time (docs/formats.md); the others are generated at once.
    ROUND_BY_ROUND = frozenset({Format.SWISS, Format.CONCOURS, Format.INDIVIDUAL})

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80)
    starts_on = models.DateField(_("date"))
    format = models.CharField(
        _("format"), max_length=24, choices=Format.choices, default=Format.ROUND_ROBIN
    )
    # Swiss, concours and individual: the rounds (a concours's parties) to draw, what a bye
    # (an individual sit-out) scores
    # (empty: the default of `bye_points_in_use`), and how a concours pairs.
    # (`rounds` is the Round rows; the API names this number `rounds`.)
    round_count = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    bye_points = models.PositiveIntegerField(_("points for a bye"), null=True, blank=True)
    draw = models.CharField(_("draw"), max_length=8, choices=Draw.choices, blank=True, default="")
    # Stored once at creation: the same seed and the same results draw the same round.
    draw_seed = models.BigIntegerField(_("draw seed"), default=new_draw_seed)
    # The house rules of docs/rules.md §8, as JSON; always checked by the engine's parse_rules.
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    tie_breaks = models.JSONField(_("tie-break order"), default=default_tie_breaks)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    # After the finish the results stay provisional this long (the tables' referees may
    # still correct); then they are final until a director reopens them.
    correction_minutes = models.PositiveSmallIntegerField(
        _("correction window (minutes)"), default=DEFAULT_CORRECTION_MINUTES
    )
    # When the tournament was last set to finished (None while it is not).
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, editable=False)
    # What the big screen in the club room speaks, whoever's browser shows it; empty: the
    # visitor's own language (the settings service checks it is one of settings.LANGUAGES).
    language = models.CharField(_("language of the big screen"), max_length=8, blank=True)
    # The evening before its first deal (docs/director.md): online registration with a
    # capacity (teams, or players in an individual tournament; empty: no limit), check-in
    # (with it on, draws take only entries present) and the entry fee.
    registration = models.CharField(
        _("online registration"),
        max_length=8,
        choices=RegistrationMode.choices,
        default=RegistrationMode.CLOSED,
    )
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(
        _("registration closes at"), null=True, blank=True
    )
    check_in = models.CharField(
        _("check-in"), max_length=4, choices=CheckIn.choices, default=CheckIn.OFF
    )
    self_check_in = models.BooleanField(_("self check-in"), default=True)
    # Self check-in asks for it (proof of being at the door): only the directors' poster and
    # big screen carry it; each tournament (an evening) has its own, renewed on demand.
    door_key = models.CharField(_("door code"), max_length=32, default=new_door_key, editable=False)
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    entry_fee_per = models.CharField(
        _("entry fee per"), max_length=8, choices=FeePer.choices, default=FeePer.TEAM
    )
    # The concours' prize table (docs/prizes.md): JSON read and checked by the prizes app
    # (its check is registered with the settings checks); null: no prizes.
    prizes = models.JSONField(_("prizes"), null=True, blank=True, default=None)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The series the tournament is an evening of are `tournament.series`, declared by the
    # series (seasons/ builds on tournaments/, never the reverse).
    # Bumped by every change of a deal, match or team; the standings record which change
    # they were computed from, so a recompute can tell it has nothing to do.
    change_seq = models.PositiveBigIntegerField(_("change number"), default=0)
    standings_seq = models.PositiveBigIntegerField(_("standings computed from change"), default=0)
    standings_computed_at = models.DateTimeField(_("standings computed at"), null=True, blank=True)
    # A digest per round of what the stored standings after it were computed from
    # (standings.digests): a recompute skips the rounds whose digest holds.
    standings_digests = models.JSONField(default=list, blank=True, editable=False)

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

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The finish starts the correction window, whoever sets the status (a service, the
        # admin); leaving `finished` ends it, so the next finish opens a new one.
        if self.is_finished and self.finished_at is None:
            self.finished_at = timezone.now()
        elif not self.is_finished:
            self.finished_at = None
        fields = kwargs.get("update_fields")
        if fields is not None and "status" in fields:
            kwargs["update_fields"] = {*fields, "finished_at"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:detail", kwargs={"club_slug": self.club.slug, "slug": self.slug}
        )

    @property
    def standings_current(self) -> bool:
        """Computed at least once, and from the latest change (`standings_behind` as a filter)."""
        return self.standings_computed_at is not None and self.standings_seq >= self.change_seq

    @staticmethod
    def with_rounds_drawn(queryset: models.QuerySet[Tournament]) -> models.QuerySet[Tournament]:
        """`rounds_drawn` counted in the query, for `draw_seed_published` over a list."""
        return queryset.annotate(
            rounds_drawn=models.Count(
                "rounds", filter=models.Q(rounds__stage=Round.Stage.QUALIFYING)
            )
        )

    @staticmethod
    def standings_behind() -> models.Q:
        return models.Q(standings_seq__lt=models.F("change_seq")) | models.Q(
            standings_computed_at__isnull=True
        )

    @property
    def house_rules(self) -> Any:
        """The engine's `Rules` for this tournament."""
        from scoring.engine import parse_rules

        return parse_rules(self.rules)

    def match_rules(self, round: Round) -> dict[str, Any]:
        """The house rules of a match of `round`: the tournament's, and a knockout round's
        `draws: play_on`, so its matches cannot end level (docs/formats.md)."""
        rules = dict(self.rules or {})
        if round.is_knockout:
            rules.update(KNOCKOUT_RULES)
        return rules

    @property
    def format_in_words(self) -> str:
        """The format as the tournament page says it: "Swiss, 5 rounds", "Concours, 4 parties, drawn at random"."""
        n = self.round_count or 0
        if self.format == Tournament.Format.SWISS:
            return ngettext("Swiss, %(n)d round", "Swiss, %(n)d rounds", n) % {"n": n}
        if self.format == Tournament.Format.CONCOURS:
            if self.draw == Tournament.Draw.RANKING:
                text = ngettext(
                    "Concours, %(n)d party, drawn by ranking",
                    "Concours, %(n)d parties, drawn by ranking",
                    n,
                )
            else:
                text = ngettext(
                    "Concours, %(n)d party, drawn at random",
                    "Concours, %(n)d parties, drawn at random",
                    n,
                )
            return text % {"n": n}
        if self.format == Tournament.Format.INDIVIDUAL:
            return ngettext("Individual, %(n)d round", "Individual, %(n)d rounds", n) % {"n": n}
        return capfirst(self.get_format_display())

    @property
    def has_final(self) -> bool:
        """Whether a knockout final has been started (no query when `bracket` was joined)."""
        try:
            return self.bracket is not None
        except ObjectDoesNotExist:
            return False

    @property
    def is_round_by_round(self) -> bool:
        """Swiss, concours and individual: each round is drawn when the one before it is over."""
        return self.format in Tournament.ROUND_BY_ROUND

    @property
    def is_individual(self) -> bool:
        """A mêlée: players register alone (`Entrant`), partners are drawn every round."""
        return self.format == Tournament.Format.INDIVIDUAL

    @property
    def entry_model(self) -> type[Entry]:
        """What an entry of this tournament is: a mêlée's player (`Entrant`), else a `Team`."""
        # Through the reverse relation: the entrant's module is above this one.
        return self.entrants.model if self.is_individual else Team

    @property
    def entry_heading(self) -> str:
        """The column heading of its entries: "Team", or "Player" in a mêlée."""
        return str(self.entry_model.heading)

    @property
    def bye_points_in_use(self) -> int | None:
        """What a bye scores in a round-by-round format; None where a bye counts nothing.

        Empty `bye_points` means the default of docs/formats.md: half the target rounded
        down, or 80 a deal when matches are played to `max_deals` alone.
        """
        if not self.is_round_by_round:
            return None
        if self.bye_points is not None:
            return self.bye_points
        from scoring.engine import InvalidDeal, parse_rules

        try:
            rules = parse_rules(self.rules or None)
        except InvalidDeal:
            return 0
        if rules.target is not None:
            return rules.target // 2
        return BYE_POINTS_PER_DEAL * (rules.max_deals or 0)

    @property
    def checks_in(self) -> bool:
        """Check-in is on: draws take only the entries present."""
        return self.check_in == Tournament.CheckIn.ON

    @property
    def is_draft(self) -> bool:
        """Not published yet: listed to its club's directors only."""
        return self.status == Tournament.Status.DRAFT

    @property
    def is_running(self) -> bool:
        return self.status == Tournament.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == Tournament.Status.FINISHED

    @property
    def final_at(self) -> datetime.datetime | None:
        """When the results become final: `correction_minutes` after the finish; None while
        the tournament is not finished (its results are then provisional)."""
        if not self.is_finished:
            return None
        finished = self.finished_at or self.created_at
        return finished + datetime.timedelta(minutes=self.correction_minutes or 0)

    def results_state(self, now: datetime.datetime | None = None) -> Tournament.Results:
        """The one answer to "may a deal still change" that every path asks (services,
        pages, the API, the admin, the phone's outbox through the API's 409)."""
        final_at = self.final_at
        if final_at is not None and (now or timezone.now()) >= final_at:
            return Tournament.Results.FINAL
        return Tournament.Results.PROVISIONAL

    def results_are_final(self, now: datetime.datetime | None = None) -> bool:
        return self.results_state(now) == Tournament.Results.FINAL

    def door_address(self, page: str) -> str:
        """The self check-in `page` with the door's code: the address in the QR code of the
        directors' poster and big screen, never on a page anyone else can open."""
        return f"{page}?{urlencode({'door': self.door_key})}"

    def draw_seed_published(self) -> bool:
        """Whether everyone may see `draw_seed`: once no draw is left to make with it.

        Every round of a round-by-round format is drawn with it, so it stays the directors'
        until the last round is drawn (or the tournament is over); a round robin's schedule
        is drawn at once. Then anyone can re-run the draws and see they were fair.
        """
        if self.is_finished:
            return True
        # A list's queryset may have counted them already (`with_rounds_drawn`).
        drawn = getattr(self, "rounds_drawn", None)
        if drawn is None:
            drawn = self.rounds.filter(stage=Round.Stage.QUALIFYING).count()
        if self.is_round_by_round:
            return drawn >= (self.round_count or 0) > 0
        return drawn > 0

    def has_deals(self) -> bool:
        """Whether a deal has been entered: the house rules and the schedule are then fixed."""
        # Through the reverse relations: this module is below the deal's.
        return self.matches.filter(deals__isnull=False).exists()  # type: ignore[attr-defined]

    @property
    def match_points(self) -> tuple[int, int, int]:
        """Match points for a win, a draw and a loss."""
        return (self.points_win, self.points_draw, self.points_loss)


class Team(Entry):
    """A partnership: the first player sits North (or East), the partner opposite.

    Either a team registered for the whole tournament (`round` empty), or, in an individual
    tournament, a partnership drawn for one round only (`round` set; deleted with it). A match
    is always two Team rows, so the deal services, the replay, the audit trail and the
    table's page read a mêlée's tables as they read any other.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    round = models.ForeignKey(
        "Round",
        verbose_name=_("drawn for round"),
        on_delete=models.CASCADE,
        related_name="partnerships",
        null=True,
        blank=True,
        help_text=_("Set for a partnership of an individual tournament: it plays this round only."),
    )
    name = models.CharField(_("name"), max_length=120)
    first_player = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    second_player = models.ForeignKey(
        Player, verbose_name=_("second player"), on_delete=models.PROTECT, related_name="+"
    )

    line_field = "team"
    players_related = ("first_player", "second_player")
    name_related = ()
    player_count = 2
    name_order = ("name",)
    page_name = "tournaments:team"
    heading = _("Team")
    naming_columns = ("team", "first_player", "second_player")

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            # Registered teams have their own seeds and names; a round's partnerships are
            # numbered within their round (2t-1 sits NS at table t, 2t EW) and named after
            # their players, who may well have partnered in an earlier round.
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=models.Q(round__isnull=True),
                name="team_seed_unique",
            ),
            models.UniqueConstraint(
                fields=["tournament", "name"],
                condition=models.Q(round__isnull=True),
                name="team_name_unique",
            ),
            models.UniqueConstraint(
                fields=["round", "seed"],
                condition=models.Q(round__isnull=False),
                name="partnership_seed_unique_in_round",
            ),
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

    @property
    def naming(self) -> list[Any]:
        return [self.name, self.first_player, self.second_player]

    @classmethod
    def registered(cls, tournament: Tournament) -> models.QuerySet[Team]:
        """The teams registered for the whole tournament (not a mêlée's partnerships)."""
        return cls.objects.filter(tournament=tournament, round__isnull=True)

    @property
    def is_partnership(self) -> bool:
        """A partnership of an individual tournament, drawn for one round."""
        return self.round_id is not None


class Round(models.Model):
    """One round of the schedule: a qualifying round, or a round of the knockout final."""

    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", _("qualifying round")
        ROUND_OF_16 = "round_of_16", _("Round of 16")
        QUARTER_FINALS = "quarter_finals", _("Quarter-finals")
        SEMI_FINALS = "semi_finals", _("Semi-finals")
        FINAL = "final", _("Final")

        @classmethod
        def of_knockout(cls, teams: int) -> Round.Stage:
            """The knockout stage whose bracket matches hold `teams` teams (2 for the final)."""
            return {16: cls.ROUND_OF_16, 8: cls.QUARTER_FINALS, 4: cls.SEMI_FINALS, 2: cls.FINAL}[
                teams
            ]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    is_closed = models.BooleanField(_("closed"), default=False)
    stage = models.CharField(
        _("stage"), max_length=16, choices=Stage.choices, default=Stage.QUALIFYING
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        if self.is_knockout:
            return str(self.get_stage_display())
        return _("Round %(number)s") % {"number": self.number}

    @property
    def is_knockout(self) -> bool:
        return self.stage != Round.Stage.QUALIFYING
