"""create_referee: a referee from a name, an account without a password, refusals by field."""

from __future__ import annotations

import pytest

from club.errors import Conflict, NotAllowed, ServiceError
from club.models import Membership, Player
from club.referees import create_referee
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, make_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def test_a_director_makes_a_new_person_a_referee_with_an_account_and_no_password(club, director):
    player = create_referee(club, "Marie de la Fontaine", by=director)
    assert (player.first_name, player.last_name) == ("Marie", "de la Fontaine")
    assert player.user.username == "marie.de-la-fontaine"
    assert (player.user.first_name, player.user.last_name) == ("Marie", "de la Fontaine")
    assert not player.user.has_usable_password()
    assert Membership.objects.get(club=club, player=player).role == "referee"


def test_a_taken_username_gets_a_number(club, director):
    UserFactory(username="luc.martin")
    assert create_referee(club, "Luc Martin", by=director).user.username == "luc.martin2"
    other = ClubFactory()
    boss = make_staff(other, Membership.Role.DIRECTOR)
    assert create_referee(other, "Luc Martin", by=boss).user.username == "luc.martin3"


def test_names_of_any_alphabet_make_a_username(club, director):
    assert create_referee(club, "Дмитрий Иванов", by=director).user.username == "дмитрий.иванов"


def test_a_member_of_that_name_becomes_the_referee(club, director):
    member = PlayerFactory(first_name="Anne", last_name="Petit")
    MembershipFactory(club=club, player=member, role=Membership.Role.MEMBER)
    player = create_referee(club, "anne  PETIT", by=director)
    assert player.pk == member.pk
    assert Membership.objects.get(club=club, player=member).role == "referee"
    assert player.user.username == "anne.petit"
    assert Player.objects.filter(first_name="Anne").count() == 1


def test_someone_already_on_the_staff_is_refused_under_name(club, director):
    create_referee(club, "Paul Roux", by=director)
    with pytest.raises(Conflict) as refused:
        create_referee(club, "Paul Roux", by=director)
    assert refused.value.field == "name"
    assert "already a referee" in refused.value.message


@pytest.mark.parametrize("name", ["", "R2D2 Droid", "Jean " + "x" * 90])
def test_a_name_that_is_not_a_name_is_refused_under_name(club, director, name):
    with pytest.raises(ServiceError) as refused:
        create_referee(club, name, by=director)
    assert refused.value.field == "name"


def test_two_members_of_the_same_name_are_refused_as_ambiguous(club, director):
    for _ in range(2):
        MembershipFactory(club=club, player=PlayerFactory(first_name="Jean", last_name="Blanc"))
    with pytest.raises(ServiceError) as refused:
        create_referee(club, "Jean Blanc", by=director)
    assert "several members" in refused.value.message


def test_only_a_director_of_the_club_makes_referees(club):
    referee = make_staff(club, Membership.Role.REFEREE)
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR)
    for person in (referee, stranger):
        with pytest.raises(NotAllowed):
            create_referee(club, "Lea Noir", by=person)
    assert not Player.objects.filter(first_name="Lea").exists()
