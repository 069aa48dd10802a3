"""The Belote rule book (docs/rules.md): pure Python, standard library only, no Django."""

from . import codec
from .cards import Rank, Seat, Suit, Team
from .deal import Deal, DealResult, Outcome, Points
from .declarations import Declaration, Four, Sequence
from .match import DRAW, MatchReplay, PlayedDeal, Winner, play_match
from .problems import InvalidDeal, InvalidMatch, Problem
from .rules import (
    AllPass,
    BothReachTarget,
    DeclarationComparison,
    Direction,
    Draws,
    LitigeRule,
    Rounding,
    Rules,
    parse_rules,
)
from .score import score_deal, validate_deal

__all__ = [
    "DRAW",
    "AllPass",
    "BothReachTarget",
    "Deal",
    "DealResult",
    "Declaration",
    "DeclarationComparison",
    "Direction",
    "Draws",
    "Four",
    "InvalidDeal",
    "InvalidMatch",
    "LitigeRule",
    "MatchReplay",
    "Outcome",
    "PlayedDeal",
    "Points",
    "Problem",
    "Rank",
    "Rounding",
    "Rules",
    "Seat",
    "Sequence",
    "Suit",
    "Team",
    "Winner",
    "codec",
    "parse_rules",
    "play_match",
    "score_deal",
    "validate_deal",
]
