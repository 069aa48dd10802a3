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
from .text import BIDI_CONTROLS as BIDI_CONTROLS
from .text import folded
from .text import hidden_character_problem as _hidden

NAME_PART_MAX = 80
# One paste registers at most this many lines: more is refused with a message, not a timeout.
MAX_PASTED_LINES = 2000
# What a form or the API accepts as one paste: room for that many lines of long names.
MAX_PASTED_CHARACTERS = MAX_PASTED_LINES * 100
# Letters of any alphabet, spaces, apostrophes, hyphens and dots: "Jean-Luc d'Arcy Jr."
_NAME = re.compile(r"^[^\W\d_]+(?:[ '’.-]+[^\W\d_]+)*\.?$")


def hidden_character_problem(text: str) -> str | None:
    """Why `text` cannot be a name shown to others: the one check of typed text (club.text)."""
    return _hidden(text, label=_("A name"))


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
    if problem := hidden_character_problem(text):
        return problem
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
    """Numbered non-blank lines; a line starting with # is a comment.

    More than MAX_PASTED_LINES is refused at once, before any line is looked at.
    """
    lines = [
        (number, line.strip())
        for number, line in enumerate((text or "").splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#")
    ]
    if len(lines) > MAX_PASTED_LINES:
        raise ServiceError(
            _("%(count)d lines: paste at most %(max)d at a time, then the rest.")
            % {"count": len(lines), "max": MAX_PASTED_LINES},
            field="text",
        )
    return lines


def _name_key(text: str) -> tuple[str, str]:
    first, last = split_name(text)
    return first.casefold(), last.casefold()


class Roster:
    """A club's members by name, read once (one query), for registering many lines at once.

    Names match ignoring case and spacing, as `members_named` does; players created through
    `member` are remembered, so a name pasted twice is one player, and are stored together
    by `save` (two queries), whatever the number of lines.
    """

    def __init__(self, club: Club) -> None:
        self.club = club
        self._by_name: dict[tuple[str, str], list[Player]] = {}
        # Inactive members are still found by their exact name (their history stays theirs)
        # but never offered as close to a name (`members`).
        self._inactive: set[int] = set()
        for membership in (
            Membership.objects.filter(club=club).select_related("player").order_by("player_id")
        ):
            player = membership.player
            self._by_name.setdefault(_name_key(player.full_name), []).append(player)
            if not membership.active:
                self._inactive.add(player.pk)
        self._new: dict[tuple[str, str], Player] = {}

    def named(self, text: str) -> list[Player]:
        """The club's members of that name (created ones too)."""
        key = _name_key(text)
        return self._by_name.get(key, []) or ([self._new[key]] if key in self._new else [])

    def members(self) -> list[Player]:
        """Every active member read (not the ones created since): those offered as close."""
        return [
            player
            for players in self._by_name.values()
            for player in players
            if player.pk not in self._inactive
        ]

    def ambiguity(self, text: str) -> str | None:
        if len(self._by_name.get(_name_key(text), [])) > 1:
            return _("the club has several members called %(name)s; register that team alone") % {
                "name": text
            }
        return None

    def member(self, text: str) -> Player:
        """The member of that name, or a new player (stored by `save`)."""
        found = self.named(text)
        if found:
            return found[0]
        first, last = split_name(text)
        player = self._new[_name_key(text)] = Player(first_name=first, last_name=last)
        return player

    def save(self) -> None:
        """Store the new players and their memberships (inside the caller's transaction)."""
        created = Player.objects.bulk_create(list(self._new.values()))
        Membership.objects.bulk_create(
            Membership(club=self.club, player=player, role=Membership.Role.MEMBER)
            for player in created
        )
        for key, player in self._new.items():
            self._by_name[key] = [player]
        self._new = {}


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


def with_member_name(text: str, typed: str, member: Player) -> str:
    """`text` with the name `typed` (spaced as it was typed) replaced by `member`'s full name:
    the one-click fix of a flagged typo."""
    words = typed.split()
    if not words:
        return text
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)")
    return pattern.sub(lambda _m: member.full_name, text)


def _folded(name: str) -> str:
    """A name as names are compared: lower case, accents and punctuation aside ("Chloé
    Dupré-Roux" is "chloe dupre roux")."""
    return utils.default_process(folded(" ".join(split_name(name))))


