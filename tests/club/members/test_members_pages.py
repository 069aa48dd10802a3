"""The members pages: the club's directors search, add, edit, deactivate, merge, erase,
export and import; the club's referees, other clubs' directors and visitors get 404."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from club.models import MemberEvent, Membership, Player
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, make_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(make_staff(club, Membership.Role.DIRECTOR, "director"))
    return client


@pytest.fixture
def anne(club):  # type: ignore[no-untyped-def]
    return MembershipFactory(
        club=club, player=PlayerFactory(first_name="Anne", last_name="Lefèvre"), phone="0611"
    )


def members_url(club, *tail):  # type: ignore[no-untyped-def]
    return reverse("club:members", args=[club.slug]) + "".join(tail)


def test_a_director_finds_a_member_typed_without_accents(club, director, anne):
    page = director.get(members_url(club), {"q": "anne lefevre"})
    assert page.status_code == 200
    assert "Anne Lefèvre" in page.content.decode()
    nobody = director.get(members_url(club), {"q": "zzzz"})
    assert "Anne Lefèvre" not in nobody.content.decode()


def test_a_director_adds_a_member_and_a_bad_email_is_named(club, director):
    refused = director.post(
        members_url(club), {"first_name": "Paul", "email": "nope", "profile": "public"}
    )
    assert refused.status_code == 200 and "is not an e-mail address" in refused.content.decode()
    added = director.post(
        members_url(club),
        {"first_name": "Paul", "last_name": "Roux", "licence": "9", "profile": "members"},
    )
    assert added.status_code == 302
    # By licence: "Roux" is also a surname the factories give.
    membership = Membership.objects.get(club=club, licence="9")
    assert membership.player.full_name == "Paul Roux"
    assert (membership.licence, membership.player.profile) == ("9", "members")


def test_a_director_edits_deactivates_and_exports_a_member(club, director, anne):
    url = reverse("club:member", args=[club.slug, anne.player_id])
    edited = director.post(
        url,
        {
            "action": "edit",
            "first_name": "Anne",
            "last_name": "Lefèvre",
            "phone": "0622",
            "profile": "hidden",
        },
    )
    assert edited.status_code == 302
    assert director.post(url, {"action": "deactivate"}).status_code == 302
    anne.refresh_from_db()
    assert (anne.phone, anne.active, anne.player.profile) == ("0622", False, "hidden")
    exported = director.get(reverse("club:member_export", args=[club.slug, anne.player_id]))
    data = json.loads(exported.content)
    assert data["memberships"][0]["phone"] == "0622" and data["last_name"] == "Lefèvre"
    assert MemberEvent.objects.filter(player_id=anne.player_id).count() == 3


def test_an_erasure_needs_the_box_ticked_then_is_for_good(club, director, anne):
    url = reverse("club:member", args=[club.slug, anne.player_id])
    assert director.post(url, {"action": "erase"}).status_code == 400
    assert director.post(url, {"action": "erase", "confirm": "erase"}).status_code == 302
    player = Player.objects.get(pk=anne.player_id)
    assert player.full_name == f"Former member {player.pk}"
    assert Membership.objects.get(pk=anne.pk).phone == ""
    event = MemberEvent.objects.get(action="erased")
    assert "Lef" not in json.dumps(event.details)


def test_the_import_page_previews_then_imports_on_confirmation(club, director, anne):
    url = reverse("club:members_import", args=[club.slug])
    text = "First name,Last name,Phone\nAnne,Lefèvre,\nBen,Noir,0633\nCarl,Blanc,call me\n"
    uploaded = director.post(url, {"file": SimpleUploadedFile("list.csv", text.encode())})
    assert uploaded.status_code == 302
    preview = director.get(url).content.decode()
    assert "1 new, 1 already members, 0 close to a member's name, 1 invalid." in preview
    assert "Phone: “call me” is not a phone number." in preview
    assert not Player.objects.filter(last_name="Noir").exists()
    assert director.post(url, {"action": "confirm"}).status_code == 302
    assert Membership.objects.get(player__last_name="Noir").phone == "0633"


def test_a_bad_file_on_the_import_page_is_a_400_naming_it(club, director):
    url = reverse("club:members_import", args=[club.slug])
    response = director.post(url, {"file": SimpleUploadedFile("list.csv", b"a,b\n1,2\n")})
    assert response.status_code == 400 and "No column of names" in response.content.decode()


def test_nobody_but_the_clubs_directors_opens_the_members_pages(club, anne):
    referee, stranger = Client(), Client()
    referee.force_login(make_staff(club, Membership.Role.REFEREE, "referee"))
    stranger.force_login(make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger"))
    urls = [
        members_url(club),
        reverse("club:member", args=[club.slug, anne.player_id]),
        reverse("club:member_export", args=[club.slug, anne.player_id]),
        reverse("club:members_import", args=[club.slug]),
    ]
    for client in (referee, stranger, Client()):
        for url in urls:
            assert client.get(url).status_code == 404, url
        assert client.post(urls[1], {"action": "deactivate"}).status_code == 404
    assert Membership.objects.get(pk=anne.pk).active is True
