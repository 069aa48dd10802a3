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

from .ranking import best_total
from .records import (
    HANDICAPS,
    POINTS,
    Cell,
    Evening,
    Line,
    Result,
    Rules,
    handicap_points,
    rules_problems,
)
from .table import series_table

__all__ = [
    "HANDICAPS",
    "POINTS",
    "Cell",
    "Evening",
    "Line",
    "Result",
    "Rules",
    "best_total",
    "handicap_points",
    "rules_problems",
    "series_table",
]
