"""Where the actions below were imported from before they got modules of their own.

Kept for the importers not yet moved (the API's views); new code imports from
`withdrawals`, `round_closing`, `table_referees` and `status`.
"""

from .round_closing import close_round, close_round_refusal, reopen_round, round_gaps
from .status import (
    finish_refusal,
    finish_tournament,
    publish_refusal,
    publish_tournament,
    set_status,
)
from .table_referees import assign_referee, assign_table_referee
from .withdrawals import reinstate_refusal, reinstate_team, withdraw_refusal, withdraw_team

__all__ = [
    "assign_referee",
    "assign_table_referee",
    "close_round",
    "close_round_refusal",
    "finish_refusal",
    "finish_tournament",
    "publish_refusal",
    "publish_tournament",
    "reinstate_refusal",
    "reinstate_team",
    "reopen_round",
    "round_gaps",
    "set_status",
    "withdraw_refusal",
    "withdraw_team",
]
