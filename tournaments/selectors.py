"""Reads shared by the pages, the API and the template tags (services push, selectors pull).

Each returns plain rows or model instances in a fixed number of queries, whatever the size
of the tournament; a template tag runs none of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from club.models import Player

from .models import Match, Round, Side, Standing, Team, Tournament
from .standings.criteria import CRITERIA

# --- a tournament --------------------------------------------------------------------------


def rounds_with_progress(tournament: Tournament) -> QuerySet[Round]:
    """The rounds, each with `match_count` and `finished_count` (byes not counted)."""
    return tournament.rounds.annotate(
        match_count=Count("matches", filter=Q(matches__ew_team__isnull=False)),
        finished_count=Count(
            "matches",
            filter=Q(matches__ew_team__isnull=False, matches__status=Match.Status.FINISHED),
        ),
    )


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    return tournament.teams.select_related("first_player", "second_player").order_by("seed")


def tie_break_labels(tournament: Tournament) -> list[Any]:
    """The tournament's tie-break order in words (a name no longer known reads as itself)."""
    return [CRITERIA[n].label if n in CRITERIA else n for n in tournament.tie_breaks or []]


def open_round_numbers(tournament: Tournament) -> set[int]:
    """The rounds with a match (not a bye) still to finish."""
    return set(
        tournament.matches.filter(ew_team__isnull=False)
        .exclude(status=Match.Status.FINISHED)
        .values_list("round__number", flat=True)
        .distinct()
    )


def current_round_number(rounds: list[Round], open_numbers: set[int]) -> int | None:
    """The first round with a match still to finish, else the last round."""
    for round_ in rounds:
        if round_.number in open_numbers:
            return round_.number
    return rounds[-1].number if rounds else None


def matches_of_rounds(tournament: Tournament, numbers: Iterable[int]) -> QuerySet[Match]:
    """The matches of those rounds, teams joined, in schedule order."""
    return (
        tournament.matches.filter(round__number__in=list(numbers))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number", "table")
    )


