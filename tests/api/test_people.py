"""People through the API: a director finds members and referees by name (ids included),
makes a referee and issues the referee's token; a site admin founds a club and its director."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.models import Club, Membership
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, make_staff

from .conftest import MADE, client_for, deals_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club):  # type: ignore[no-untyped-def]
    for first, last in [("Marie", "Dupont"), ("Luc", "Martin"), ("Marc", "Dupuis")]:
        MembershipFactory(club=club, player=PlayerFactory(first_name=first, last_name=last))


def test_a_director_finds_members_by_name_with_their_ids(director_client, club, members, referee):
    found = director_client.get(f"/api/v1/clubs/{club.pk}/members/", {"name": "dup"}).json()
    assert [m["player"]["name"] for m in found["results"]] == ["Marie Dupont", "Marc Dupuis"]
    assert all(m["role"] == "member" and m["user"] is None for m in found["results"])
    referees = director_client.get(f"/api/v1/clubs/{club.pk}/members/", {"role": "referee"}).json()
    assert [(m["player"]["id"], m["user"]) for m in referees["results"]] == [
        (referee.player.pk, {"id": referee.pk, "username": "referee"})
    ]


def test_several_words_must_all_match(director_client, club, members):
    found = director_client.get(f"/api/v1/clubs/{club.pk}/members/", {"name": "mar dupont"}).json()
    assert [m["player"]["name"] for m in found["results"]] == ["Marie Dupont"]


def test_an_unknown_role_is_a_400_naming_role(director_client, club):
    response = director_client.get(f"/api/v1/clubs/{club.pk}/members/", {"role": "captain"})
    assert response.status_code == 400 and "role" in response.json()["errors"]


def test_the_members_list_is_the_clubs_directors(referee_client, club, members):
    url = f"/api/v1/clubs/{club.pk}/members/"
    # Member data answers as anything one may not read: not found.
    assert referee_client.get(url).status_code == 404
    assert APIClient().get(url).status_code == 404
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    assert client_for(stranger).get(url).status_code == 404


def test_a_director_makes_a_referee_issues_the_token_and_the_referee_enters_a_deal(
    director_client, club, match
):
    made = director_client.post(
        f"/api/v1/clubs/{club.pk}/referees/", {"name": "Lea Noir"}, format="json"
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["role"] == "referee" and body["player"]["name"] == "Lea Noir"
    assert body["user"]["username"] == "lea.noir"
    user_id = body["user"]["id"]
    director_client.post(
        f"/api/v1/matches/{match.pk}/referee/", {"referee": user_id}, format="json"
    )
    key = director_client.post("/api/v1/tokens/", {"user": user_id}, format="json").json()["key"]
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert phone.post(deals_url(match), MADE, format="json").status_code == 201


def test_making_a_referee_refuses_a_bad_name_or_a_staff_member_under_name(
    director_client, club, referee
):
    response = director_client.post(
        f"/api/v1/clubs/{club.pk}/referees/", {"name": "R2D2"}, format="json"
    )
    assert response.status_code == 400 and "name" in response.json()["errors"]
    staff = director_client.post(
        f"/api/v1/clubs/{club.pk}/referees/", {"name": referee.player.full_name}, format="json"
    )
    assert staff.status_code == 409 and "name" in staff.json()["errors"]


def test_only_directors_make_referees(referee_client, club):
    url = f"/api/v1/clubs/{club.pk}/referees/"
    assert referee_client.post(url, {"name": "Lea Noir"}, format="json").status_code == 403
    assert APIClient().post(url, {"name": "Lea Noir"}, format="json").status_code == 401


FOUNDING = {
    "name": "Cercle de Nantes",
    "city": "Nantes",
    "director": {"username": "anne", "name": "Anne Petit", "password": "tarot-is-not-belote-42"},
}


def test_a_site_admin_founds_a_club_and_its_director_signs_in():
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    response = client_for(admin).post("/api/v1/clubs/", FOUNDING, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "cercle-de-nantes" and body["city"] == "Nantes"
    assert body["director"]["username"] == "anne"
    assert "password" not in str(body)
    signed_in = APIClient().post(
        "/api/v1/auth/token/",
        {"username": "anne", "password": "tarot-is-not-belote-42"},
        format="json",
    )
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {signed_in.json()['key']}")
    assert phone.get("/api/v1/me/").json()["directs"] == [body["id"]]


def test_founding_a_club_names_each_problem():
    admin = UserFactory(username="root", is_superuser=True)
    body = {"name": "", "director": {"username": "anne", "name": "Anne", "password": "1"}}
    response = client_for(admin).post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert "name" in response.json()["errors"]
    body = {**FOUNDING, "director": {**FOUNDING["director"], "password": "123"}}
    response = client_for(admin).post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert "director.password" in response.json()["errors"]
    assert not Club.objects.exists()


def test_only_a_site_admin_founds_clubs(director_client):
    assert director_client.post("/api/v1/clubs/", FOUNDING, format="json").status_code == 403
    assert APIClient().post("/api/v1/clubs/", FOUNDING, format="json").status_code == 401
