"""The prize list's arithmetic (docs/prizes.md): the `prizes` setting read and checked, the pool, and who wins what.

Pure: the standard library only, money as `Decimal`. The caller hands in the final standings
as `Placed` entries in rank order (ties share a rank) and the fees due; nothing here reads a
database or translates a word (a problem carries a code, `prizes.messages` words it).
"""

from .listing import prize_list, round_down
from .reading import prizes_problems, read_prizes
from .values import (
    CENT,
    ROUNDINGS,
    Award,
    InvalidPrizes,
    Line,
    Placed,
    PrizeList,
    Prizes,
    Problem,
)

__all__ = [
    "CENT",
    "ROUNDINGS",
    "Award",
    "InvalidPrizes",
    "Line",
    "Placed",
    "PrizeList",
    "Prizes",
    "Problem",
    "prize_list",
    "prizes_problems",
    "read_prizes",
    "round_down",
]
