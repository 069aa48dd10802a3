"""A match between two teams at one table, and its manager that makes matches with their seats
(the seats themselves: `match_seats`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player
from scoring.engine import DRAW as ENGINE_DRAW
from scoring.engine import MatchReplay
from scoring.engine import Team as EngineTeam

from .choices import Outcome, Seat, Side, seat_of
from .match_seats import MatchSeat
from .tournament import Round, Team, Tournament


class MatchManager(models.Manager["Match"]):
    def create_seated(
        self,
        matches: list[Match],
        batch_size: int | None = None,
        *,
        line_ups: dict[int, dict[int, tuple[int, int]]] | None = None,
    ) -> list[Match]:
        """Insert new matches with their MatchSeat rows, in a few statements: the one way
        matches are made in bulk (`bulk_create` skips `Match.save`, which keeps the seats of
        a single match, and so the database's "once a round" for each team). `line_ups`:
        per round number, who sits for a team with a substitute (team id: player ids)."""
        made = self.bulk_create(matches, batch_size=batch_size)
        line_ups = line_ups or {}
        MatchSeat.objects.bulk_create(
            [seat for match in made for seat in match.seat_rows(line_ups.get(match.round.number))],
            batch_size=batch_size,
        )
        return made


class Match(models.Model):
    """Two teams at one table in one round; a bye when there is no EW team."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("not started")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class Winner(models.TextChoices):
        NS = "NS", _("North–South")
        EW = "EW", _("East–West")
        DRAW = ENGINE_DRAW, _("draw")

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
    # Each side's deal counts, derived from the deals' result columns by `apply_replay` every
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

    # A side's counts, each stored twice (ns_<name>, ew_<name>) beside `deals_played`.
    SIDE_STAT_FIELDS = ("taken", "made", "dedans", "capots", "belotes", "litiges")
    DEAL_STAT_FIELDS = (
        "deals_played",
        *(f"{side}_{name}" for name in SIDE_STAT_FIELDS for side in ("ns", "ew")),
    )
    # Every column a replay of the deals writes (`apply_replay`).
    REPLAY_FIELDS = (
        "ns_total",
        "ew_total",
        "pot",
        "deal_count",
        "winner",
        "status",
        "finished_at",
        *DEAL_STAT_FIELDS,
    )

    objects = MatchManager()

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
        # The two sides apart: a mêlée's partnership is itself named "Dupont – Martin".
        return _("%(ns)s vs %(ew)s") % {"ns": self.ns_team, "ew": self.ew_team}

    # The fields a MatchSeat row follows (by name or by column, as `update_fields` may say).
    SEAT_FIELDS = frozenset({"round", "round_id", "ns_team", "ns_team_id", "ew_team", "ew_team_id"})

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.round_id is not None and self.tournament_id is None:
            self.tournament_id = self.round.tournament_id
        super().save(*args, **kwargs)
        update_fields = kwargs.get("update_fields")
        # A save of its scores alone (the deal services') leaves the seats as they are.
        if update_fields is None or self.SEAT_FIELDS & set(update_fields):
            self.sync_seats()

    def get_absolute_url(self) -> str:
        return reverse("tournaments:match", kwargs={"pk": self.pk})

    @property
    def is_bye(self) -> bool:
        return self.ew_team_id is None

    @property
    def winning_team(self) -> Team | None:
        """The team of the winning side; None for a draw or a match not won yet."""
        if self.winner == Match.Winner.NS:
            return self.ns_team
        if self.winner == Match.Winner.EW:
            return self.ew_team
        return None

    @property
    def rules(self) -> dict[str, Any]:
        """The house rules this match is played and replayed under (`Tournament.match_rules`)."""
        return self.tournament.match_rules(self.round)

    @property
    def is_third_place(self) -> bool:
        """The final's round also holds the third-place match, at the table after the final."""
        return self.round.stage == Round.Stage.FINAL and (self.table or 0) > 1

    def teams(self) -> list[Team]:
        return [t for t in (self.ns_team, self.ew_team) if t is not None]

    def seated_players(self) -> list[tuple[Seat, Player]]:
        """The players at the table in the order of play, North, East, South, West (a bye:
        its team's two): each side's first player sits North (or East), the partner opposite.

        Who actually sat (`line_up`): a substitute in place of a team's registered player.
        Prefetch `SEATS_PREFETCH` and join the teams' players to read it without a query."""
        seated = {}
        for side in (Side.NS, Side.EW) if self.ew_team is not None else (Side.NS,):
            first, partner = self.line_up(side)
            seated[seat_of(side, first=True)] = first
            seated[seat_of(side, first=False)] = partner
        return [(seat, seated[seat]) for seat in Seat if seat in seated]

    def line_up(self, side: str) -> tuple[Player, Player]:
        """The two players who sat for `side`: the seat's (a substitute), else the team's."""
        team = self.ns_team if side == Side.NS else self.ew_team
        assert team is not None
        seat = next((s for s in self.seats.all() if s.side == side), None)
        named = (seat.first_player_id, seat.second_player_id) if seat else (None, None)
        team_ids = (team.first_player_id, team.second_player_id)
        if MatchSeat.who_sat(named, team_ids) == team_ids:
            return team.first_player, team.second_player
        assert seat is not None
        first = team.first_player if seat.first_player_id == team.first_player_id else None
        second = team.second_player if seat.second_player_id == team.second_player_id else None
        return (first or seat.first_player or team.first_player), (
            second or seat.second_player or team.second_player
        )

    def side_of(self, team: Team) -> str:
        """The side `team` sits at this match."""
        return Side.NS if self.ns_team_id == team.pk else Side.EW

    @property
    def ns_line_up(self) -> tuple[Player, Player]:
        return self.line_up(Side.NS)

    @property
    def ew_line_up(self) -> tuple[Player, Player] | None:
        return None if self.ew_team is None else self.line_up(Side.EW)

    def has_substitute(self, side: str) -> bool:
        """Whether someone other than the team's registered players sat for `side`."""
        team = self.ns_team if side == Side.NS else self.ew_team
        if team is None:
            return False
        players = {p.pk for p in self.line_up(side)}
        return players != {team.first_player_id, team.second_player_id}

    @staticmethod
    def deal_stats(deals: Iterable[Any]) -> dict[str, int]:
        """The DEAL_STAT_FIELDS values counted from deals' result columns (stored or not).

        A thrown-in deal is not played; a contract counts for the taking side (taken, and
        made, dedans or litige by its outcome); capots and belotes for the side that has them.
        """
        counts = dict.fromkeys(Match.DEAL_STAT_FIELDS, 0)
        by_outcome = {Outcome.MADE: "made", Outcome.DEDANS: "dedans", Outcome.LITIGE: "litiges"}
        for deal in deals:
            if deal.outcome != Outcome.THROWN_IN:
                counts["deals_played"] += 1
            for side, prefix in ((Side.NS, "ns_"), (Side.EW, "ew_")):
                if deal.taker_side == side:
                    counts[prefix + "taken"] += 1
                    if deal.outcome in by_outcome:
                        counts[prefix + by_outcome[deal.outcome]] += 1
                if deal.capot_side == side:
                    counts[prefix + "capots"] += 1
                if deal.belote_side == side:
                    counts[prefix + "belotes"] += 1
        return counts

    def apply_replay(self, replay: MatchReplay, deals: Iterable[Any]) -> None:
        """Set every REPLAY_FIELDS column from the engine's replay of `deals` (in any order).

        The one place a match's totals, pot, state, winner and deal counts are written: the
        deal services, a re-scoring and the benchmark builders all come through here.
        """
        winner = replay.winner
        self.ns_total = replay.totals[EngineTeam.NS]
        self.ew_total = replay.totals[EngineTeam.EW]
        self.pot = replay.pot
        self.deal_count = len(replay.deals)
        self.winner = winner.value if isinstance(winner, EngineTeam) else (winner or "")
        if replay.over:
            self.status = Match.Status.FINISHED
            self.finished_at = self.finished_at or timezone.now()
        else:
            self.status = Match.Status.PLAYING if replay.deals else Match.Status.SCHEDULED
            self.finished_at = None
        for name, value in Match.deal_stats(deals).items():
            setattr(self, name, value)

    # --- the teams' answers to the finished sheet (MatchConfirmation rows; prefetch them) ---

    def _answers(self, agree: bool) -> list[str]:
        answered = {c.side for c in self.confirmations.all() if c.agree == agree}  # type: ignore[attr-defined]
        return [side.value for side in Side if side.value in answered]

    @property
    def confirmed_by(self) -> list[str]:
        """The teams (NS, EW) that confirmed the sheet as it stands."""
        return self._answers(True)

    @property
    def disputed_by(self) -> list[str]:
        """The teams that dispute the sheet: the director settles it."""
        return self._answers(False)

    @property
    def is_confirmed(self) -> bool:
        """Both teams confirmed the sheet."""
        return len(self.confirmed_by) == len(Side)

    def seat_rows(self, line_ups: dict[int, tuple[int, int]] | None = None) -> list[MatchSeat]:
        """The MatchSeat rows this match's teams need (not saved): each with the players who
        sit, the team's own unless `line_ups` (team id: player ids) says otherwise."""
        rows = []
        for side, team in ((Side.NS, self.ns_team), (Side.EW, self.ew_team)):
            if team is None:
                continue
            first, second = (line_ups or {}).get(
                team.pk, (team.first_player_id, team.second_player_id)
            )
            rows.append(
                MatchSeat(
                    match=self,
                    round_id=self.round_id,
                    team_id=team.pk,
                    side=side,
                    first_player_id=first,
                    second_player_id=second,
                )
            )
        return rows

    def sync_seats(self) -> None:
        """Keep MatchSeat rows equal to the teams, so the database refuses a team twice in a round.

        A team that stays at the table (on either side) keeps who sits for it."""
        current = {seat.side: seat for seat in MatchSeat.objects.filter(match=self)}
        sitting = {
            seat.team_id: (seat.first_player_id, seat.second_player_id)
            for seat in current.values()
            if seat.first_player_id is not None and seat.second_player_id is not None
        }
        wanted = {seat.side: seat for seat in self.seat_rows(sitting)}
        for side, seat in current.items():
            if side not in wanted or wanted[side].team_id != seat.team_id:
                seat.delete()
        for side, seat in wanted.items():
            existing = current.get(side)
            if existing is None or existing.team_id != seat.team_id:
                seat.save()
        if hasattr(self, "_prefetched_objects_cache"):
            self._prefetched_objects_cache.pop("seats", None)
