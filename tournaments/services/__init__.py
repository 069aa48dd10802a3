"""One function per action on tournaments, each in one transaction (design.md)."""

from .changes import record_change
from .deals import close_match, correct_deal, enter_deal, remove_last_deal, reopen_match, replay

__all__ = [
    "close_match",
    "correct_deal",
    "enter_deal",
    "remove_last_deal",
    "reopen_match",
    "replay",
    "record_change"]
