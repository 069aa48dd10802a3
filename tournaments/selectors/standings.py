"""Reads of the standings: after a round, live, and each team's rank round by round.

The latest round's table and the live one are stored (`services.standings`); a past round's
is computed from the results when asked and kept, in this process and in the shared cache,
under the round's digest, which the tournament stores with its rows: equal digests, equal
lines, so a kept table is never stale, and a tie-break change costs the store one round.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import QuerySet

from ..models import Standing, Tournament
from ..standings.names import LIVE_ROUND, ROW_FIELDS
from ..standings.ranking import Row
from .members import public_team_names
from .players import entries
from .results import tabulation_of

log = logging.getLogger(__name__)

# A past round's lines, kept under its digest: the timeout only bounds memory.
PAST_ROUND_SECONDS = 24 * 3600
# And in this process, the most recent ones up to this many lines in all (a page of the rank
# chart reads every round: a 64-team round robin's 62 past rounds are 3,968 lines, ~1 MB).
PAST_LINES_KEPT = 20_000
_kept: OrderedDict[str, list[Row]] = OrderedDict()
_kept_lock = threading.Lock()  # a web worker's threads share it
_RANK = 2 + ROW_FIELDS.index("rank")


def _past_key(tournament_id: int, number: int, digest: str) -> str:
    return f"belote:standings:{tournament_id}:{number}:{digest}"


def _keep(tables: dict[str, list[Row]]) -> None:
    with _kept_lock:
        for key, rows in tables.items():
            _kept[key] = rows
            _kept.move_to_end(key)
        lines = sum(len(rows) for rows in _kept.values())
        while lines > PAST_LINES_KEPT and len(_kept) > 1:
            lines -= len(_kept.popitem(last=False)[1])


def _kept_of(keys: Iterable[str]) -> dict[str, list[Row]]:
    with _kept_lock:
        found = {key: _kept[key] for key in keys if key in _kept}
        for key in found:
            _kept.move_to_end(key)
    return found


def past_round_rows(tournament: Tournament, numbers: Iterable[int]) -> dict[int, list[Row]]:
    """The lines (as rows, `Tabulation.rows`) after each of the rounds `numbers` that has a
    digest stored: kept, else computed from the results (one read for all that are missing:
    its teams and matches) and kept under the digests of what they were computed from.

    A cache that fails (Redis down) is skipped: the lines are computed.
    """
    digests = tournament.standings_digests or []
    wanted = {
        n: _past_key(tournament.pk, n, digests[n - 1]) for n in numbers if 0 < n <= len(digests)
    }
    found = _kept_of(wanted.values())
    if len(found) < len(wanted):
        try:
            shared = cache.get_many([key for key in wanted.values() if key not in found])
        except Exception:
            log.warning("cache unavailable: past rounds computed", exc_info=True)
            shared = {}
        _keep(shared)
        found.update(shared)
    rows = {n: found[key] for n, key in wanted.items() if key in found}
    missing = [n for n in wanted if n not in rows]
    if missing:
        tabulation = tabulation_of(tournament)
        computed_from = tabulation.digests()
        computed = tabulation.rows(min(missing), max(missing))
        tables = {
            _past_key(tournament.pk, n, computed_from[n - 1]): lines
            for n, lines in computed.items()
        }
        _keep(tables)
        try:
            cache.set_many(tables, timeout=PAST_ROUND_SECONDS)
        except Exception:
            log.warning("cache unavailable: past rounds not kept", exc_info=True)
        rows.update((n, computed[n]) for n in missing if n in computed)
    return rows


def past_lines(tournament: Tournament, number: int, *, players: bool = False) -> list[Standing]:
    """The lines after past round `number`, in rank order, as Standing rows never saved
    (one query when kept: the teams or the players; the results' read more when computed).
    `players`: with each team's two players."""
    rows = past_round_rows(tournament, [number]).get(number, [])
    model = tournament.entry_model
    owners = {e.pk: e for e in entries(tournament).select_related(*model.joined(players=players))}
    return [
        Standing(
            tournament=tournament,
            round_number=number,
            **{model.line_field: owners[row[0]]},
            **dict(zip(ROW_FIELDS, row[2:], strict=True)),
        )
        for row in rows
        if row[0] in owners
    ]


# --- standings -----------------------------------------------------------------------------


def standings_version(tournament: Tournament) -> str:
    """What the stored standings were computed from: the change number and when.

    The time is part of it because the first computation can keep change number 0.
    """
    at = tournament.standings_computed_at
    return f"{tournament.standings_seq}-{int(at.timestamp() * 1000) if at else 0}"


def _stored_rounds(tournament: Tournament) -> list[int]:
    """The round keys with stored lines: the latest round's, and the live table's
    (LIVE_ROUND, first) while a match is in play."""
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

    def lines(self, *, players: bool = False) -> QuerySet[Standing] | Sequence[Standing]:
        """The lines in rank order; `players`: with each team's two players (the CSV
        export), which the tables do not show (two more objects a line to build). A past
        round's are computed (`past_lines`)."""
        if self.after is None:
            return Standing.objects.none()
        if self.after not in (LIVE_ROUND, self.latest):
            return past_lines(self.tournament, self.after, players=players)
        lines = Standing.objects.filter(tournament=self.tournament, round_number=self.after)
        model = self.tournament.entry_model
        whose = model.line_field
        return lines.select_related(*model.joined(players=players, via=whose)).order_by(
            "rank", f"{whose}__seed", "pk"
        )


def standings_after(
    tournament: Tournament, after: int | str | None, *, live: bool = True
) -> StandingsView:
    """The standings after round `after` if it has one; else the live table while a match is
    in play (unless `live` is off); else the latest after-round table."""
    stored = _stored_rounds(tournament)
    has_live = LIVE_ROUND in stored
    latest = max(stored, default=LIVE_ROUND) or None
    rounds = list(range(1, (latest or 0) + 1))
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
    whatever the size while the past rounds are kept, `past_round_rows`)."""
    model = tournament.entry_model
    whose = f"{model.line_field}_id"
    names = {e.pk: e.name for e in entries(tournament).select_related(*model.joined(players=False))}
    if not tournament.is_individual:
        # As every visitor may read them (club.privacy).
        names.update(public_team_names(tournament))
    history: dict[int, list[tuple[float, float]]] = {}
    stored = list(
        Standing.objects.filter(tournament=tournament)
        .exclude(round_number=LIVE_ROUND)
        .values_list(whose, "round_number", "rank")
    )
    latest = max((number for _whose, number, _rank in stored), default=0)
    past = past_round_rows(tournament, range(1, latest))
    for number, rows in sorted(past.items()):
        for row in rows:
            history.setdefault(row[0], []).append((float(number), float(row[_RANK])))
    for team_id, number, rank in stored:
        if number == latest:
            history.setdefault(team_id, []).append((float(number), float(rank)))
    # Ordered by the latest rank, so the chart colours and the legend follow the standings.
    ordered = sorted(history.items(), key=lambda item: (item[1][-1][1], names.get(item[0], "")))
    return [(names.get(team_id, "?"), data) for team_id, data in ordered]
