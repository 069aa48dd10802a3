"""A season's series table as pure arithmetic over plain evening records (no database).

A series ranks players over its evenings by the club's own rules (docs/seasons.md):

- an evening counts for a player by `points`: their game points (`score`), their match
  points, or the points of their place (`place_points`, `participation_points` beyond the
  list); players sharing a place each get the points of that (best) place;
- an evening the player missed is worth `absent_points` and competes for the best N like
  any other; only each player's best `best_of` evenings count (None: all);
- players with fewer than `min_evenings` evenings played are listed after the ranked ones,
  without a rank;
- ties: more evenings played, then the best single evening, then the points at the series'
  most recent evening; players equal on all of these share the rank;
- `needs`: the least points at the next evening (a `place` series: the least points of the
  place table) that give a strictly better rank, every other player scoring their own
  average and the rules applying in full to that projected table; None for the leader and
  when no score can do it;
- the handicap (`handicap` "rating"): a played evening's points plus `handicap_points` of
  the player's club rating before that evening, capped (the formula is `handicap_points`).

Everything here is `int` points but the projected averages, which stay exact `Fraction`s.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

POINTS = ("score", "match_points", "place")
HANDICAPS = ("none", "rating")
# The handicap: a player HANDICAP_SPAN rating points or more below the evening's best rated
# player gets the cap, a quarter (1 / HANDICAP_SHARE) of the evening's best points.
HANDICAP_SPAN = 20
HANDICAP_SHARE = 4
# Past this the search for `needs` in a score series gives up (no table needs so much).
_NEEDS_CEILING = 1 << 40

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class Rules:
    """A series' rules; the defaults are the spec's."""

    points: str = "place"
    place_points: tuple[int, ...] = ()
    participation_points: int = 0
    best_of: int | None = None
    absent_points: int = 0
    min_evenings: int = 0
    handicap: str = "none"

    def evening_points(self, result: Result) -> int:
        """What one played evening is worth to a player under these rules."""
        if self.points == "score":
            return result.score
        if self.points == "match_points":
            return result.match_points
        if 1 <= result.place <= len(self.place_points):
            return self.place_points[result.place - 1]
        return self.participation_points

    def place_values(self) -> list[int]:
        """The points a `place` series can give at an evening, least first."""
        return sorted({*self.place_points, self.participation_points})


def rules_problems(
    *,
    points: str,
    place_points: Sequence[int],
    participation_points: int,
    best_of: int | None,
    min_evenings: int,
    handicap: str,
) -> dict[str, str]:
    """Every problem of a series' rules: a code by field name (empty: the rules are good).

    The codes: `unknown` (a choice not offered), `below_one`, `negative`, `not_decreasing`,
    `missing` (a place series without place points). Callers word them (club.services).
    Any `absent_points` is good: a club may count a missed evening against a player.
    """
    problems: dict[str, str] = {}
    if points not in POINTS:
        problems["points"] = "unknown"
    if handicap not in HANDICAPS:
        problems["handicap"] = "unknown"
    if best_of is not None and best_of < 1:
        problems["best_of"] = "below_one"
    if min_evenings < 0:
        problems["min_evenings"] = "negative"
    if any(value < 0 for value in place_points):
        problems["place_points"] = "negative"
    elif any(a <= b for a, b in pairwise(place_points)):
        problems["place_points"] = "not_decreasing"
    elif points == "place" and not place_points:
        problems["place_points"] = "missing"
    if participation_points < 0:
        problems["participation_points"] = "negative"
    return problems


@dataclass(frozen=True, slots=True)
class Result:
    """A player's result at one evening: their game points, match points and place."""

    player_id: int
    score: int = 0
    match_points: int = 0
    place: int = 0


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of the series with results: its tournament, whether its results are
    final, each player's result, and the players' club ratings before it (for the handicap)."""

    tournament_id: int
    results: tuple[Result, ...]
    final: bool = True
    ratings: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Cell:
    """What one evening is worth to a player: `points` (scratch) and `handicap_points`, and
    whether each counts in its table's total."""

    tournament_id: int
    points: int
    played: bool
    counted: bool = False
    handicap_points: int = 0
    handicap_counted: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line in the series table, in the table's order."""

    player_id: int
    rank: int | None
    shared_rank: bool
    played: int
    total: int
    cells: tuple[Cell, ...]
    handicap_total: int
    handicap_rank: int | None
    needs: int | None
    # The player's rank after each evening (None: not ranked then), for the chart.
    ranks: tuple[int | None, ...] = ()


