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
# What a stored line holds besides its figures.
PLACING = ("withdrawn", "rank", "shared_rank")
ROW_FIELDS = (*FIGURES, *PLACING)
