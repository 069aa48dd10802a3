"""Recomputes and stores a tournament's standings after every round, from its stored results.

Reads in a bounded number of queries whatever the size of the tournament: the tournament,
its teams, its matches, and one aggregate of the deal columns grouped by match; the
arithmetic and the order are in `standings_rows` (see its docstring for the rules).
"""

from __future__ import annotations

import logging

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from ..models import Deal, Match, Standing, Tournament
from .standings_rows import Line, MatchResult, SideStats, TeamInfo, compute_standings

log = logging.getLogger(__name__)

_LINE_FIELDS = (
    "played",
    "won",
    "drawn",
    "lost",
    "match_points",
    "points_for",
    "points_against",
    "point_difference",
    "sonneborn_berger",
    "deals",
    "contracts_taken",
    "contracts_made",
    "contracts_dedans",
    "capots",
    "belotes",
    "litiges",
    "withdrawn",
    "rank",
    "shared_rank",
)


def _side_counts(side: str) -> dict[str, Count]:
    taker = Q(taker_side=side)
    return {
        f"{side}_taken": Count("id", filter=taker),
        f"{side}_made": Count("id", filter=taker & Q(outcome="made")),
        f"{side}_dedans": Count("id", filter=taker & Q(outcome="dedans")),
        f"{side}_litiges": Count("id", filter=taker & Q(outcome="litige")),
        f"{side}_capots": Count("id", filter=Q(capot_side=side)),
        f"{side}_belotes": Count("id", filter=Q(belote_side=side)),
    }


def deal_stats(tournament_id: int) -> dict[tuple[int, str], SideStats]:
    """Each side's deal counts per finished match, in one aggregate query."""
    rows = (
        Deal.objects.filter(match__tournament_id=tournament_id, match__status=Match.Status.FINISHED)
        .values("match_id")
        .annotate(
            played=Count("id", filter=~Q(outcome="thrown_in")),
            **_side_counts("NS"),
            **_side_counts("EW"),
        )
        .order_by()
    )
    stats: dict[tuple[int, str], SideStats] = {}
    for row in rows:
        for side in ("NS", "EW"):
            stats[(row["match_id"], side)] = SideStats(
                deals=row["played"],
                contracts_taken=row[f"{side}_taken"],
                contracts_made=row[f"{side}_made"],
                contracts_dedans=row[f"{side}_dedans"],
                capots=row[f"{side}_capots"],
                belotes=row[f"{side}_belotes"],
                litiges=row[f"{side}_litiges"],
            )
    return stats


def compute_tournament_standings(tournament: Tournament) -> dict[int, list[Line]]:
    """The lines per round of `tournament`, read from the database (three queries)."""
    teams = [
        TeamInfo(id=t[0], seed=t[1], withdrawn=t[2])
        for t in tournament.teams.values_list("id", "seed", "withdrawn")
    ]
    matches = [
        MatchResult(
            id=m[0],
            round_number=m[1],
            ns_team=m[2],
            ew_team=m[3],
            finished=m[4] == Match.Status.FINISHED,
            ns_total=m[5],
            ew_total=m[6],
            winner=m[7],
        )
        for m in Match.objects.filter(tournament_id=tournament.pk)
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
        )
    ]
    return compute_standings(
        teams,
        matches,
        deal_stats(tournament.pk),
        tie_breaks=tournament.tie_breaks or None,
        points=(tournament.points_win, tournament.points_draw, tournament.points_loss),
    )


def _insert(rows: list[tuple[object, ...]]) -> None:
    """Insert the standings rows straight through the driver.

    The ORM's bulk_create spends most of a full recompute preparing 4,000 model instances;
    PostgreSQL takes them by COPY, the others by one executemany.
    """
    if not rows:
        return
    table = Standing._meta.db_table
    columns = ["tournament_id", "round_number", "team_id", *_LINE_FIELDS]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            names = ", ".join(columns)
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({quoted}) VALUES ({marks})", rows)


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
    by_round = compute_tournament_standings(tournament)
    rows = [
        (tournament_id, round_number, line.team_id, *[getattr(line, n) for n in _LINE_FIELDS])
        for round_number, lines in by_round.items()
        for line in lines
    ]
    with transaction.atomic():
        # The guarded update takes the tournament's row lock, so two recomputes write one
        # after the other, and an older one never overwrites a newer one.
        written = Tournament.objects.filter(pk=tournament_id, standings_seq__lte=seq).update(
            standings_seq=seq, standings_computed_at=timezone.now()
        )
        if not written:
            return False
        Standing.objects.filter(tournament_id=tournament_id).delete()
        _insert(rows)
    log.info("standings of tournament %s recomputed from change %s", tournament_id, seq)
    return True
