"""The series table: each player's evenings, total, rank, handicap and `needs`."""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence

from .needs import needs_of
from .ranking import Key, PlayerEvenings, best_total, mark_counted, ranks_of, sort_key
from .records import Cell, Evening, Line, Rules, handicap_points


def players_of(evenings: Sequence[Evening], rules: Rules) -> dict[int, PlayerEvenings]:
    """Each player with an evening in the series, with what every evening is worth to them."""
    count = len(evenings)
    players: dict[int, PlayerEvenings] = {}
    for index, evening in enumerate(evenings):
        points = {r.player_id: rules.evening_points(r) for r in evening.results}
        best_points = max(points.values(), default=0)
        rated = [evening.ratings[pid] for pid in points if pid in evening.ratings]
        best_rating = max(rated) if rated else None
        for pid, value in points.items():
            player = players.get(pid)
            if player is None:
                player = players[pid] = PlayerEvenings(
                    pid,
                    [rules.absent_points] * count,
                    [rules.absent_points] * count,
                    [False] * count,
                )
            player.values[index] = value
            player.played[index] = True
            bonus = 0
            if rules.handicap == "rating":
                bonus = handicap_points(evening.ratings.get(pid), best_rating, best_points)
            player.handicapped[index] = value + bonus
    return players


def series_table(evenings: Sequence[Evening], rules: Rules, *, history: bool = True) -> list[Line]:
    """The series table after `evenings` (in the order they were played): the ranked players
    by rank, then those under `min_evenings`, each group in the tie order, then by id.

    `history`: also each player's rank after every earlier evening (for the chart).
    """
    players = players_of(evenings, rules)
    best_of = rules.best_of
    eligible = [p.player_id for p in players.values() if p.played_count >= rules.min_evenings]
    keys = {pid: p.key(p.values, best_of) for pid, p in players.items()}
    ranks = ranks_of(keys, eligible)
    # Without a handicap the handicap table is the scratch table (its totals are the scratch
    # totals already): the same ranks, not none.
    handicap_ranks = ranks
    if rules.handicap == "rating":
        handicap_keys = {pid: p.key(p.handicapped, best_of) for pid, p in players.items()}
        handicap_ranks = ranks_of(handicap_keys, eligible)
    needs = needs_of(players, rules, keys, ranks)
    histories = rank_histories(players, len(evenings), rules) if history else {}
    lines = []
    for pid, player in players.items():
        counted = mark_counted(player.values, player.played, best_of)
        handicap_counted = mark_counted(player.handicapped, player.played, best_of)
        cells = tuple(
            Cell(
                tournament_id=evening.tournament_id,
                points=player.values[i],
                played=player.played[i],
                counted=counted[i],
                handicap_points=player.handicapped[i],
                handicap_counted=handicap_counted[i],
            )
            for i, evening in enumerate(evenings)
        )
        rank, shared = ranks.get(pid, (None, False))
        lines.append(
            Line(
                player_id=pid,
                rank=rank,
                shared_rank=shared,
                played=player.played_count,
                total=int(best_total(player.values, best_of)),
                cells=cells,
                handicap_total=int(best_total(player.handicapped, best_of)),
                handicap_rank=handicap_ranks.get(pid, (None, False))[0],
                needs=needs.get(pid),
                ranks=histories.get(pid, ()),
            )
        )
    lines.sort(key=lambda line: (line.rank is None, keys[line.player_id], line.player_id))
    return lines


def rank_histories(
    players: Mapping[int, PlayerEvenings], count: int, rules: Rules
) -> dict[int, tuple[int | None, ...]]:
    """Each player's rank after every evening (None before their first or while unranked),
    each player's figures carried from one evening to the next."""
    best_of = rules.best_of
    found: dict[int, list[int | None]] = {pid: [] for pid in players}
    seen: dict[int, list[int]] = {pid: [] for pid in players}  # the values so far, sorted
    played = dict.fromkeys(players, 0)
    best = dict.fromkeys(players, 0)
    for index in range(count):
        keys: dict[int, Key] = {}
        eligible = []
        for pid, player in players.items():
            value = player.values[index]
            insort(seen[pid], value)
            if player.played[index]:
                best[pid] = value if not played[pid] else max(best[pid], value)
                played[pid] += 1
            if not played[pid]:
                continue
            values = seen[pid]
            total = sum(values[-best_of:]) if best_of is not None else sum(values)
            keys[pid] = sort_key(total, played[pid], best[pid], value)
            if played[pid] >= rules.min_evenings:
                eligible.append(pid)
        ranks = ranks_of(keys, eligible)
        for pid, history in found.items():
            history.append(ranks.get(pid, (None, False))[0])
    return {pid: tuple(history) for pid, history in found.items()}
