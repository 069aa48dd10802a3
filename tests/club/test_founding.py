"""Founding a club: the service and `manage.py create_club`, for a new install with no admin clicks."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from club.errors import FieldsRefused, NotAllowed
from club.founding import create_club
from club.models import ApiToken, Club, Membership
from club.permissions import SYSTEM
from tests.factories import ClubFactory, UserFactory, make_staff

pytestmark = pytest.mark.django_db

STRONG = "tarot-is-not-belote-42"


def test_a_site_admin_founds_a_club_with_a_new_director():
    admin = UserFactory(username="root", is_superuser=True)
    founded = create_club(
        name="Belote  Club de Lyon",
        city="Lyon",
        director_username="marie",
        director_name="Marie Dupont",
        director_password=STRONG,
        by=admin,
    )
    assert (founded.club.name, founded.club.slug) == ("Belote Club de Lyon", "belote-club-de-lyon")
    assert founded.new_account
    assert founded.director.check_password(STRONG)
    membership = Membership.objects.get(club=founded.club)
    assert membership.role == "director" and membership.player.full_name == "Marie Dupont"


def test_an_existing_account_becomes_the_director_as_it_is():
    person = make_staff(ClubFactory(), Membership.Role.REFEREE, "luc")
    founded = create_club(name="Cercle", director_username="luc", by=SYSTEM)
    assert founded.director == person and not founded.new_account
    assert person.check_password("belote-pass")
    assert Membership.objects.get(club=founded.club).player == person.player


def test_every_problem_is_reported_at_once_and_nothing_is_saved():
    ClubFactory(name="Cercle", slug="cercle")
    with pytest.raises(FieldsRefused) as refused:
        create_club(
            name="cercle",
            slug="Not A Slug",
            director_username="bad name!",
            director_name="",
            director_password="123",
            by=SYSTEM,
        )
    assert set(refused.value.errors()) == {
        "name",
        "slug",
        "director.name",
        "director.username",
        "director.password",
    }
    assert Club.objects.count() == 1
    assert not get_user_model().objects.exists()


def test_only_a_site_admin_founds_clubs():
    director = make_staff(ClubFactory(), Membership.Role.DIRECTOR)
    with pytest.raises(NotAllowed):
        create_club(name="Mine", director_username="me", director_name="Me Myself", by=director)


def test_the_command_founds_a_club_and_prints_the_directors_key(monkeypatch):
    monkeypatch.setenv("BELOTE_DIRECTOR_PASSWORD", STRONG)
    out = io.StringIO()
    call_command(
        "create_club",
        "Belote Club de Lyon",
        "--city=Lyon",
        "--director=marie",
        "--director-name=Marie Dupont",
        "--no-input",
        "--token",
        stdout=out,
    )
    club = Club.objects.get(slug="belote-club-de-lyon")
    marie = get_user_model().objects.get(username="marie")
    assert marie.check_password(STRONG)
    assert f"Created the club Belote Club de Lyon (id {club.pk}" in out.getvalue()
    key = out.getvalue().split("API key of marie: ")[1].strip()
    assert key.startswith("blt_")
    assert ApiToken.objects.get(user=marie).scope == "own"


def test_the_command_asks_for_the_password_twice(monkeypatch):
    answers = iter([STRONG, STRONG])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    call_command(
        "create_club",
        "Cercle",
        "--director=anne",
        "--director-name=Anne Petit",
        stdout=io.StringIO(),
    )
    assert get_user_model().objects.get(username="anne").check_password(STRONG)


def test_the_command_names_each_problem(monkeypatch):
    monkeypatch.delenv("BELOTE_DIRECTOR_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="BELOTE_DIRECTOR_PASSWORD"):
        call_command("create_club", "Cercle", "--director=anne", "--no-input")
    monkeypatch.setenv("BELOTE_DIRECTOR_PASSWORD", "short")
    with pytest.raises(CommandError, match=r"director\.password"):
        call_command(
            "create_club", "Cercle", "--director=anne", "--director-name=Anne Petit", "--no-input"
        )
    assert not Club.objects.exists()
