"""Reads of the prize list: what it is computed from (final standings, fees due, categories)
and the stored list as the pages and the API show it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Q

from seasons.selectors import SeriesView
from tournaments.models import Match, SitOut, Team, Tournament
from tournaments.selectors import standings_after

from .awards import InvalidPrizes, Placed, read_prizes
from .awards import PrizeList as Awarded
from .awards import prize_list as award
from .models import PrizeList, SeriesPrizes


def categories_of(tournament: Tournament) -> set[str]:
    """The category tags the tournament's entries have."""
    entries: Any = tournament.entrants if tournament.is_individual else tournament.teams
    if not tournament.is_individual:
        entries = entries.filter(round__isnull=True)
    return {tag for tag in entries.values_list("category", flat=True).distinct() if tag}


def drawn_entries(tournament: Tournament) -> int:
    """The entries drawn in at least one round (a bye, a sit-out, counts)."""
    if tournament.is_individual:
        players = set(
            Team.objects.filter(tournament=tournament, round__isnull=False).values_list(
                "first_player_id", "second_player_id"
            )
        )
        seated = {player for pair in players for player in pair}
        sat_out = set(
            SitOut.objects.filter(round__tournament=tournament).values_list("entrant_id", flat=True)
        )
        return (
            tournament.entrants.filter(Q(player_id__in=seated) | Q(pk__in=sat_out))
            .distinct()
            .count()
        )
    drawn = Match.objects.filter(tournament=tournament)
    return (
        tournament.teams.filter(round__isnull=True)
        .filter(Q(pk__in=drawn.values("ns_team")) | Q(pk__in=drawn.values("ew_team")))
        .count()
    )


def fees_due(tournament: Tournament) -> Decimal:
    """The entry fee of every entry drawn, whatever was paid or waived (docs/prizes.md)."""
    fee = tournament.entry_fee or Decimal(0)
    per_team_of_two = (
        not tournament.is_individual and tournament.entry_fee_per == Tournament.FeePer.PLAYER
    )
    return fee * drawn_entries(tournament) * (2 if per_team_of_two else 1)


def last_round_finished(tournament: Tournament) -> bool:
    """The final standings stand: the tournament is finished, or every round is drawn and
    every match of it finished (or closed by the director)."""
    if tournament.is_finished:
        return True
    if not tournament.draw_seed_published():
        return False
    # As a round is over (services.draws): a bye, or a match the director closed, waits for nothing.
    matches = Match.objects.filter(
        tournament=tournament, round__stage="qualifying", ew_team__isnull=False
    )
    playing = matches.filter(is_closed=False).exclude(status=Match.Status.FINISHED)
    return matches.exists() and not playing.exists()


def final_entries(tournament: Tournament) -> list[Placed]:
    """The final standings in rank order, tied entries sharing a rank (the latest round's
    stored table, never the live one)."""
    view = standings_after(tournament, None, live=False)
    entries = []
    for line in view.lines():
        ranked = line.ranked
        entries.append(Placed(ranked.pk, ranked.name, line.rank, ranked.category))
    return entries


def digest_of(prizes: Any, entries: list[Placed], fees: Decimal) -> str:
    """What a prize list is computed from, as one digest (an unchanged one stores nothing)."""
    inputs = [prizes, str(fees), [[e.key, e.name, e.rank, e.category] for e in entries]]
    text = json.dumps(inputs, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PrizesShown:
    """The prize list as the pages and the API show it."""

    tournament: Tournament
    stored: PrizeList

    @property
    def currency(self) -> str:
        return str(settings.BELOTE_CURRENCY)

    @property
    def results(self) -> str:
        return self.tournament.results_state().value

    @property
    def provisional(self) -> bool:
        return self.results == Tournament.Results.PROVISIONAL

    @property
    def lines(self) -> list[dict[str, Any]]:
        return list(self.stored.lines)

    @property
    def cash_lines(self) -> list[dict[str, Any]]:
        """The lines handed over in cash (the printed sheet's signatures)."""
        return [line for line in self.stored.lines if line["amount"] is not None]


def prizes_shown(tournament: Tournament) -> PrizesShown | None:
    """The stored prize list of a tournament with prizes whose last round is finished."""
    if tournament.prizes is None:
        return None
    stored = PrizeList.objects.filter(tournament=tournament).first()
    return None if stored is None else PrizesShown(tournament, stored)


# --- a series' prizes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeriesPrizesShown:
    """A series' prize list, worked out from its table as it stands (provisional until the
    last evening's results are final)."""

    view: SeriesView
    awarded: Awarded

    @property
    def currency(self) -> str:
        return str(settings.BELOTE_CURRENCY)

    @property
    def provisional(self) -> bool:
        return self.view.provisional

    @property
    def lines(self) -> list[dict[str, Any]]:
        return [
            {
                "place": a.place,
                "shared_place": a.shared_place,
                "entry": {"id": a.key, "name": a.name},
                "amount": None if a.amount is None else str(a.amount),
                "kind": a.kind,
                "shared": a.shared,
                "line": a.line,
                "category": a.category,
            }
            for a in self.awarded.awards
        ]


def series_ranked_count(series: Any) -> int:
    """The players ranked in the series table (the "every player" preset covers them)."""
    return int(series.lines.filter(rank__isnull=False).count())


def series_prize_table(series: Any) -> SeriesPrizes | None:
    return SeriesPrizes.objects.filter(series=series).first()


def series_prizes_shown(view: SeriesView) -> SeriesPrizesShown | None:
    """The prize list of the series of `view` over its ranked players; None without a table.

    A series has no fees of its own: its pool is the money added (docs/prizes.md)."""
    table = series_prize_table(view.series)
    if table is None:
        return None
    try:
        prizes = read_prizes(table.prizes)
    except InvalidPrizes:
        return None
    if prizes is None:
        return None
    entries = [
        Placed(row.player.pk, row.player.full_name, row.line.rank)
        for row in view.rows
        if row.line.rank is not None
    ]
    return SeriesPrizesShown(view, award(prizes, entries, Decimal(0)))