def handicap_points(rating: float | None, best_rating: float | None, best_points: int) -> int:
    """The handicap a player gets at one evening (docs/seasons.md):

        floor(best_points × min(best_rating − rating, HANDICAP_SPAN) / (HANDICAP_SPAN × HANDICAP_SHARE))

    where `best_rating` is the highest club rating before the evening among its rated
    players and `best_points` the evening's highest points. So the best rated player gets
    0, and no one more than a quarter of the evening's best points. A player without a
    rating before the evening gets 0.
    """
    if rating is None or best_rating is None or best_points <= 0:
        return 0
    gap = min(max(best_rating - rating, 0.0), float(HANDICAP_SPAN))
    return int(best_points * gap // (HANDICAP_SPAN * HANDICAP_SHARE))


def best_total(values: Sequence[Number], best_of: int | None) -> Number:
    """The sum of the best `best_of` values (all when None)."""
    if best_of is None or best_of >= len(values):
        return sum(values, 0)
    return sum(sorted(values, reverse=True)[:best_of], 0)


def _mark_counted(values: Sequence[int], played: Sequence[bool], best_of: int | None) -> list[bool]:
    """Which evenings count: the best `best_of`; among equal values a played evening before a
    missed one, then the earlier evening."""
    if best_of is None or best_of >= len(values):
        return [True] * len(values)
    order = sorted(range(len(values)), key=lambda i: (-values[i], not played[i], i))
    chosen = set(order[:best_of])
    return [i in chosen for i in range(len(values))]


# A sort key: smaller is better. Total, evenings played, best single evening, last evening.
Key = tuple[Number, int, Number, Number]


def _key(total: Number, played: int, best: Number, last: Number) -> Key:
    return (-total, -played, -best, -last)


@dataclass(slots=True)
class _Player:
    player_id: int
    values: list[int]  # per evening, scratch (absent_points when missed)
    handicapped: list[int]  # per evening, with the handicap
    played: list[bool]

    @property
    def played_count(self) -> int:
        return sum(self.played)

    def best_played(self, values: Sequence[int]) -> int:
        return max((v for v, p in zip(values, self.played, strict=True) if p), default=0)

    def key(self, values: Sequence[int], best_of: int | None) -> Key:
        return _key(
            best_total(values, best_of),
            self.played_count,
            self.best_played(values),
            values[-1] if values else 0,
        )


def _ranks(keys: Mapping[int, Key], eligible: Iterable[int]) -> dict[int, tuple[int, bool]]:
    """Competition ranks (1, 2, 2, 4) of the eligible players by key, and whether shared."""
    ordered = sorted(eligible, key=lambda pid: keys[pid])
    found: dict[int, tuple[int, bool]] = {}
    for index, pid in enumerate(ordered):
        if index and keys[ordered[index - 1]] == keys[pid]:
            found[pid] = (found[ordered[index - 1]][0], True)
        else:
            found[pid] = (index + 1, False)
    for index, pid in enumerate(ordered[:-1]):
        if keys[ordered[index + 1]] == keys[pid]:
            found[pid] = (found[pid][0], True)
    return found


def _players(evenings: Sequence[Evening], rules: Rules) -> dict[int, _Player]:
    """Each player with an evening in the series, with what every evening is worth to them."""
    count = len(evenings)
    players: dict[int, _Player] = {}
    for index, evening in enumerate(evenings):
        points = {r.player_id: rules.evening_points(r) for r in evening.results}
        best_points = max(points.values(), default=0)
        rated = [evening.ratings[pid] for pid in points if pid in evening.ratings]
        best_rating = max(rated) if rated else None
        for pid, value in points.items():
            player = players.get(pid)
            if player is None:
                player = players[pid] = _Player(
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
    players = _players(evenings, rules)
    best_of = rules.best_of
    eligible = [p.player_id for p in players.values() if p.played_count >= rules.min_evenings]
    keys = {pid: p.key(p.values, best_of) for pid, p in players.items()}
    ranks = _ranks(keys, eligible)
    handicap_ranks: dict[int, tuple[int, bool]] = {}
    if rules.handicap == "rating":
        handicap_keys = {pid: p.key(p.handicapped, best_of) for pid, p in players.items()}
        handicap_ranks = _ranks(handicap_keys, eligible)
    needs = _needs(players, rules, keys, ranks)
    histories = _histories(players, len(evenings), rules) if history else {}
    lines = []
    for pid, player in players.items():
        counted = _mark_counted(player.values, player.played, best_of)
        handicap_counted = _mark_counted(player.handicapped, player.played, best_of)
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


def _histories(
    players: Mapping[int, _Player], count: int, rules: Rules
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
            keys[pid] = _key(total, played[pid], best[pid], value)
            if played[pid] >= rules.min_evenings:
                eligible.append(pid)
        ranks = _ranks(keys, eligible)
        for pid, history in found.items():
            history.append(ranks.get(pid, (None, False))[0])
    return {pid: tuple(history) for pid, history in found.items()}


def _average(player: _Player) -> Fraction:
    played = [v for v, p in zip(player.values, player.played, strict=True) if p]
    return Fraction(sum(played), len(played)) if played else Fraction(0)


def _projector(player: _Player, best_of: int | None) -> Callable[[Number], Key]:
    """The player's key after one more evening, played and worth `x`, as a function of `x`
    (what does not depend on `x` worked out once)."""
    values = player.values
    played = player.played_count + 1
    best_so_far = player.best_played(values) if player.played_count else None
    if best_of is None or best_of > len(values):
        base = sum(values)

        def key(x: Number) -> Key:
            best = x if best_so_far is None else max(best_so_far, x)
            return _key(base + x, played, best, x)

        return key
    top = sorted(values, reverse=True)[:best_of]
    top_sum, weakest = sum(top), top[-1]

    def key_best_of(x: Number) -> Key:
        total = top_sum - weakest + x if x > weakest else top_sum
        best = x if best_so_far is None else max(best_so_far, x)
        return _key(total, played, best, x)

    return key_best_of


def _needs(
    players: Mapping[int, _Player],
    rules: Rules,
    keys: Mapping[int, Key],
    ranks: Mapping[int, tuple[int, bool]],
) -> dict[int, int | None]:
    """Each player's `needs` (see the module's docstring).

    Every other player's projected line is the same whoever is asking (they score their own
    average), so those lines are built and sorted once; a player's projected rank with `x`
    points is then one bisection, and it only gets better as `x` grows, so the least `x` is
    found by a search over the place table or by doubling then halving.
    """
    best_of = rules.best_of
    min_evenings = rules.min_evenings
    projected = {pid: _projector(p, best_of)(_average(p)) for pid, p in players.items()}
    eligible = {pid for pid, p in players.items() if p.played_count + 1 >= min_evenings}
    ordered = sorted(projected[pid] for pid in eligible)
    found: dict[int, int | None] = {}
    for pid, player in players.items():
        current = ranks.get(pid)
        if current is not None and current[0] == 1:
            found[pid] = None  # the leader (or a leader sharing first place)
            continue
        if player.played_count + 1 < min_evenings:
            found[pid] = None  # not ranked after one more evening, whatever the score
            continue
        own = projected[pid] if pid in eligible else None

        project = _projector(player, best_of)

        def better(
            x: int,
            project: Callable[[Number], Key] = project,
            own: Key | None = own,
            current: tuple[int, bool] | None = current,
        ) -> bool:
            mine = project(x)
            ahead = bisect_left(ordered, mine) - (1 if own is not None and own < mine else 0)
            # Unranked now: any rank is better than none.
            return current is None or ahead + 1 < current[0]

        found[pid] = _least(better, rules)
    return found


def _least(better: Callable[[int], bool], rules: Rules) -> int | None:
    if rules.points == "place":
        return next((x for x in rules.place_values() if better(x)), None)
    if better(0):
        return 0
    high = 1
    while not better(high):
        if high > _NEEDS_CEILING:
            return None
        high *= 2
    low = high // 2  # not enough (or 0, checked above)
    while high - low > 1:
        middle = (low + high) // 2
        if better(middle):
            high = middle
        else:
            low = middle
    return high
