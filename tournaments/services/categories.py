"""An entry's category tag (Ladies, Youth…), which a category prize line names (docs/prizes.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from club.text import hidden_character_problem

from ..changes import changing
from ..errors import ServiceError
from ..models import Entry, MatchEvent, Team
from ..permissions import require_director
from .registration import require_registered

CATEGORY_MAX_LENGTH: int = Team._meta.get_field("category").max_length  # type: ignore[assignment]


def set_category(entry: Entry, *, by: Any, category: str) -> Entry:
    """Tag a team (or a mêlée's player) with a category; empty: none. Any time: a tag only
    moves category prizes, and the prize list follows (a change is recorded)."""
    tournament = entry.tournament
    require_director(by, tournament.club_id)
    if isinstance(entry, Team):
        require_registered(entry)
    tag = " ".join(str(category).split())
    if len(tag) > CATEGORY_MAX_LENGTH:
        raise ServiceError(
            _("A category has at most %(n)d characters.") % {"n": CATEGORY_MAX_LENGTH},
            field="category",
        )
    if problem := hidden_character_problem(tag, label=_("The category")):
        raise ServiceError(problem, field="category")
    if tag == entry.category:
        return entry
    with changing(tournament.pk):
        entry.category = tag
        entry.save(update_fields=["category"])
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.EDIT_TEAM,
            detail=_("%(entry)s: category “%(category)s”") % {"entry": entry, "category": tag},
            by=by,
        )
    return entry
