"""One function per action on tournaments, each in one transaction (design.md)."""

from .changes import record_change
from .deals import close_match, correct_deal, enter_deal, remove_last_deal, reopen_match, replay
from .director import assign_referee, close_round, reopen_round, set_status, withdraw_team
from .ratings import recompute_ratings
from .registration import register_players, register_team, register_teams
from .schedule import generate_round_robin
from .standings import recompute_standings

__all__ = [
    "close_match",
    "correct_deal",
    "enter_deal",
    "remove_last_deal",
    "reopen_match",
    "replay",
    "recompute_ratings",
    "recompute_standings",
    "record_change",
    "assign_referee",
    "close_round",
    "reopen_round",
    "set_status",
    "withdraw_team",
    "register_players",
    "register_team",
    "register_teams",
    "generate_round_robin",
]
