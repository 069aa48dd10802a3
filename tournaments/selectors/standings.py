"""Reads of the stored standings: after a round, live, and each team's rank round by round."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from ..models import Standing, Tournament
from ..standings.names import LIVE_ROUND

# --- standings -----------------------------------------------------------------------------


def standings_version(tournament: Tournament) -> str:
    """What the stored standings were computed from: the change number and when.

    The time is part of it because the first computation can keep change number 0.
    """
    at = tournament.standings_computed_at
    return f"{tournament.standings_seq}-{int(at.timestamp() * 1000) if at else 0}"


def _stored_rounds(tournament: Tournament) -> list[int]:
    """The round keys with stored lines, the live table's (LIVE_ROUND) first if there is one."""
    return list(
        Standing.objects.filter(tournament=tournament)
        .values_list("round_number", flat=True)
        .distinct()
        .order_by("round_number")
    )


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The stored standings shown: the live table or the table after one round, and the
    rounds there are to switch to.

    `after` is the stored round key shown: a round number, LIVE_ROUND for the live table,
    None when nothing is stored yet; `pinned` when the visitor asked for that round.
    """

    tournament: Tournament
    after: int | None
    latest: int | None
    rounds: list[int]
    version: str
    has_live: bool = False
    pinned: bool = False

    @property
    def live(self) -> bool:
        """The live table is shown: matches in play are counted on their current totals."""
        return self.after == LIVE_ROUND

    def lines(self, *, players: bool = False) -> QuerySet[Standing]:
        """The lines in rank order; `players`: with each team's two players (the CSV
        export), which the tables do not show (two more objects a line to build)."""
        if self.after is None:
            return Standing.objects.none()
        lines = Standing.objects.filter(tournament=self.tournament, round_number=self.after)
        if self.tournament.is_individual:
            return lines.select_related("entrant__player").order_by("rank", "entrant__seed", "pk")
        related = ("team__first_player", "team__second_player") if players else ("team",)
        return lines.select_related(*related).order_by("rank", "team__seed", "pk")


def standings_after(
    tournament: Tournament, after: int | str | None, *, live: bool = True
) -> StandingsView:
    """The standings after round `after` if stored; else the live table while a match is in
    play (unless `live` is off); else the latest after-round table."""
    stored = _stored_rounds(tournament)
    rounds = [number for number in stored if number != LIVE_ROUND]
    has_live = LIVE_ROUND in stored
    latest = rounds[-1] if rounds else None
    wanted = int(after) if isinstance(after, int) or (after and after.isdigit()) else None
    pinned = wanted is not None and wanted in rounds
    if pinned:
        shown = wanted
    elif live and has_live:
        shown = LIVE_ROUND
    else:
        shown = latest
    return StandingsView(
        tournament=tournament,
        after=shown,
        latest=latest,
        rounds=rounds,
        version=standings_version(tournament),
        has_live=has_live,
        pinned=pinned,
    )


def rank_history(tournament: Tournament) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each team's (a mêlée's: player's) rank after every round, for the chart (two queries
    whatever the size)."""
    whose = "team_id"
    if tournament.is_individual:
        whose = "entrant_id"
        names = {e.pk: e.name for e in tournament.entrants.select_related("player")}
    else:
        names = dict(tournament.teams.values_list("pk", "name"))
    history: dict[int, list[tuple[float, float]]] = {}
    for team_id, number, rank in (
        Standing.objects.filter(tournament=tournament)
        .exclude(round_number=LIVE_ROUND)
        .order_by("round_number")
        .values_list(whose, "round_number", "rank")
    ):
        history.setdefault(team_id, []).append((float(number), float(rank)))
    # Ordered by the latest rank, so the chart colours and the legend follow the standings.
    ordered = sorted(history.items(), key=lambda item: (item[1][-1][1], names.get(item[0], "")))
    return [(names.get(team_id, "?"), data) for team_id, data in ordered]
