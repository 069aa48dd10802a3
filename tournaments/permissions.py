"""Who may do what (tournament.md): directors of a club, the referee of a match, everyone else."""

from __future__ import annotations

from typing import Any

from club.models import Club, directs_club

from .models import Match


def is_director(user: Any, club: Club | int) -> bool:
    """A director (staff) of the club; a site admin counts as director of every club."""
    return directs_club(user, club if isinstance(club, int) else club.pk)


def is_referee_of(user: Any, match: Match) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and match.referee_id == user.pk


def can_write_deals(user: Any, match: Match) -> bool:
    """The match's referee while no director has closed it, or a director of the club."""
    if is_director(user, match.tournament.club_id):
        return True
    return is_referee_of(user, match) and not match.is_closed and not match.is_bye


def can_read_tournament(user: Any, tournament: Any) -> bool:
    return bool(tournament.is_public) or is_director(user, tournament.club_id)
