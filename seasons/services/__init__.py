"""The actions on seasons and series: setting them (seasons.py) and storing their tables
(tables.py)."""

from .seasons import (
    delete_series,
    evening_series_problems,
    save_season,
    save_series,
    season_of,
    set_evening_series,
)
from .tables import handicap_series_of_club, recompute_series, series_of_tournament

__all__ = [
    "delete_series",
    "evening_series_problems",
    "handicap_series_of_club",
    "recompute_series",
    "save_season",
    "save_series",
    "season_of",
    "series_of_tournament",
    "set_evening_series",
]
