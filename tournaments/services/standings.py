"""Storing a tournament's standings: its results read, ranked (`standings/`) and written.

Reads a bounded number of queries whatever the size of the tournament: the tournament, its
teams and its matches. A match stores its totals and each side's deal counts (derived from
its deals by the deal services' replay), so no deal is read here. The tournament keeps a
digest of each round's inputs beside the rows, so a recompute ranks, reads back and
compares only the rounds from the first whose inputs changed, and the live table. It does so
in two steps: the latest round and the live table first (what the pages show, and the
spectators wait for), then the past rounds whose inputs changed (a tie-break change, a
correction of an early round: every round ranked again).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ..models import Match, Round, SitOut, Standing, Team, Tournament
from ..standings.digests import first_changed_round, stale_rounds, with_past_rounds_stale
from ..standings.names import LIVE_ROUND, ROW_FIELDS
from ..standings.table import Line, MatchResult, Row, Tabulation, TeamInfo

log = logging.getLogger(__name__)

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
    """The teams and the stored results of the qualifying rounds (two queries; one without
    the `teams`).

    The rounds of a knockout final are left out: they rank the bracket, not the standings.
    """
    registered = (
        [
            TeamInfo(id=t[0], seed=t[1], withdrawn=t[2])
            for t in tournament.teams.values_list("id", "seed", "withdrawn")
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
    entrants = list(tournament.entrants.values_list("id", "seed", "withdrawn", "player_id"))
    players = [TeamInfo(id=e[0], seed=e[1], withdrawn=e[2]) for e in entrants]
    entrant_of = {e[3]: e[0] for e in entrants}
    _teams, matches = read_results(tournament, teams=False)
    sides: dict[int, tuple[int, ...]] = {
        team: tuple(entrant_of[p] for p in (first, second) if p in entrant_of)
        for team, first, second in Team.objects.filter(
            tournament_id=tournament.pk, round__isnull=False
        ).values_list("id", "first_player_id", "second_player_id")
    }
    for sit_out, number, entrant in SitOut.objects.filter(
        round__tournament_id=tournament.pk
    ).values_list("id", "round__number", "entrant_id"):
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


def write_lines(
    tournament_id: int,
    by_round: dict[int, list[Row]],
    from_round: int = 1,
    to_round: int | None = None,
    *,
    individual: bool = False,
) -> None:
    """Make the stored rows of rounds `from_round` on, and of the live table, equal to
    `by_round` (lines as rows, `Tabulation.rows`), inside the caller's transaction (the
    rows of the rounds before are known to be current). The live table's rows (LIVE_ROUND)
    are always in play: `by_round` without it deletes them (no match in play any more).
    With `to_round`, only the rounds from `from_round` to `to_round` are, and the live
    table is left alone. `individual`: the lines are entrants' (`Standing.entrant`).

    The stored rows are read back (one query) and compared, so only what differs is
    written: after a deal of the current round that is that round's rows, not 4,000; a
    first recompute inserts everything. Updates go in one statement on PostgreSQL (arrays
    unnested), inserts by COPY; elsewhere with executemany. Rows of teams or rounds that are
    gone are deleted.
    """
    table = Standing._meta.db_table
    quote = connection.ops.quote_name
    figure_columns = ", ".join(quote(c) for c in ROW_FIELDS)
    postgres = connection.vendor == "postgresql"
    whose = "entrant_id" if individual else "team_id"
    if to_round is None:
        which, bounds = "(round_number >= %s OR round_number = %s)", [from_round, LIVE_ROUND]
    else:
        which, bounds = "round_number BETWEEN %s AND %s", [from_round, to_round]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, round_number, {whose}, {figure_columns} FROM {table} "
            f"WHERE tournament_id = %s AND {which}",
            [tournament_id, *bounds],
        )
        rows = cursor.fetchall()
        # A line of the other kind (a team's in a tournament now individual) is gone too.
        stale = [r[0] for r in rows if r[2] is None]
        stored = {(r[1], r[2]): (r[0], r[3:]) for r in rows if r[2] is not None}
        inserts: list[tuple[Any, ...]] = []
        updates: list[tuple[Any, ...]] = []
        for round_number, lines in by_round.items():
            if round_number != LIVE_ROUND and round_number < from_round:
                raise ValueError(f"round {round_number} is before from_round {from_round}")
            if to_round is not None and round_number > to_round:
                raise ValueError(f"round {round_number} is after to_round {to_round}")
            for line in lines:
                # A row is the team's id, its seed, then the stored figures in ROW_FIELDS order.
                team_id, figures = line[0], line[2:]
                old = stored.pop((round_number, team_id), None)
                if old is None:
                    inserts.append((tournament_id, round_number, team_id, *figures))
                elif old[1] != figures:  # SQLite's 0/1 for booleans compare equal all the same
                    updates.append((old[0], *figures))
        gone = [pk for pk, _figures in stored.values()] + stale
        for start in range(0, len(gone), 500):
            chunk = gone[start : start + 500]
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(f"DELETE FROM {table} WHERE id IN ({marks})", chunk)
        if updates:
            if postgres:
                _update_postgres(cursor, table, updates)
            else:
                assignments = ", ".join(f"{quote(c)} = %s" for c in ROW_FIELDS)
                cursor.executemany(
                    f"UPDATE {table} SET {assignments} WHERE id = %s",
                    [(*u[1:], u[0]) for u in updates],
                )
        if inserts:
            columns = ", ".join(quote(c) for c in ("tournament_id", "round_number", whose))
            columns = f"{columns}, {figure_columns}"
            if postgres:
                with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in inserts:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * (3 + len(ROW_FIELDS)))
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", inserts)


_BOOLEAN_FIELDS = frozenset(("withdrawn", "shared_rank"))


def _update_postgres(cursor: Any, table: str, updates: list[tuple[Any, ...]]) -> None:
    """One UPDATE for any number of rows: a column array per field, unnested side by side."""
    names = ["id", *ROW_FIELDS]
    arrays = [list(column) for column in zip(*updates, strict=True)]
    unnest = ", ".join(
        "%s::boolean[]" if name in _BOOLEAN_FIELDS else "%s::integer[]" for name in names
    )
    cursor.execute(
        f"UPDATE {table} s SET ({', '.join(ROW_FIELDS)}) = "
        f"({', '.join('n.' + c for c in ROW_FIELDS)}) "
        f"FROM unnest({unnest}) AS n({', '.join(names)}) WHERE s.id = n.id",
        arrays,
    )


_TOURNAMENT_FIELDS = (
    "id",
    "change_seq",
    "standings_seq",
    "standings_computed_at",
    "standings_digests",
    "tie_breaks",
    "points_win",
    "points_draw",
    "points_loss",
    "format",
    "bye_points",
    "rules",
)


def _locked_digests(tournament_id: int, seq: int) -> list[str] | None:
    """The stored digests, the tournament locked until the transaction ends; None if a
    recompute of a change after `seq` has stored its rows (it wins).

    The lock makes two recomputes write one after the other, and an older one never
    overwrites a newer one. The digests are read again under it: another recompute may have
    stored rows since, from other results.
    """
    return (
        Tournament.objects.select_for_update()
        .filter(pk=tournament_id, standings_seq__lte=seq)
        .values_list("standings_digests", flat=True)
        .first()
    )


def recompute_standings(tournament_id: int, *, force: bool = False) -> bool:
    """Bring every Standing row of the tournament (the live table included) up to date;
    False when they already were: the latest round and the live table, then the past rounds
    whose inputs changed. The recompute task publishes between the two steps.
    """
    current = recompute_current_standings(tournament_id, force=force)
    past = complete_past_standings(tournament_id)
    return current or past


def recompute_current_standings(tournament_id: int, *, force: bool = False) -> bool:
    """Bring the latest round's rows and the live table up to date; False when they already
    were. Past rounds whose inputs changed are left STALE in the stored digests, for
    `complete_past_standings`: a tie-break change ranks one round here, not every round.

    Idempotent: the rows are rebuilt from the matches and overwritten. Only the rows of the
    latest round, if its inputs changed, and of the live table, which moves with every deal
    in play, are ranked and compared; `force` compares them whatever the digests say and
    leaves every past round to compare again, which also repairs rows edited by hand. The
    change number is read before the results, so the stored `standings_seq` never claims a
    change the rows have not seen; a later change always finds `standings_seq < change_seq`.
    The caller publishes the new live versions (tasks.recompute_tournament).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).only(*_TOURNAMENT_FIELDS).first()
    if tournament is None:
        return False
    seq = tournament.change_seq
    if tournament.standings_current and not force:
        return False
    tabulation = tabulation_of(tournament)
    digests = tabulation.digests()
    latest = tabulation.last_round

    def plan(stored: list[str]) -> tuple[int, list[str]]:
        """The first round to write, and the digests to store with it."""
        from_round = 1 if force else first_changed_round(stored, digests)
        return max(from_round, latest), with_past_rounds_stale(digests, from_round, latest)

    from_round, kept = plan(tournament.standings_digests)
    by_round = tabulation.rows(from_round, live=True)
    with transaction.atomic():
        locked = _locked_digests(tournament_id, seq)
        if locked is None:
            return False
        now, kept = plan(locked)
        if now != from_round:
            from_round, by_round = now, tabulation.rows(now, live=True)
        Tournament.objects.filter(pk=tournament_id).update(
            standings_seq=seq, standings_computed_at=timezone.now(), standings_digests=kept
        )
        write_lines(tournament_id, by_round, from_round, individual=tournament.is_individual)
    log.info(
        "standings of tournament %s recomputed from change %s (rounds %s on)",
        tournament_id,
        seq,
        from_round,
    )
    return True


