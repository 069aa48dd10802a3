"""Registering a club's players from pasted names, and reading names: the club's part of registration."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

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


def register_players(club: Club, text: str, *, by: Any) -> list[Player]:
    """One name per line; existing members are found, the others created as members.

    All or nothing: if a line is not a name, nothing is registered and every bad line is
    reported with its number.
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
    with transaction.atomic():
        players: list[Player] = []
        for _n, line in lines:
            player = find_or_create_member(club, line)
            if player not in players:
                players.append(player)
    return players


def _free_username(first: str, last: str) -> str:
    """ "Marie de la Fontaine" → `marie-de-la-fontaine`, or `…-2`, `…-3` when taken."""
    base = slugify(f"{first} {last}")[:140] or "referee"
    users = get_user_model().objects
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


def _make_referee(club: Club, text: str) -> Any:
    player = find_or_create_member(club, text)
    Membership.objects.filter(club=club, player=player, role=Membership.Role.MEMBER).update(
        role=Membership.Role.REFEREE
    )
    if player.user is None:
        # No password: a referee made from a name signs in by the private links a director
        # gives them (tournaments), nothing else.
        user = get_user_model().objects.create_user(
            username=_free_username(player.first_name, player.last_name),
            first_name=player.first_name[:150],
            last_name=player.last_name[:150],
        )
        player.user = user
        player.save(update_fields=["user"])
    return player.user


def register_referees(club: Club, text: str, *, by: Any) -> list[Any]:
    """One name per line: each becomes a referee of the club, with an account; returns the users.

    A member of that name is made a referee (a director stays a director); anyone else is
    registered as a new player. All or nothing, every bad line reported with its number.
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
    with transaction.atomic():
        users: list[Any] = []
        for _n, line in lines:
            user = _make_referee(club, line)
            if user not in users:
                users.append(user)
    return users


__all__ = [
    "LineProblem",
    "RegistrationRefused",
    "ambiguity",
    "find_member",
    "find_or_create_member",
    "name_problem",
    "pasted_lines",
    "register_players",
    "register_referees",
    "split_name",
]
