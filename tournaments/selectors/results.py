"""The stored results made ready for the standings arithmetic (`standings/`): read, not written.

A bounded number of queries whatever the size of the tournament: its teams and its matches
(an individual tournament's: its entrants, partnerships and sit-outs too). A match stores its
totals and each side's deal counts (derived from its deals by the deal services' replay), so
no deal is read here.
"""

from __future__ import annotations

from django.db import connection

from ..models import Match, Round, SitOut, Team, Tournament
from ..standings.lines import Line, MatchResult, TeamInfo
from ..standings.table import Tabulation
from .players import entries_of_the_evening

_FINISHED = Match.Status.FINISHED.value
_PLAYING = Match.Status.PLAYING.value
# The stored match columns the arithmetic reads, in MatchResult's order (deal counts last).
_MATCH_COLUMNS = (
    "id",
    "round__number",
    "ns_team_id",
    "ew_team_id",
    "status",
    "ns_total",
    "ew_total",
    "winner",
    "deals_played",
    *(f"ns_{name}" for name in Match.SIDE_STAT_FIELDS),
    *(f"ew_{name}" for name in Match.SIDE_STAT_FIELDS),
)
_SIDE = len(Match.SIDE_STAT_FIELDS)


def read_results(
    tournament: Tournament, *, teams: bool = True
) -> tuple[list[TeamInfo], list[MatchResult]]:
    """The teams of the evening (`players.entries_of_the_evening`: a team that never sat at
    a table has no line) and the stored results of the qualifying rounds (two queries; one
    without the `teams`).

    The rounds of a knockout final are left out: they rank the bracket, not the standings.
    """
    registered = (
        [
            TeamInfo(id=t[0], seed=t[1], withdrawn=t[2])
            for t in entries_of_the_evening(tournament)
            .order_by()
            .values_list("id", "seed", "withdrawn")
        ]
        if teams
        else []
    )
    query = (
        Match.objects.filter(tournament_id=tournament.pk, round__stage=Round.Stage.QUALIFYING)
        .order_by()
        .values_list(*_MATCH_COLUMNS)
    )
    # Straight through the cursor: the ORM's row building costs more than the query.
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    # _make and plain tuples for the deal counts: cheaper than NamedTuple's keyword path.
    ns_counts, ew_counts = slice(9, 9 + _SIDE), slice(9 + _SIDE, 9 + 2 * _SIDE)
    matches = [
        MatchResult._make(
            (
                *m[:4],
                m[4] == _FINISHED,
                *m[5:8],
                (m[8], *m[ns_counts]),
                (m[8], *m[ew_counts]),
                m[4] == _PLAYING,
            )
        )
        for m in fetched
    ]
    return registered, matches


def read_individual_results(
    tournament: Tournament,
) -> tuple[list[TeamInfo], list[MatchResult], dict[int, tuple[int, ...]]]:
    """An individual tournament's players (its entrants), the stored results of its rounds
    and, for the arithmetic, the players each side of those results stands for (four
    queries).

    A match's sides are the round's partnerships: each stands for its two players. A player
    sitting a round out is a bye of a side of one, keyed by minus its SitOut row's id so
    that it never meets a partnership's key.
    """
    # The players of the evening: every player a side seated is one of them.
    entrants = list(
        entries_of_the_evening(tournament)
        .order_by()
        .values_list("id", "seed", "withdrawn", "player_id")
    )
    players = [TeamInfo(id=e[0], seed=e[1], withdrawn=e[2]) for e in entrants]
    entrant_of = {e[3]: e[0] for e in entrants}
    _teams, matches = read_results(tournament, teams=False)
    sides: dict[int, tuple[int, ...]] = {
        team: tuple(entrant_of[p] for p in (first, second) if p in entrant_of)
        for team, first, second in Team.objects.filter(
            tournament_id=tournament.pk, round__isnull=False
        )
        .order_by()  # the model's order joins the tournament, for nothing here
        .values_list("id", "first_player_id", "second_player_id")
    }
    for sit_out, number, entrant in (
        SitOut.objects.filter(round__tournament_id=tournament.pk)
        .order_by()
        .values_list("id", "round__number", "entrant_id")
    ):
        sides[-sit_out] = (entrant,)
        matches.append(MatchResult(0, number, -sit_out, None, False))
    return players, matches, sides


def tabulation_of(tournament: Tournament) -> Tabulation:
    """The stored results of `tournament`, made ready for the arithmetic."""
    sides = None
    if tournament.is_individual:
        teams, matches, sides = read_individual_results(tournament)
    else:
        teams, matches = read_results(tournament)
    return Tabulation(
        teams,
        matches,
        tie_breaks=tournament.tie_breaks or None,
        points=tournament.match_points,
        bye_points=tournament.bye_points_in_use,
        sides=sides,
    )


def table_of(tournament: Tournament) -> dict[int, list[Line]]:
    """The lines per round of `tournament`, and its live table while a match is in play."""
    return tabulation_of(tournament).lines(live=True)
