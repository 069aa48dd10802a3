"""What follows a storing of the standings (tournaments.changes.standings_stored): the prize list."""

from __future__ import annotations

import logging
from typing import Any

from .services import recompute_prize_list

log = logging.getLogger(__name__)


def on_standings_stored(sender: Any = None, *, tournament_id: int, **kwargs: Any) -> None:
    """Recompute the prize list (connected in apps.py); a failure leaves the standings be."""
    try:
        recompute_prize_list(tournament_id)
    except Exception:
        # The standings are committed; the next change (or storing) computes the list again.
        log.exception("prize list of tournament %s failed", tournament_id)
