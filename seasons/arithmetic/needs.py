"""`needs`: the least points at the next evening that give a player a strictly better rank,
every other player scoring their own average (exact fractions)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from fractions import Fraction

from .ranking import Key, PlayerEvenings, sort_key
from .records import Number, Rules

# Past this the search for `needs` in a score series gives up (no table needs so much).
_NEEDS_CEILING = 1 << 40


def average(player: PlayerEvenings) -> Fraction:
    played = [v for v, p in zip(player.values, player.played, strict=True) if p]
    return Fraction(sum(played), len(played)) if played else Fraction(0)


def projector(player: PlayerEvenings, best_of: int | None) -> Callable[[Number], Key]:
    """The player's key after one more evening, played and worth `x`, as a function of `x`
    (what does not depend on `x` worked out once)."""
    values = player.values
    played = player.played_count + 1
    best_so_far = player.best_played(values) if player.played_count else None
    if best_of is None or best_of > len(values):
        base = sum(values)

        def key(x: Number) -> Key:
            best = x if best_so_far is None else max(best_so_far, x)
            return sort_key(base + x, played, best, x)

        return key
    top = sorted(values, reverse=True)[:best_of]
    top_sum, weakest = sum(top), top[-1]

    def key_best_of(x: Number) -> Key:
        total = top_sum - weakest + x if x > weakest else top_sum
        best = x if best_so_far is None else max(best_so_far, x)
        return sort_key(total, played, best, x)

    return key_best_of


def needs_of(
    players: Mapping[int, PlayerEvenings],
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
    projected = {pid: projector(p, best_of)(average(p)) for pid, p in players.items()}
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

        project = projector(player, best_of)

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

        found[pid] = least(better, rules)
    return found


def least(better: Callable[[int], bool], rules: Rules) -> int | None:
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
