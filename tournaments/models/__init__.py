"""Tournaments, teams, rounds, matches and deals; standings and the audit trail derived from them."""

from .bracket import Bracket
from .choices import Outcome, Seat, Side
from .deal import Deal, DealAudit, MatchEvent, Submission
from .match import Match, MatchSeat
from .standing import Standing
from .table import MatchConfirmation, RefereeLink
from .tournament import Round, Team, Tournament, default_tie_breaks

__all__ = [
    "Bracket",
    "Deal",
    "DealAudit",
    "Match",
    "MatchConfirmation",
    "MatchEvent",
    "MatchSeat",
    "Outcome",
    "RefereeLink",
    "Round",
    "Seat",
    "Side",
    "Standing",
    "Submission",
    "Team",
    "Tournament",
    "default_tie_breaks",
]
