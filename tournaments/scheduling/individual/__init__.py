"""The draw of one round of an individual tournament (mêlée): partnerships and tables of four.

Pure data in, pure data out; players are known by their ids. The caller leaves withdrawn
players out and hands each player's past (:class:`PlayerRecord`);
:func:`draw_individual_round` returns the tables and who sits out.

The rules (docs/formats.md):

1. **Sit-outs**: when the number of players is not a multiple of 4, 1 to 3 players sit
   out, among those who sat out least, so nobody sits out twice before everyone did once
   (a mêlée is a draw; the standings play no part). This is a rule, not a cost; which of
   those who sat out least sit out is the costs' to decide, then the lot's.
2. **Costs**, compared in this order: how many times partners of the round were already
   partners (summed over the partnerships); then how many times opponents of the round
   already faced each other (summed over the four pairs across each table); then, among
   draws equal on both, seat needs that clash least and the lot.
3. **Sides**: the partnership whose players sat NS more often (NS seats minus EW seats,
   summed) sits EW; equal balances by lot. Who of a partnership takes North (East) and who
   South (West) is drawn by lot; tables are numbered in draw order, also the lot's.

**The search.** The fewest repeated partners alone is a matching, solved exactly: a
minimum-cost perfect matching over every pair of players (costs: partners before; then
players who faced each other make partners by preference, as partners they cannot face
each other again; then seat needs; then the lot). Its total is the floor no draw goes
below. Tables of four are not pairs, so the fewest repeated opponents on top is a harder
problem; the draw goes in steps, each keeping only what costs less:

- a start: the tables are a second matching, of the partnerships, on their opponents'
  repeats;
- a local search (:func:`improve`): any two tables whose eight players can be seated at
  two tables for less (35 ways, each split into its best partnerships) are, until no two
  tables can be bettered; then the tables' matching over the partnerships found so far is
  tried again (a move across any number of tables);
- an iterated local search (:func:`perturbed`): up to ``KICK_PLAYERS // players`` times,
  three tables (one of them costing something) are shaken by lot and searched again; a
  draw costing no more than the current one is walked to, the cheapest is kept;
- with at most :data:`EXHAUSTIVE_PLAYERS` players in play, a complete branch-and-bound
  search (:func:`exhaustive`) over every way to seat them, within
  :data:`SEARCH_NODES` nodes.

Each fair choice of who sits out (up to ``SIT_OUT_PLAYERS // players`` of them, the lot's
first) gets the matchings and the local search; the ``SEARCHED_SIT_OUTS`` cheapest then get
the searches above, and a choice whose partners' floor cannot beat the best is passed over.

Every step stops at once when the draw costs the floor: no repeated partner beyond the
matching's and no repeated opponent, which is then the optimum. So the draw is **exact**
(proven) whenever it repeats no opponent; with two tables in play (the local search tries
every seating of eight) over every fair choice of who sits out; and with at most 16
players in play for the choices searched in full (every choice when there are at most
three), unless the complete search runs out of nodes (never in our checks). Otherwise
(17 to about 31 players, from about round 6 on, when every draw repeats opponents) it is
the best the searches found. Budgets are counts, never a clock, so the same inputs give
the same round on every machine. ``bench/melee_quality.py`` counts the rounds proven and
times the draws (figures in ``bench/NOTES.md``).
"""

from .draw import IndividualRound, IndividualTable, PlayerRecord, draw_individual_round

__all__ = ["IndividualRound", "IndividualTable", "PlayerRecord", "draw_individual_round"]
