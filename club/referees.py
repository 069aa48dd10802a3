"""Making referees from names: an account without a password, a player, a referee's role.

One name by the API (`POST /api/v1/clubs/<id>/referees/`, `create_referee`), a pasted list on
the director's referees page (`register_referees`); both make each referee the same way
(`_make_referee`). The referee then signs in with a device token or a private link.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .errors import Conflict, ServiceError
from .models import Club, Membership, Player
from .permissions import require_club_director
from .registration import (
    LineProblem,
    RegistrationRefused,
    ambiguity,
    find_or_create_member,
    members_named,
    name_problem,
    pasted_lines,
    split_name,
)

USERNAME_MAX = 150


def free_username(first: str, last: str) -> str:
    """ "Marie", "de la Fontaine" → "marie.de-la-fontaine", or with a number if it is taken."""
    base = ".".join(part for part in (slugify(first, True), slugify(last, True)) if part)
    base = (base or "referee")[: USERNAME_MAX - 6]
    users = get_user_model()._default_manager
    taken = set(users.filter(username__istartswith=base).values_list("username", flat=True))
    taken = {name.lower() for name in taken}
    if base.lower() not in taken:
        return base
    number = 2
    while f"{base}{number}".lower() in taken:
        number += 1
    return f"{base}{number}"


def _new_account(first: str, last: str) -> Any:
    """An account with no password: a referee signs in with the token a director gives them."""
    user = get_user_model()(username=free_username(first, last), first_name=first, last_name=last)
    user.set_unusable_password()
    user.save()
    return user


def create_referee(club: Club, name: str, *, by: Any) -> Player:
    """The club's referee of that name: a new person, or the club's member of that name.

    A member without an account gets one; a member becomes a referee. The account has no
    password (`player.user`, its username made from the name): the director issues the
    referee's device token. Refused, naming the field `name`: a name that is not a name, a
    name two members share, someone already on the club's staff.
    """
    require_club_director(by, club.pk)
    problem = name_problem(name) or ambiguity(club, name)
    if problem:
        raise ServiceError(problem, field="name")
    first, last = split_name(name)
    with transaction.atomic():
        found = members_named(club, name)
        player = found[0] if found else Player.objects.create(first_name=first, last_name=last)
        membership, _created = Membership.objects.select_for_update().get_or_create(
            club=club, player=player, defaults={"role": Membership.Role.REFEREE}
        )
        if not _created and membership.role != Membership.Role.MEMBER:
            raise Conflict(
                _("%(name)s is already a %(role)s of the club.")
                % {"name": player.full_name, "role": membership.get_role_display()},
                field="name",
            )
        if membership.role != Membership.Role.REFEREE:
            membership.role = Membership.Role.REFEREE
            membership.save(update_fields=["role"])
        if player.user_id is None:
            player.user = _new_account(player.first_name, player.last_name)
            player.save(update_fields=["user"])
    return player


def _make_referee(club: Club, name: str) -> Any:
    """The club's member of that name (or a new one) made a referee with an account.

    A director stays a director; returns the account.
    """
    player = find_or_create_member(club, name)
    Membership.objects.filter(club=club, player=player, role=Membership.Role.MEMBER).update(
        role=Membership.Role.REFEREE
    )
    if player.user_id is None:
        player.user = _new_account(player.first_name, player.last_name)
        player.save(update_fields=["user"])
    return player.user


def register_referees(club: Club, text: str, *, by: Any) -> list[Any]:
    """One name per line: each becomes a referee of the club, with an account; returns them.

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
