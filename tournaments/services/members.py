"""The tournaments' part of a merge and an erasure of a member (club.hooks): the names copied
into teams and drawn partnerships follow the person's record (online registrations are
entries', which scrubs them on the same signal)."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Q

from club.models import Player
from club.privacy import ERASED_FIRST_NAME

from ..models import Team


def _replaced(text: str, old: str, new: str) -> str:
    if not old.strip():
        return text
    return re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", new, text)


def _rename_teams(teams: Any, names: list[tuple[str, str]]) -> set[int]:
    """Rewrite each team's name, every (old, new) in turn; the tournaments touched."""
    touched: set[int] = set()
    changed = []
    for team in teams:
        name = team.name
        for old, new in names:
            name = _replaced(name, old, new)
        limit = Team._meta.get_field("name").max_length or len(name)
        name = name if len(name) <= limit else name[: limit - 1] + "…"
        if name != team.name:
            team.name = name
            changed.append(team)
            touched.add(team.tournament_id)
    Team.objects.bulk_update(changed, ["name"])
    return touched


def rename_after_merge(first: Player, second: Player) -> set[int]:
    """The teams of the record kept that carried the second record's name (its typo) carry
    the first's now; the tournaments touched (their pages are published again)."""
    names = [(second.full_name, first.full_name)]
    if second.last_name and second.last_name != first.last_name:
        names.append((second.last_name, first.last_name))
    teams = Team.objects.filter(Q(first_player=first) | Q(second_player=first))
    return _rename_teams(teams, names)


def erased_name_pairs(player: Player, names: list[str]) -> list[tuple[str, str]]:
    """What an erasure replaces in text: each full name the person had, then its last name
    alone (a team named "Dupont – Martin"), by "Former member N"."""
    replacement = f"{ERASED_FIRST_NAME} {player.pk}"
    pairs: list[tuple[str, str]] = []
    for full in names:
        pairs.append((full, replacement))
        if len(full.split()) > 1:
            pairs.append((full.split()[-1], replacement))
    return pairs


def scrub_erased_names(player: Player, names: list[str]) -> set[int]:
    """The erased member's name out of every team and drawn partnership named after them;
    the tournaments touched."""
    teams = Team.objects.filter(Q(first_player=player) | Q(second_player=player))
    return _rename_teams(teams, erased_name_pairs(player, names))
