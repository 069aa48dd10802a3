"""The names a standings line is made of: its figures and tie-breaks, read by the model, the arithmetic and every output.

Kept free of the ORM (labels are lazy) so that the standings arithmetic (tournaments.services.standings_rows)
and the model can both import it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# The criteria that order teams level on the ones before, each "more is better"; the
# arithmetic (tournaments.services.standings_rows) implements exactly these.
TIE_BREAKS: dict[str, Any] = {
    "match_points": _("match points"),
    "head_to_head": _("head-to-head among the tied teams"),
    "point_difference": _("point difference"),
    "points_for": _("points for"),
    "wins": _("matches won"),
    "sonneborn_berger": _("Sonneborn–Berger"),
}
DEFAULT_TIE_BREAKS = ("match_points", "head_to_head", "point_difference", "points_for")

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
