"""Reads shared by the pages, the API and the template tags (services push, selectors pull).

Each returns plain rows or model instances in a fixed number of queries, whatever the size
of the tournament; a template tag runs none of its own. Callers use `selectors.<name>`.
"""

# A mêlée's reads are `selectors.individual.<name>`, who plays tonight
# `selectors.players.<name>`; the knockout final's are named here too.
from . import individual as individual
from . import players as players
from .evening_changes import (
    WithdrawalPreview,
    calls,
    open_calls,
    opponent_of,
    substitute_choices,
    substitutions,
    substitutions_by_team,
    withdrawal_preview,
)
from .knockout import BracketColumn as BracketColumn
from .knockout import KnockoutProgress as KnockoutProgress
from .knockout import bracket_columns as bracket_columns
from .knockout import final_ranking as final_ranking
from .knockout import knockout_progress as knockout_progress
from .live import (
    LIVE_SOURCE,
    last_update,
    matches_in_play,
    state_of,
)
from .people import (
    NAME_MATCH_CUTOFF,
    find_players,
    latest_line,
    next_row,
    player_next,
    player_teams,
    team_match_row,
    team_rows,
)
from .standings import (
    StandingsView,
    rank_history,
    standings_after,
    standings_version,
)
from .tournament import (
    SEATED,
    TeamsInSchedule,
    current_round_number,
    disputes,
    entrants_with_players,
    matches_of_rounds,
    open_round_numbers,
    rounds_not_drawn,
    rounds_with_progress,
    sheet_rows,
    tables,
    teams_in_schedule,
    teams_with_deals,
    teams_with_players,
    tie_break_labels,
    waiting_calls,
)

__all__ = [
    "LIVE_SOURCE",
    "NAME_MATCH_CUTOFF",
    "SEATED",
    "BracketColumn",
    "KnockoutProgress",
    "StandingsView",
    "TeamsInSchedule",
    "WithdrawalPreview",
    "bracket_columns",
    "calls",
    "current_round_number",
    "disputes",
    "entrants_with_players",
    "final_ranking",
    "find_players",
    "knockout_progress",
    "last_update",
    "latest_line",
    "matches_in_play",
    "matches_of_rounds",
    "next_row",
    "open_calls",
    "open_round_numbers",
    "opponent_of",
    "player_next",
    "player_teams",
    "rank_history",
    "rounds_not_drawn",
    "rounds_with_progress",
    "sheet_rows",
    "standings_after",
    "standings_version",
    "state_of",
    "substitute_choices",
    "substitutions",
    "substitutions_by_team",
    "tables",
    "team_match_row",
    "team_rows",
    "teams_in_schedule",
    "teams_with_deals",
    "teams_with_players",
    "tie_break_labels",
    "waiting_calls",
    "withdrawal_preview",
]
