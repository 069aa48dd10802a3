"""Founding a club: the club and its first director, by a site admin (API or `manage.py create_club`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .errors import FieldsRefused
from .models import Club, Membership, Player
from .permissions import require_site_admin
from .registration import name_problem, split_name
from .text import hidden_character_problem

NAME_MAX = Club._meta.get_field("name").max_length or 120
SLUG_MAX = Club._meta.get_field("slug").max_length or 60
CITY_MAX = Club._meta.get_field("city").max_length or 120


@dataclass(frozen=True)
class FoundedClub:
    club: Club
    director: Any  # the director's user account
    new_account: bool


def _club_problems(name: str, slug: str, city: str) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    if not name:
        problems["name"] = [_("Give the club a name.")]
    elif len(name) > NAME_MAX:
        problems["name"] = [_("A club's name has at most %(n)d characters.") % {"n": NAME_MAX}]
    elif problem := hidden_character_problem(name, label=_("The club's name")):
        problems["name"] = [problem]
    elif Club.objects.filter(name__iexact=name).exists():
        problems["name"] = [_("There is already a club called “%(name)s”.") % {"name": name}]
    if not slug or slug != slugify(slug) or len(slug) > SLUG_MAX:
        problems["slug"] = [
            _("Use lower-case letters, digits and hyphens, at most %(n)d.") % {"n": SLUG_MAX}
        ]
    elif Club.objects.filter(slug=slug).exists():
        problems["slug"] = [_("The address “%(slug)s” is taken.") % {"slug": slug}]
    if len(city) > CITY_MAX:
        problems["city"] = [_("A city has at most %(n)d characters.") % {"n": CITY_MAX}]
    elif problem := hidden_character_problem(city, label=_("The city")):
        problems["city"] = [problem]
    return problems


def _director_problems(
    director_name: str, username: str, password: str | None, existing: Any
) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    if existing is None:
        problem = name_problem(director_name)
        if problem:
            problems["director.name"] = [problem]
        try:
            get_user_model().username_validator(username)
        except ValidationError as error:
            problems["director.username"] = list(error.messages)
        if password is not None:
            first, last = split_name(director_name)
            candidate = get_user_model()(username=username, first_name=first, last_name=last)
            try:
                validate_password(password, candidate)
            except ValidationError as error:
                problems["director.password"] = list(error.messages)
    elif password is not None:
        problems["director.password"] = [
            _("%(username)s already has an account: leave the password out.")
            % {"username": username}
        ]
    return problems


def create_club(
    *,
    name: str,
    director_username: str,
    director_name: str = "",
    director_password: str | None = None,
    slug: str = "",
    city: str = "",
    by: Any,
) -> FoundedClub:
    """A new club and its first director.

    The director is the account `director_username`: an existing one (their name and
    password stay), or a new one with `director_name` and `director_password` (checked by
    the site's password rules; None: no password yet, they sign in once an admin sets
    one). Every problem is reported at once, under `name`, `slug`, `city` or
    `director.<field>`; nothing is saved then.
    """
    require_site_admin(by)
    name, city = " ".join(name.split()), city.strip()
    slug = slug.strip() or slugify(name)[:SLUG_MAX]
    username = director_username.strip()
    existing = (
        get_user_model()._default_manager.filter(username=username).first() if username else None
    )
    problems = _club_problems(name, slug, city)
    problems.update(_director_problems(director_name, username, director_password, existing))
    if problems:
        raise FieldsRefused(problems)
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug, city=city)
        user = existing
        if user is None:
            first, last = split_name(director_name)
            user = get_user_model()(username=username, first_name=first, last_name=last)
            if director_password is None:
                user.set_unusable_password()
            else:
                user.set_password(director_password)
            user.save()
        player = getattr(user, "player", None)
        if player is None:
            first, last = split_name(director_name or user.get_full_name() or username)
            player = Player.objects.create(first_name=first, last_name=last, user=user)
        Membership.objects.create(club=club, player=player, role=Membership.Role.DIRECTOR)
    return FoundedClub(club, user, new_account=existing is None)