# How close a searched name must be to a member's to be listed when no name holds every word
# typed (rapidfuzz's WRatio, 0-100: forgives a typo and a word left out).
SEARCH_CUTOFF = 75


def search_members(members: list[Player], query: str, *, limit: int = 50) -> list[Player]:
    """The members whose name holds every word typed (accents and case aside), by name; when
    none does, the names closest to it (a typo), closest first: the members page's search."""
    words = _folded(query).split()
    if not words:
        return list(members)
    names = [_folded(player.full_name) for player in members]
    found = [
        player for player, name in zip(members, names, strict=True) if all(w in name for w in words)
    ]
    if found:
        return found[:limit]
    close = process.extract(
        " ".join(words), names, scorer=fuzz.WRatio, score_cutoff=SEARCH_CUTOFF, limit=limit
    )
    return [members[index] for _name, _score, index in close]


def folded_names(members: list[Player]) -> list[str]:
    """The members' names as `similar_members` compares them: fold them once for many names."""
    return [_folded(player.full_name) for player in members]


def similar_members(
    members: list[Player], name: str, *, folded: list[str] | None = None
) -> tuple[Player, ...]:
    """The members whose names are close to `name` but not the same (a typo, a nickname);
    `folded`: their names already folded (`folded_names`), when many names are compared."""
    wanted = _folded(name)
    names = folded if folded is not None else folded_names(members)
    close = process.extract(
        wanted, names, scorer=fuzz.token_sort_ratio, score_cutoff=SIMILAR_NAME_CUTOFF, limit=3
    )
    return tuple(members[index] for found, _score, index in close if found != wanted)


def plan_names(club: Club, names: Iterable[str], *, roster: Roster | None = None) -> NamesPlan:
    """Which names are the club's members and which would be new (each with close members).

    Reads the club's members once (or takes the roster already read); a name given twice
    counts once.
    """
    roster = roster or Roster(club)
    members = roster.members()
    folded = folded_names(members)
    plan = NamesPlan()
    seen: set[tuple[str, str]] = set()
    for name in names:
        key = _name_key(name)
        if key in seen:
            continue
        seen.add(key)
        found = roster.named(name)
        if found:
            plan.existing.append(found[0])
        else:
            close = similar_members(members, name, folded=folded)
            plan.new.append(NewName(" ".join(name.split()), close))
    return plan


def register_players(club: Club, text: str, *, by: Any, new_members: str = CREATE) -> list[Player]:
    """One name per line; existing members are found, the others created as members.

    All or nothing: if a line is not a name, nothing is registered and every bad line is
    reported with its number. A bounded number of queries, whatever the number of lines.
    `new_members` (ASK, ASK_IF_SIMILAR) stops with NewMembersToConfirm before creating
    members the director has not confirmed.
    """
    require_club_director(by, club.pk)
    lines = pasted_lines(text)
    problems = [LineProblem(n, p) for n, line in lines if (p := name_problem(line))]
    if not lines and not problems:
        raise ServiceError(_("Enter one name per line."), field="text")
    if problems:
        raise RegistrationRefused(problems)
    roster = Roster(club)
    problems = [LineProblem(n, p) for n, line in lines if (p := roster.ambiguity(line))]
    if problems:
        raise RegistrationRefused(problems)
    plan = plan_names(club, (line for _n, line in lines), roster=roster)
    if plan.asks(new_members):
        raise NewMembersToConfirm(plan)
    with transaction.atomic():
        players: list[Player] = []
        seen: set[int] = set()  # by identity: new players have no key until saved
        for _n, line in lines:
            player = roster.member(line)
            if id(player) not in seen:
                seen.add(id(player))
                players.append(player)
        roster.save()
    return players


__all__ = [
    "ASK",
    "ASK_IF_SIMILAR",
    "CREATE",
    "MAX_PASTED_CHARACTERS",
    "MAX_PASTED_LINES",
    "NEW_MEMBERS",
    "LineProblem",
    "NamesPlan",
    "NewMembersToConfirm",
    "NewName",
    "RegistrationRefused",
    "Roster",
    "ambiguity",
    "find_member",
    "find_or_create_member",
    "folded_names",
    "hidden_character_problem",
    "name_problem",
    "pasted_lines",
    "plan_names",
    "register_players",
    "search_members",
    "similar_members",
    "split_name",
    "with_member_name",
]
