"""Tournaments, teams, rounds, matches and deals; standings and the audit trail derived from them."""

from .bracket import Bracket
from .checkin import Attendance, Payment
from .choices import Outcome, Seat, Side, seat_of
from .deal import Deal, DealAudit, MatchEvent, Submission
from .entrant import Entrant, SitOut
from .entry import Entry
from .lineup import DirectorCall, Substitution
from .match import Match
from .match_seats import SEATS_PREFETCH, MatchSeat
from .standing import Standing
from .table import MatchConfirmation, RefereeLink
from .tournament import Round, Team, Tournament, default_tie_breaks

__all__ = [
    "SEATS_PREFETCH",
    "Attendance",
    "Bracket",
    "Deal",
    "DealAudit",
    "DirectorCall",
    "Entrant",
    "Entry",
    "Match",
    "MatchConfirmation",
    "MatchEvent",
    "MatchSeat",
    "Outcome",
    "Payment",
    "RefereeLink",
    "Round",
    "Seat",
    "Side",
    "SitOut",
    "Standing",
    "Submission",
    "Substitution",
    "Team",
    "Tournament",
    "default_tie_breaks",
    "seat_of",
]
