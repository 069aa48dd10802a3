"""Each side's deal counts per finished match, counted afresh from the deals in one SQL aggregate.

The standings read the counts the deal services store on every match; this is the check
that they equal the deals (tests), and what a recompute from the deals alone would read
(the standings benchmark).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Case, Sum, When

from tournaments.models import Deal, Match
from tournaments.standings.lines import SideStats

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