def tables(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    """Every table of the tournament, round by round, with its referee and the teams' answers
    to its sheet (three queries)."""
    rounds = list(tournament.rounds.all())
    by_round: dict[int, list[Match]] = {}
    for match in (
        tournament.matches.select_related("round", "ns_team", "ew_team", "referee__player")
        .prefetch_related("confirmations")
        .order_by("round__number", "table")
    ):
        by_round.setdefault(match.round_id, []).append(match)
    return [(r, by_round.get(r.pk, [])) for r in rounds]


def disputes(rounds: list[tuple[Round, list[Match]]]) -> list[Match]:
    """The matches of `tables(...)` whose sheet a team disputes: the director's first concern."""
    return [match for _round, matches in rounds for match in matches if match.disputed_by]


# --- standings -----------------------------------------------------------------------------


def standings_version(tournament: Tournament) -> str:
    """What the stored standings were computed from: the change number and when.

    The time is part of it because the first computation can keep change number 0.
    """
    at = tournament.standings_computed_at
    return f"{tournament.standings_seq}-{int(at.timestamp() * 1000) if at else 0}"


def computed_rounds(tournament: Tournament) -> list[int]:
    """The rounds after which standings are stored, in order."""
    return list(
        Standing.objects.filter(tournament=tournament)
        .values_list("round_number", flat=True)
        .distinct()
        .order_by("round_number")
    )


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The stored standings after one round, and the rounds there are to switch to."""

    tournament: Tournament
    after: int | None
    latest: int | None
    rounds: list[int]
    version: str

    def lines(self) -> QuerySet[Standing]:
        if self.after is None:
            return Standing.objects.none()
        return (
            Standing.objects.filter(tournament=self.tournament, round_number=self.after)
            .select_related("team__first_player", "team__second_player")
            .order_by("rank", "team__seed", "pk")
        )


def standings_after(tournament: Tournament, after: int | str | None) -> StandingsView:
    """The standings after round `after` if stored, else the latest."""
    rounds = computed_rounds(tournament)
    latest = rounds[-1] if rounds else None
    wanted = int(after) if isinstance(after, int) or (after and after.isdigit()) else None
    return StandingsView(
        tournament=tournament,
        after=wanted if wanted in rounds else latest,
        latest=latest,
        rounds=rounds,
        version=standings_version(tournament),
    )


def rank_history(tournament: Tournament) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each team's rank after every round, for the chart (two queries whatever the size)."""
    names = dict(tournament.teams.values_list("pk", "name"))
    history: dict[int, list[tuple[float, float]]] = {}
    for team_id, number, rank in (
        Standing.objects.filter(tournament=tournament)
        .order_by("round_number")
        .values_list("team_id", "round_number", "rank")
    ):
        history.setdefault(team_id, []).append((float(number), float(rank)))
    # Ordered by the latest rank, so the chart colours and the legend follow the standings.
    ordered = sorted(history.items(), key=lambda item: (item[1][-1][1], names.get(item[0], "")))
    return [(names.get(team_id, "?"), data) for team_id, data in ordered]


# --- a team, a player ------------------------------------------------------------------------


def team_match_row(team: Team, match: Match) -> dict[str, Any]:
    """A match seen from one team: its side, the opponent, its score first, its result."""
    ours_ns = match.ns_team_id == team.pk
    result = ""
    if match.status == Match.Status.FINISHED and match.winner:
        if match.winner == Match.Winner.DRAW:
            result = "draw"
        else:
            result = "won" if (match.winner == Match.Winner.NS) == ours_ns else "lost"
    return {
        "match": match,
        "side": Side.NS if ours_ns else Side.EW,
        "opponent": match.ew_team if ours_ns else match.ns_team,
        "ours": match.ns_total if ours_ns else match.ew_total,
        "theirs": match.ew_total if ours_ns else match.ns_total,
        "result": result,
    }


def next_row(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((row for row in rows if row["match"].status != Match.Status.FINISHED), None)


def team_rows(tournament: Tournament, team: Team) -> list[dict[str, Any]]:
    matches = (
        tournament.matches.filter(Q(ns_team=team) | Q(ew_team=team))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number")
    )
    return [team_match_row(team, match) for match in matches]


def latest_line(tournament: Tournament, team: Team) -> Standing | None:
    return (
        Standing.objects.filter(tournament=tournament, team=team).order_by("-round_number").first()
    )


def player_teams(player: Player) -> list[dict[str, Any]]:
    """The player's teams in public tournaments, newest first, each with its matches (two queries)."""
    teams = list(
        Team.objects.filter(Q(first_player=player) | Q(second_player=player))
        .filter(tournament__is_public=True)
        .select_related("tournament__club", "first_player", "second_player")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    matches: dict[int, list[Match]] = {team.pk: [] for team in teams}
    for match in (
        Match.objects.filter(Q(ns_team__in=teams) | Q(ew_team__in=teams))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number")
    ):
        for team_id in (match.ns_team_id, match.ew_team_id):
            if team_id in matches:
                matches[team_id].append(match)
    result = []
    for team in teams:
        rows = [team_match_row(team, m) for m in matches[team.pk]]
        running = team.tournament.status == Tournament.Status.RUNNING
        upcoming = next_row(rows) if running and not team.withdrawn else None
        result.append({"team": team, "rows": rows, "next": upcoming})
    return result


# --- a match sheet ---------------------------------------------------------------------------


def sheet_rows(deals: Iterable[Any]) -> list[dict[str, Any]]:
    """Each deal as the sheet shows it, with the running totals and the pot after it.

    The totals add up the stored scores of each deal; the pot adds what each deal put in and
    takes out what it awarded, both stored from the engine's result.
    """
    rows = []
    ns = ew = pot = 0
    for deal in deals:
        entry = deal.entry or {}
        result = deal.result or {}
        ns += deal.ns_score
        ew += deal.ew_score
        awarded = result.get("pot_awarded") or {}
        pot += deal.pot_in - sum(v for v in awarded.values() if isinstance(v, int))
        points = entry.get("points") or {}
        declared = result.get("declarations") or {}
        rows.append(
            {
                "deal": deal,
                "taker": entry.get("taker"),
                "trump": entry.get("trump"),
                "points_team": points.get("team", ""),
                "points_cards": points.get("cards", ""),
                "capot": entry.get("capot"),
                "declarations_ns": declared.get(Side.NS, 0),
                "declarations_ew": declared.get(Side.EW, 0),
                "ns_total": ns,
                "ew_total": ew,
                "pot": pot,
            }
        )
    return rows
