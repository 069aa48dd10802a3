"""Registering a club's players from pasted names, and reading names: the club's part of registration."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from rapidfuzz import fuzz, process, utils

from .errors import ServiceError
from .models import Club, Membership, Player
from .permissions import require_club_director

NAME_PART_MAX = 80
# Letters of any alphabet, spaces, apostrophes, hyphens and dots: "Jean-Luc d'Arcy Jr."
_NAME = re.compile(r"^[^\W\d_]+(?:[ '’.-]+[^\W\d_]+)*\.?$")


@dataclass(frozen=True, slots=True)
class LineProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return _("line %(line)d: %(message)s") % {"line": self.line, "message": self.message}


class RegistrationRefused(ServiceError):
    """Pasted lines with mistakes; nothing was registered. `problems` name each line."""

    code = "invalid_lines"

    def __init__(self, problems: list[LineProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(map(str, self.problems)), field="text")

    def errors(self) -> dict[str, list[str]]:
        return {self.field: [str(problem) for problem in self.problems]}


def split_name(text: str) -> tuple[str, str]:
    """ "Marie de la Fontaine" → ("Marie", "de la Fontaine"); "Fontaine, Marie" too."""
    text = " ".join(text.split())
    if "," in text:
        last, _sep, first = text.partition(",")
        return first.strip(), last.strip()
    first, _sep, last = text.partition(" ")
    return first, last


def name_problem(text: str) -> str | None:
    """Why `text` is not a person's name, or None."""
    first, last = split_name(text)
    if not first:
        return _("a name is missing")
    for part in (first, last):
        if len(part) > NAME_PART_MAX:
            return _("“%(name)s” is too long") % {"name": part[:20] + "…"}
    if not all(_NAME.match(word) for word in (first, last) if word):
        return _("“%(name)s” is not a name (letters, spaces, hyphens and apostrophes only)") % {
            "name": text
        }
    return None


def members_named(club: Club, text: str) -> list[Player]:
    """The club's players of that name, ignoring case and spacing (at most two: enough to tell)."""
    first, last = split_name(text)
    return list(
        Player.objects.filter(
            memberships__club=club, first_name__iexact=first, last_name__iexact=last
        )[:2]
    )


def find_member(club: Club, text: str) -> Player | None:
    """The club's player of that name; None if there is none or more than one."""
    found = members_named(club, text)
    return found[0] if len(found) == 1 else None


def ambiguity(club: Club, text: str) -> str | None:
    if len(members_named(club, text)) > 1:
        return _("the club has several members called %(name)s; register that team alone") % {
            "name": text
        }
    return None


def find_or_create_member(club: Club, text: str) -> Player:
    player = find_member(club, text)
    if player is None:
        first, last = split_name(text)
        player = Player.objects.create(first_name=first, last_name=last)
        Membership.objects.create(club=club, player=player, role=Membership.Role.MEMBER)
    return player


