"""The members through the API: the club's directors list, search, add, edit, deactivate;
nobody else learns anything of them (404)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.models import MemberEvent, Membership
from tests.api.conftest import client_for
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, make_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def members(club):  # type: ignore[no-untyped-def]
    made = {}
    for first, last in [("Chloé", "Dupré"), ("Luc", "Martin"), ("Marc", "Dupuis")]:
        made[first] = MembershipFactory(
            club=club, player=PlayerFactory(first_name=first, last_name=last), email=f"{first}@x.fr"
        )
    return made


def url(club, pk=None, tail=""):  # type: ignore[no-untyped-def]
    base = f"/api/v1/clubs/{club.pk}/members/"
    return base + (f"{pk}/" if pk else "") + tail


def test_a_director_lists_the_members_with_the_fields_of_the_spec(club, director, members):
    body = client_for(director).get(url(club), {"q": "chloe"}).json()
    assert body["count"] == 1
    row = body["results"][0]
    assert {
        k: row[k]
        for k in ("first_name", "last_name", "email", "phone", "licence", "active", "profile")
    } == {
        "first_name": "Chloé",
        "last_name": "Dupré",
        "email": "Chloé@x.fr",
        "phone": "",
        "licence": "",
        "active": True,
        "profile": "public",
    }
    assert row["id"] == members["Chloé"].player_id


def test_the_search_forgives_a_typo_and_missing_accents(club, director, members):
    found = client_for(director).get(url(club), {"q": "Chloe Dupre"}).json()["results"]
    assert [m["last_name"] for m in found] == ["Dupré"]
    typo = client_for(director).get(url(club), {"q": "Marc Dupius"}).json()["results"]
    assert [m["last_name"] for m in typo][:1] == ["Dupuis"]


def test_a_director_adds_a_member_and_the_licence_is_unique_within_the_club(club, director):
    client = client_for(director)
    made = client.post(
        url(club),
        {
            "first_name": "Anne",
            "last_name": "Roux",
            "licence": "F-1234",
            "phone": "+33 6 12 34 56 78",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["licence"] == "F-1234" and made.json()["active"] is True
    again = client.post(url(club), {"first_name": "Paul", "licence": "F-1234"}, format="json")
    assert again.status_code == 400
    assert "Anne Roux" in again.json()["errors"]["licence"][0]
    assert MemberEvent.objects.filter(club=club, action="added").count() == 1


def test_a_bad_email_is_refused_naming_the_field(club, director):
    response = client_for(director).post(
        url(club), {"first_name": "Anne", "email": "anne-at-home"}, format="json"
    )
    assert response.status_code == 400 and "email" in response.json()["errors"]


def test_a_director_edits_then_deactivates_and_reactivates_a_member(club, director, members):
    client = client_for(director)
    pk = members["Luc"].player_id
    edited = client.patch(
        url(club, pk), {"phone": "0612345678", "profile": "hidden"}, format="json"
    )
    assert edited.status_code == 200 and edited.json()["phone"] == "0612345678"
    assert edited.json()["profile"] == "hidden"
    assert client.delete(url(club, pk)).status_code == 204
    assert client.get(url(club), {"active": "false"}).json()["count"] == 1
    assert client.get(url(club), {"active": "true"}).json()["count"] == 3  # two and the director
    back = client.patch(url(club, pk), {"active": True}, format="json")
    assert back.json()["active"] is True
    actions = list(MemberEvent.objects.filter(player_id=pk).values_list("action", flat=True))
    assert actions == ["reactivated", "deactivated", "edited"]


def test_nobody_but_the_clubs_directors_learns_of_its_members(club, director, members):
    pk = members["Luc"].player_id
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    for client in (client_for(referee), client_for(stranger), APIClient()):
        assert client.get(url(club)).status_code == 404
        assert client.get(url(club, pk)).status_code == 404
        assert client.get(url(club, pk, "export/")).status_code == 404
    for client in (client_for(referee), client_for(stranger)):
        assert client.patch(url(club, pk), {"phone": "1"}, format="json").status_code == 404
        assert client.post(url(club, pk, "erase/")).status_code == 404
    assert Membership.objects.get(player_id=pk).phone == ""
