"""The figures a standings line is made of, in the order every output lists them (no ORM)."""

from __future__ import annotations

# Standing has one column for each; the API, the pages and the CSV export list them in this order.
FIGURES = (
    "played",
    "won",
    "drawn",
    "lost",
    "match_points",
    "points_for",
    "points_against",
    "point_difference",
    "sonneborn_berger",
    "buchholz",
    "deals",
    "contracts_taken",
    "contracts_made",
    "contracts_dedans",
    "capots",
    "belotes",
    "litiges",
)
# What a stored line holds besides its figures; `in_play`: the matches of the live table
# counted on their current totals (0 in every after-round table).
PLACING = ("withdrawn", "rank", "shared_rank", "in_play")
# The live table is stored under this round number. No round has it (rounds count from 1),
# so the after-round tables keep their keys, the store writes and prunes the live rows like
# any other, and "the latest round" (the highest number) is never the live table. It exists
# only while a match is in play; otherwise the live table is the latest after-round table.
LIVE_ROUND = 0
ROW_FIELDS = (*FIGURES, *PLACING)
