"""Recomputes and stores a tournament's standings after every round, from its stored results.

Reads in a bounded number of queries whatever the size of the tournament: the tournament,
its teams and its matches. A match stores its totals and each side's deal counts, both
derived from its deals by the deal services' replay (`Match.count_deals`), so no deal is
read here; `deal_stats` counts the same figures afresh from the deals, to check them. The
arithmetic and the order are in `standings_rows` (see its docstring for the rules).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, Sum, When
from django.utils import timezone

from ..models import Deal, Match, Standing, Tournament
from .standings_rows import (
    ROW_FIELDS,
    Line,
    MatchResult,
    SideStats,
    TeamInfo,
    compute_standings,
    standing_rows,
)

log = logging.getLogger(__name__)

_LINE_FIELDS = ROW_FIELDS


# Both sides' counts travel in one integer: NS in the low 16 bits, EW above (a match has far
# fewer than 65,536 deals). Seven sums per match read the deals in one pass, about as fast
# as the plain sum of scores, and return one row per match.
_EW = 1 << 16


def _per_side(column: str, **only: str) -> Sum:
    sides = Case(When(**{column: "NS"}, then=1), When(**{column: "EW"}, then=_EW), default=0)
    if not only:
        return Sum(sides)
    return Sum(Case(When(**only, then=sides), default=0))


def deal_stats(tournament_id: int) -> dict[tuple[int, str], SideStats]:
    """Each side's deal counts per finished match, counted afresh from the deals (one query).

    The recompute reads the counts stored on the matches instead; this is the check that
    they equal the deals, and what a recompute from the deals alone would have to read.
    """
    rows = (
        Deal.objects.filter(match__tournament_id=tournament_id, match__status=Match.Status.FINISHED)
        .values("match_id")
        .annotate(
            played=Sum(Case(When(outcome="thrown_in", then=0), default=1)),
            taken=_per_side("taker_side"),
            made=_per_side("taker_side", outcome="made"),
            dedans=_per_side("taker_side", outcome="dedans"),
            capots=_per_side("capot_side"),
            belotes=_per_side("belote_side"),
            litiges=_per_side("taker_side", outcome="litige"),
        )
        .order_by()
        .values_list(
            "match_id", "played", "taken", "made", "dedans", "capots", "belotes", "litiges"
        )
    )
    # Straight through the cursor: the ORM's converters would cost more than the query.
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    stats: dict[tuple[int, str], SideStats] = {}
    for match_id, played, *packed in fetched:
        stats[(match_id, "NS")] = SideStats(played, *(v % _EW for v in packed))
        stats[(match_id, "EW")] = SideStats(played, *(v // _EW for v in packed))
    return stats


_FINISHED = Match.Status.FINISHED.value


def _read(tournament: Tournament) -> tuple[list[TeamInfo], list[MatchResult]]:
    """The teams and the stored match results (two queries)."""
    teams = [
        TeamInfo(id=t[0], seed=t[1], withdrawn=t[2])
        for t in tournament.teams.values_list("id", "seed", "withdrawn")
    ]
    query = (
        Match.objects.filter(tournament_id=tournament.pk)
        .order_by()
        .values_list(
            "id",
            "round__number",
            "ns_team_id",
            "ew_team_id",
            "status",
            "ns_total",
            "ew_total",
            "winner",
            "deals_played",
            "ns_taken",
            "ns_made",
            "ns_dedans",
            "ns_capots",
            "ns_belotes",
            "ns_litiges",
            "ew_taken",
            "ew_made",
            "ew_dedans",
            "ew_capots",
            "ew_belotes",
            "ew_litiges",
        )
    )
    # Straight through the cursor: the ORM's row building costs more than the query.
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    # _make and plain tuples for the deal counts: cheaper than NamedTuple's keyword path.
    matches = [
        MatchResult._make(
            (
                *m[:4],
                m[4] == _FINISHED,
                *m[5:8],
                (m[8], *m[9:15]),
                (m[8], *m[15:21]),
            )
        )
        for m in fetched
    ]
    return teams, matches


def compute_tournament_standings(tournament: Tournament) -> dict[int, list[Line]]:
    """The lines per round of `tournament`, read from the database (two queries)."""
    teams, matches = _read(tournament)
    return compute_standings(
        teams,
        matches,
        tie_breaks=tournament.tie_breaks or None,
        points=(tournament.points_win, tournament.points_draw, tournament.points_loss),
    )


def _write(tournament_id: int, by_round: dict[int, list[tuple[int, tuple[Any, ...]]]]) -> None:
    """Make the stored rows equal to `by_round` (standing_rows), inside the caller's transaction.

    The stored rows are read back (one query) and compared here, so only what differs is
    written: after a deal of the current round that is that round's rows, not 4,000; a
    first recompute inserts everything. Updates go in one statement on PostgreSQL (arrays
    unnested), inserts by COPY; elsewhere with executemany. Rows of teams or rounds that are
    gone are deleted.
    """
    table = Standing._meta.db_table
    quote = connection.ops.quote_name
    figure_columns = ", ".join(quote(c) for c in _LINE_FIELDS)
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, round_number, team_id, {figure_columns} FROM {table} "
            "WHERE tournament_id = %s",
            [tournament_id],
        )
        stored = {(r[1], r[2]): (r[0], r[3:]) for r in cursor.fetchall()}
        inserts: list[tuple[Any, ...]] = []
        updates: list[tuple[Any, ...]] = []
        for round_number, lines in by_round.items():
            for team_id, figures in lines:
                old = stored.pop((round_number, team_id), None)
                if old is None:
                    inserts.append((tournament_id, round_number, team_id, *figures))
                elif old[1] != figures:  # SQLite's 0/1 for booleans compare equal all the same
                    updates.append((old[0], *figures))
        gone = [pk for pk, _figures in stored.values()]
        for start in range(0, len(gone), 500):
            chunk = gone[start : start + 500]
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(f"DELETE FROM {table} WHERE id IN ({marks})", chunk)
        if updates:
            if postgres:
                _update_postgres(cursor, table, updates)
            else:
                assignments = ", ".join(f"{quote(c)} = %s" for c in _LINE_FIELDS)
                cursor.executemany(
                    f"UPDATE {table} SET {assignments} WHERE id = %s",
                    [(*u[1:], u[0]) for u in updates],
                )
        if inserts:
            columns = ", ".join(quote(c) for c in ("tournament_id", "round_number", "team_id"))
            columns = f"{columns}, {figure_columns}"
            if postgres:
                with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in inserts:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * (3 + len(_LINE_FIELDS)))
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", inserts)


_BOOLEAN_FIELDS = frozenset(("withdrawn", "shared_rank"))


def _update_postgres(cursor: Any, table: str, updates: list[tuple[Any, ...]]) -> None:
    """One UPDATE for any number of rows: a column array per field, unnested side by side."""
    names = ["id", *_LINE_FIELDS]
    arrays = [list(column) for column in zip(*updates, strict=True)]
    unnest = ", ".join(
        "%s::boolean[]" if name in _BOOLEAN_FIELDS else "%s::integer[]" for name in names
    )
    cursor.execute(
        f"UPDATE {table} s SET ({', '.join(_LINE_FIELDS)}) = "
        f"({', '.join('n.' + c for c in _LINE_FIELDS)}) "
        f"FROM unnest({unnest}) AS n({', '.join(names)}) WHERE s.id = n.id",
        arrays,
    )


def recompute_standings(tournament_id: int, *, force: bool = False) -> bool:
    """Rebuild every Standing row of the tournament; False when they were already current.

    Idempotent: the rows are rebuilt from the matches and deals and overwritten. The change
    number is read before the results, so the stored `standings_seq` never claims a change
    the rows have not seen; a later change always finds `standings_seq < change_seq`.
    """
    tournament = (
        Tournament.objects.filter(pk=tournament_id)
        .only(
            "id",
            "change_seq",
            "standings_seq",
            "standings_computed_at",
            "tie_breaks",
            "points_win",
            "points_draw",
            "points_loss",
        )
        .first()
    )
    if tournament is None:
        return False
    seq = tournament.change_seq
    current = tournament.standings_computed_at is not None and tournament.standings_seq >= seq
    if current and not force:
        return False
    teams, matches = _read(tournament)
    by_round = standing_rows(
        teams,
        matches,
        tie_breaks=tournament.tie_breaks or None,
        points=(tournament.points_win, tournament.points_draw, tournament.points_loss),
    )
    with transaction.atomic():
        # The guarded update takes the tournament's row lock, so two recomputes write one
        # after the other, and an older one never overwrites a newer one.
        written = Tournament.objects.filter(pk=tournament_id, standings_seq__lte=seq).update(
            standings_seq=seq, standings_computed_at=timezone.now()
        )
        if not written:
            return False
        _write(tournament_id, by_round)
    log.info("standings of tournament %s recomputed from change %s", tournament_id, seq)
    return True