def pasted_lines(text: str) -> list[tuple[int, str]]:
    """Numbered non-blank lines; a line starting with # is a comment."""
    return [
        (number, line.strip())
        for number, line in enumerate((text or "").splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#")
    ]


# --- new members: found, new, or close to a member (a typo?) ------------------------------

# How alike two names must be (rapidfuzz's token sort ratio, 0-100) to ask whether they are
# the same person: "Marie Lecler" and "Marie Leclerc" score 96, "Anne Roux" and "Anna Roux"
# 89, "Luc Martin" and "Marc Martin" 76.
SIMILAR_NAME_CUTOFF = 85

# What a registration does with names that are not the club's members yet.
CREATE = "create"  # create them (a script, the demo, a confirmed form)
ASK = "ask"  # refuse with NewMembersToConfirm if there is any
ASK_IF_SIMILAR = "ask_if_similar"  # refuse only if one is close to a member's name
NEW_MEMBERS = (CREATE, ASK, ASK_IF_SIMILAR)


@dataclass(frozen=True, slots=True)
class NewName:
    """A name that would become a new member, and the members whose names are close to it."""

    name: str
    similar: tuple[Player, ...] = ()

    def __str__(self) -> str:
        if not self.similar:
            return _("%(name)s (new member)") % {"name": self.name}
        return _("%(name)s (new member; close to %(members)s)") % {
            "name": self.name,
            "members": ", ".join(p.full_name for p in self.similar),
        }


@dataclass(frozen=True, slots=True)
class NamesPlan:
    """What registering names would do: members found, and names that would be new."""

    existing: list[Player] = field(default_factory=list)
    new: list[NewName] = field(default_factory=list)

    def asks(self, new_members: str) -> bool:
        """Whether `new_members` (CREATE, ASK, ASK_IF_SIMILAR) stops before creating them."""
        if new_members == ASK:
            return bool(self.new)
        if new_members == ASK_IF_SIMILAR:
            return any(name.similar for name in self.new)
        return False


class NewMembersToConfirm(ServiceError):
    """Names that would become new members: nothing was registered; ask, then register again
    with new members created (`plan` says which, and the members close to each)."""

    status = 409
    code = "new_members_to_confirm"

    def __init__(self, plan: NamesPlan) -> None:
        self.plan = plan
        super().__init__(
            _("Confirm the new members: %(names)s.")
            % {"names": "; ".join(str(name) for name in plan.new)},
            field="new_members",
        )

    def errors(self) -> dict[str, list[str]]:
        return {self.field: [str(name) for name in self.plan.new]}


def _folded(name: str) -> str:
    return utils.default_process(" ".join(split_name(name)))


def similar_members(members: list[Player], name: str) -> tuple[Player, ...]:
    """The members whose names are close to `name` but not the same (a typo, a nickname)."""
    wanted = _folded(name)
    names = [_folded(player.full_name) for player in members]
    close = process.extract(
        wanted, names, scorer=fuzz.token_sort_ratio, score_cutoff=SIMILAR_NAME_CUTOFF, limit=3
    )
    return tuple(members[index] for found, _score, index in close if found != wanted)


def plan_names(club: Club, names: Iterable[str]) -> NamesPlan:
    """Which names are the club's members and which would be new (each with close members).

    Reads the club's members once; a name given twice counts once.
    """
    members = list(Player.objects.filter(memberships__club=club).distinct())
    by_name: dict[tuple[str, str], list[Player]] = {}
    for player in members:
        by_name.setdefault(_name_key(player.first_name, player.last_name), []).append(player)
    plan = NamesPlan()
    seen: set[tuple[str, str]] = set()
    for name in names:
        key = _name_key(*split_name(name))
        if key in seen:
            continue
        seen.add(key)
        found = by_name.get(key, [])
        if found:
            plan.existing.append(found[0])
        else:
            plan.new.append(NewName(" ".join(name.split()), similar_members(members, name)))
    return plan


def _name_key(first: str, last: str) -> tuple[str, str]:
    return (first.casefold(), last.casefold())


def register_players(club: Club, text: str, *, by: Any, new_members: str = CREATE) -> list[Player]:
    """One name per line; existing members are found, the others created as members.

    All or nothing: if a line is not a name, nothing is registered and every bad line is
    reported with its number. `new_members` (ASK, ASK_IF_SIMILAR) stops with
    NewMembersToConfirm before creating members the director has not confirmed.
    """
    require_club_director(by, club.pk)
    lines = pasted_lines(text)
    problems = [
        LineProblem(n, p) for n, line in lines if (p := name_problem(line) or ambiguity(club, line))
    ]
    if not lines and not problems:
        raise ServiceError(_("Enter one name per line."), field="text")
    if problems:
        raise RegistrationRefused(problems)
    plan = plan_names(club, (line for _n, line in lines))
    if plan.asks(new_members):
        raise NewMembersToConfirm(plan)
    with transaction.atomic():
        players: list[Player] = []
        for _n, line in lines:
            player = find_or_create_member(club, line)
            if player not in players:
                players.append(player)
    return players


__all__ = [
    "ASK",
    "ASK_IF_SIMILAR",
    "CREATE",
    "NEW_MEMBERS",
    "LineProblem",
    "NamesPlan",
    "NewMembersToConfirm",
    "NewName",
    "RegistrationRefused",
    "ambiguity",
    "find_member",
    "find_or_create_member",
    "name_problem",
    "pasted_lines",
    "plan_names",
    "register_players",
    "similar_members",
    "split_name",
]
