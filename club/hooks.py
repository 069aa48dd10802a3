"""What the apps above club plug into its members' actions: the signals club sends after a
merge or an erasure, and the reads club asks of them (club imports none of them).

An app above subscribes in its `AppConfig.ready` (`member_merged.connect(...)`, `HOOKS.add(...)`)
as tournaments does with its change hook: club knows what it asks, never who answers.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

# Sent inside the merge's transaction, once every row naming `second` names `first`:
# (sender=Player, first=<Player>, second=<Player>, clubs=<club ids of either>). Subscribers
# recompute what they derived (ratings, series, standings' names).
member_merged = Signal()

# Sent inside the erasure's transaction: (sender=Player, player=<Player>, names=[the full
# names it had]). Subscribers scrub copies of the name stored in their rows (a team named
# after its players, an online registration's text).
member_erased = Signal()


class Hooks:
    """Reads club asks of the apps above it, each answered by whoever registered it.

    - `merge_refusals`: callables (first, second) -> a reason (str) or None; the first reason
      refuses the merge (`played_together`).
    - `evenings`: one callable (club_id, player_ids) -> {player_id: (evenings, last date)}.
    """

    def __init__(self) -> None:
        self.merge_refusals: list[Callable[[Any, Any], tuple[str, str] | None]] = []
        self.evenings: Callable[[int, list[int]], dict[int, tuple[int, datetime.date | None]]] = (
            lambda club_id, player_ids: {}
        )

    def add_merge_refusal(self, refusal: Callable[[Any, Any], tuple[str, str] | None]) -> None:
        if refusal not in self.merge_refusals:
            self.merge_refusals.append(refusal)


HOOKS = Hooks()
