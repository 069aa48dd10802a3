"""A tournament's standings arithmetic: the figures of a line, the tie-break criteria, the table.

Free of the ORM (the model and the forms read them); `services.standings` reads the stored
results and writes the Standing rows.
"""

from .criteria import CRITERIA, DEFAULT_TIE_BREAKS, Criterion
from .lines import Line, MatchResult, SideStats, TeamInfo
from .match_figures import winner_of
from .names import FIGURES, ROW_FIELDS
from .table import compute_standings

__all__ = [
    "CRITERIA",
    "DEFAULT_TIE_BREAKS",
    "FIGURES",
    "ROW_FIELDS",
    "Criterion",
    "Line",
    "MatchResult",
    "SideStats",
    "TeamInfo",
    "compute_standings",
    "winner_of",
]
