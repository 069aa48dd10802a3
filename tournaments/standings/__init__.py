"""A tournament's standings: the figures of a line, the tie-break criteria, the table and its store.

`names` and `criteria` and `table` are free of the ORM (the model and the forms read them);
`store` reads the stored results and writes the Standing rows.
"""

from .criteria import CRITERIA, DEFAULT_TIE_BREAKS, Criterion
from .names import FIGURES, ROW_FIELDS
from .table import Line, MatchResult, SideStats, TeamInfo, compute_standings, winner_of

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
