"""Reads of a tournament: its rounds, teams, tables and match sheets."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from ..models import DirectorCall, Entrant, Match, Round, Side, Team, Tournament
from ..standings.criteria import CRITERIA

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
    """The registered teams (an individual tournament's partnerships are its rounds')."""
    return (
        tournament.teams.filter(round__isnull=True)
        .select_related("first_player", "second_player")
        .order_by("seed")
    )


def entrants_with_players(tournament: Tournament) -> QuerySet[Entrant]:
    """An individual tournament's players, by seed."""
    return tournament.entrants.select_related("player").order_by("seed")


# The players of both partnerships of a match, joined: a mêlée's pages name all four.
SEATED = (
    "ns_team__first_player",
    "ns_team__second_player",
    "ew_team__first_player",
    "ew_team__second_player",
)


def teams_with_deals(tournament: Tournament) -> set[int]:
    """The teams that have played a deal (their players are then fixed)."""
    played: set[int] = set()
    for pair in tournament.matches.filter(deal_count__gt=0).values_list("ns_team_id", "ew_team_id"):
        played.update(team_id for team_id in pair if team_id is not None)
    return played


@dataclass(frozen=True, slots=True)
class TeamsInSchedule:
    """Where the teams stand in the schedule, read in one query."""

    scheduled: set[int]  # team ids in any match, a bye too
    # Team id → the id of the first round drawn on its own (a round-by-round draw's, or a
    # final's) that holds the team: such a team is withdrawn, never deleted (that would take
    # the round, its draw edits and referees from everybody). A round robin's schedule is
    # generated whole, and generated again: its teams are not listed.
    drawn: dict[int, int]
    rounds: int  # the rounds with matches


def teams_in_schedule(tournament: Tournament) -> TeamsInSchedule:
    scheduled: set[int] = set()
    drawn: dict[int, int] = {}
    rounds: set[int] = set()
    for ns, ew, round_id, stage in tournament.matches.order_by("round__number").values_list(
        "ns_team_id", "ew_team_id", "round_id", "round__stage"
    ):
        rounds.add(round_id)
        own = tournament.is_round_by_round or stage != Round.Stage.QUALIFYING
        for team_id in (ns, ew):
            if team_id is not None:
                scheduled.add(team_id)
                if own:
                    drawn.setdefault(team_id, round_id)
    return TeamsInSchedule(scheduled, drawn, len(rounds))


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


def rounds_not_drawn(tournament: Tournament, rounds: list[Round]) -> list[Round]:
    """The rounds still to draw after `rounds` (the drawn ones), unsaved, for "not drawn yet".

    A Swiss's or a concours's qualifying rounds up to `round_count`, then a started final's
    rounds; reads the bracket only if the tournament was fetched with it (or one query).
    """
    qualifying = sum(not r.is_knockout for r in rounds)
    knockout = len(rounds) - qualifying
    number = rounds[-1].number if rounds else 0
    missing: list[Round] = []
    if tournament.is_round_by_round:
        for _n in range(qualifying, tournament.round_count or 0):
            number += 1
            missing.append(Round(tournament=tournament, number=number))
    if tournament.has_final:
        size = tournament.bracket.size
        for index in range(knockout, tournament.bracket.rounds):
            number += 1
            stage = Round.Stage.of_knockout(size >> index)
            missing.append(Round(tournament=tournament, number=number, stage=stage))
    return missing


def matches_of_rounds(tournament: Tournament, numbers: Iterable[int]) -> QuerySet[Match]:
    """The matches of those rounds, teams joined (a mêlée's: with their players), in
    schedule order."""
    joined = SEATED if tournament.is_individual else ("ns_team", "ew_team")
    return (
        tournament.matches.filter(round__number__in=list(numbers))
        .select_related("round", *joined)
        .order_by("round__number", "table")
    )


def tables(tournament: Tournament, *, answers: bool = True) -> list[tuple[Round, list[Match]]]:
    """Every table of the tournament, round by round, with its referee and the teams' answers
    to its sheet (three queries; two without the `answers`, which a draw does not read).

    With the answers, each match also carries the call to the director it waits on, if any
    (`waiting_call_id`, `waiting_call_reason`, `waiting_call_at`; `waiting_calls` reads them)."""
    rounds = list(tournament.rounds.all())
    by_round: dict[int, list[Match]] = {}
    matches = tournament.matches.select_related("round", "ns_team", "ew_team", "referee__player")
    if answers:
        waiting = DirectorCall.objects.filter(
            match=OuterRef("pk"), answered_at__isnull=True
        ).order_by("at", "pk")
        matches = matches.prefetch_related("confirmations").annotate(
            waiting_call_id=Subquery(waiting.values("pk")[:1]),
            waiting_call_reason=Subquery(waiting.values("reason")[:1]),
            waiting_call_at=Subquery(waiting.values("at")[:1]),
        )
    for match in matches.order_by("round__number", "table"):
        by_round.setdefault(match.round_id, []).append(match)
    return [(r, by_round.get(r.pk, [])) for r in rounds]


@dataclass(frozen=True, slots=True)
class WaitingCall:
    """A table's call to the director not answered yet, as the tables page lists it."""

    pk: int
    match: Match
    reason: str
    at: Any


def waiting_calls(rounds: list[tuple[Round, list[Match]]]) -> list[WaitingCall]:
    """The calls the matches of `tables(...)` wait on, oldest first (no query)."""
    found = [
        WaitingCall(m.waiting_call_id, m, m.waiting_call_reason or "", m.waiting_call_at)  # type: ignore[attr-defined]
        for _round, matches in rounds
        for m in matches
        if getattr(m, "waiting_call_id", None)
    ]
    return sorted(found, key=lambda call: (call.at, call.pk))


def disputes(rounds: list[tuple[Round, list[Match]]]) -> list[Match]:
    """The matches of `tables(...)` whose sheet a team disputes: the director's first concern."""
    return [match for _round, matches in rounds for match in matches if match.disputed_by]


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