def complete_past_standings(tournament_id: int) -> bool:
    """Rank and write the past rounds `recompute_current_standings` left STALE; False when
    there were none (one query).

    Their rows are the ones computed from the results before, as every row is until its
    recompute has run: a pinned past round and the rank chart are a step late, never wrong
    about what they were computed from (each round's digest says it). A recompute of a newer
    change that has written since wins: its own completion follows it.
    """
    tournament = Tournament.objects.filter(pk=tournament_id).only(*_TOURNAMENT_FIELDS).first()
    if tournament is None or not stale_rounds(tournament.standings_digests):
        return False
    seq = tournament.change_seq
    tabulation = tabulation_of(tournament)
    digests = tabulation.digests()
    last_round = tabulation.last_round
    stale = stale_rounds(tournament.standings_digests, last_round)
    if not stale:
        return False  # only rounds these results no longer have: the next recompute's
    by_round = tabulation.rows(stale[0], stale[-1])
    with transaction.atomic():
        locked = _locked_digests(tournament_id, seq)
        if locked is None:
            return False
        now = stale_rounds(locked, last_round)
        if not now:
            return False
        if (now[0], now[-1]) != (stale[0], stale[-1]):
            stale, by_round = now, tabulation.rows(now[0], now[-1])
        # The rounds between the first and the last stale one are written too: the rows
        # follow the same results as their digests (stale ones come in one run anyway).
        kept = list(locked)
        kept[stale[0] - 1 : stale[-1]] = digests[stale[0] - 1 : stale[-1]]
        Tournament.objects.filter(pk=tournament_id).update(
            standings_computed_at=timezone.now(), standings_digests=kept
        )
        write_lines(
            tournament_id, by_round, stale[0], stale[-1], individual=tournament.is_individual
        )
    log.info(
        "standings of tournament %s: rounds %s to %s ranked again",
        tournament_id,
        stale[0],
        stale[-1],
    )
    return True
