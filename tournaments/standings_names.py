"""The names a standings line is made of, in one place: the model, the arithmetic and every output read them.

Kept free of the ORM so that the standings arithmetic (tournaments.services.standings_rows)
and the model can both import it.
"""

from __future__ import annotations

# A line's figures, in the order every output lists them (Standing has one column each).
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
    "deals",
    "contracts_taken",
    "contracts_made",
    "contracts_dedans",
    "capots",
    "belotes",
    "litiges",
)
