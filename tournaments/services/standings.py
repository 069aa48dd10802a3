"""Storing a tournament's standings: its results read (`selectors.results`), ranked
(`standings/`) and written.

Only what the pages read with every deal is stored: the table after the latest round (the
last with a finished match) and the live table. A past round's table is computed when asked
(`selectors.standings`), from the same results, and kept in the cache under that round's
digest, which the tournament stores beside the rows: so a tie-break change, or a correction
of an early round, ranks and writes one round and the live table, not every round.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ..models import Standing, Tournament
from ..selectors.results import tabulation_of
from ..standings.names import LIVE_ROUND, ROW_FIELDS
from ..standings.ranking import Row

log = logging.getLogger(__name__)


def write_lines(
    tournament_id: int,
    by_round: dict[int, list[Row]],
    latest: int,
    *,
    whose: str = "team",
) -> None:
    """Make the stored rows of `tournament_id` those of `by_round` (lines as rows,
    `Tabulation.rows`), inside the caller's transaction: the live table (LIVE_ROUND; none
    in `by_round` deletes its rows: no match in play any more) and the table after round
    `latest`, whose stored rows are known to be current when `by_round` does not hold it.
    The rows of every other round are deleted: a past round is computed when asked.
    `whose`: the entry's key on a line (`Entry.line_field`: a mêlée's lines are entrants').

    The stored rows are read back (one query) and compared, so only what differs is
    written: after a deal that finishes a match, that round's lines whose figures moved.
    Updates go in one statement on PostgreSQL (arrays unnested), inserts by COPY; elsewhere
    with executemany.
    """
    table = Standing._meta.db_table
    quote = connection.ops.quote_name
    figure_columns = ", ".join(quote(c) for c in ROW_FIELDS)
    postgres = connection.vendor == "postgresql"
    whose = f"{whose}_id"
    untouched = "" if latest in by_round else " AND round_number <> %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, round_number, {whose}, {figure_columns} FROM {table} "
            f"WHERE tournament_id = %s{untouched}",
            [tournament_id] + ([] if latest in by_round else [latest]),
        )
        rows = cursor.fetchall()
        # A line of the other kind (a team's in a tournament now individual) is gone too.
        stale = [r[0] for r in rows if r[2] is None]
        stored = {(r[1], r[2]): (r[0], r[3:]) for r in rows if r[2] is not None}
        inserts: list[tuple[Any, ...]] = []
        updates: list[tuple[Any, ...]] = []
        for round_number, lines in by_round.items():
            if round_number not in (LIVE_ROUND, latest):
                raise ValueError(f"round {round_number} is neither {latest} nor the live table")
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
    """Bring the stored standings of the tournament (the latest round's and the live
    table's) up to date; False when they already were.

    Idempotent: the rows are rebuilt from the matches and overwritten. The latest round is
    ranked and compared only when the digests of the rounds changed (a deal that finishes a
    match, a tie-break change, a correction); the live table, which moves with every deal in
    play, always. `force` ranks and compares both whatever the digests say, which also
    repairs rows edited by hand. The change number is read before the results, so the stored
    `standings_seq` never claims a change the rows have not seen; a later change always
    finds `standings_seq < change_seq`. The caller publishes the new live versions
    (tasks.recompute_tournament).
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

    def first_ranked(stored: list[str]) -> int:
        """The latest round if its lines may have moved, else one past it (the live table
        alone): the digests chain every round, so equal lists mean equal lines."""
        return latest if force or stored != digests else latest + 1

    from_round = first_ranked(tournament.standings_digests)
    by_round = tabulation.rows(from_round, latest, live=True)
    with transaction.atomic():
        locked = _locked_digests(tournament_id, seq)
        if locked is None:
            return False
        if (now := first_ranked(locked)) != from_round:
            from_round, by_round = now, tabulation.rows(now, latest, live=True)
        Tournament.objects.filter(pk=tournament_id).update(
            standings_seq=seq, standings_computed_at=timezone.now(), standings_digests=digests
        )
        write_lines(tournament_id, by_round, latest, whose=tournament.entry_model.line_field)
    log.info(
        "standings of tournament %s recomputed from change %s (round %s%s)",
        tournament_id,
        seq,
        latest,
        " ranked" if from_round == latest else " as stored",
    )
    return True
