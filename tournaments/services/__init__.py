"""One function per action on tournaments, each in one transaction (docs/architecture.md)."""

from .deals import (
    close_match,
    correct_deal,
    enter_deal,
    remove_deal,
    remove_last_deal,
    reopen_match,
    replay,
)
from .draws import delete_last_round, draw_next_round, next_round
from .finals import start_final
from .ratings import recompute_ratings
from .registration import register_team, register_teams
from .round_closing import close_round, reopen_round
from .schedule import generate_round_robin
from .settings import create_tournament, update_tournament
from .status import set_status
from .table_referees import assign_referee
from .withdrawals import withdraw_team

__all__ = [
    "assign_referee",
    "close_match",
    "close_round",
    "correct_deal",
    "create_tournament",
    "delete_last_round",
    "draw_next_round",
    "enter_deal",
    "generate_round_robin",
    "next_round",
    "recompute_ratings",
    "register_team",
    "register_teams",
    "remove_deal",
    "remove_last_deal",
    "reopen_match",
    "reopen_round",
    "replay",
    "set_status",
    "start_final",
    "update_tournament",
    "withdraw_team",
]
