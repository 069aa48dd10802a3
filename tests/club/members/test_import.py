"""Importing the club's list: CSV as spreadsheets write it and .xlsx, headers in four
languages, a preview of each row, nothing stored before the confirmation, nothing twice."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook
from rest_framework.test import APIClient

from club.models import MemberEvent, Membership, Player
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
def marie(club):  # type: ignore[no-untyped-def]
    return MembershipFactory(
        club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"), licence="77"
    )


def upload(client, club, content: bytes, name="members.csv", **params):  # type: ignore[no-untyped-def]
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return client.post(
        f"/api/v1/clubs/{club.pk}/members/import/" + (f"?{query}" if query else ""),
        {"file": SimpleUploadedFile(name, content)},
        format="multipart",
    )


FRENCH = (
    "Prénom;Nom;Courriel;Téléphone;Numéro de licence\r\n"
    "Marie;Leclerc;marie@x.fr;;\r\n"
    "Marie;Lecler;;;\r\n"
    "Élodie;Fèvre;elodie@x.fr;06 11 22 33 44;F-9\r\n"
    ";Sans prénom;;;\r\n"
    "Jean;Noir;pas-un-courriel;;\r\n"
)


def test_the_preview_says_new_same_similar_and_invalid_naming_the_column(club, director, marie):
    response = upload(client_for(director), club, FRENCH.encode("cp1252"), dry_run="true")
    assert response.status_code == 200, response.json()
    rows = response.json()["rows"]
    assert [(r["line"], r["status"]) for r in rows] == [
        (2, "same"),
        (3, "similar"),
        (4, "new"),
        (5, "invalid"),
        (6, "invalid"),
    ]
    assert rows[0]["member"] == marie.player_id and rows[1]["member_name"] == "Marie Leclerc"
    assert rows[2]["first_name"] == "Élodie" and rows[2]["licence"] == "F-9"
    assert list(rows[3]["errors"]) == ["first_name"] and list(rows[4]["errors"]) == ["email"]
    assert response.json()["summary"] == {"new": 1, "same": 1, "similar": 1, "invalid": 2}
    assert Player.objects.count() == 2  # the director and Marie: nothing stored


def test_the_import_creates_the_new_ones_once_and_completes_the_same(club, director, marie):
    client = client_for(director)
    first = upload(client, club, FRENCH.encode("utf-8-sig"))
    assert first.status_code == 201, first.json()
    assert first.json()["summary"]["created"] == 1
    assert Membership.objects.get(player__last_name="Fèvre").phone == "06 11 22 33 44"
    marie.refresh_from_db()
    assert marie.email == "marie@x.fr"  # completed, the licence kept
    again = upload(client, club, FRENCH.encode("utf-8-sig"))
    assert again.status_code == 200 and again.json()["summary"]["created"] == 0
    assert Membership.objects.filter(club=club).count() == 3
    assert MemberEvent.objects.filter(club=club, action="imported").count() == 2


def test_a_similar_row_is_added_when_the_director_says_so(club, director, marie):
    response = upload(client_for(director), club, FRENCH.encode("utf-8"), add_similar="3")
    assert response.json()["summary"]["created"] == 2
    assert Player.objects.filter(last_name="Lecler").count() == 1


def test_a_comma_separated_file_with_one_name_column_in_dutch(club, director):
    text = "Naam,E-mail,Telefoon\nJan de Vries,jan@x.nl,\nAnna Bakker,,0612345678\n"
    rows = upload(client_for(director), club, text.encode(), dry_run="true").json()["rows"]
    assert [(r["first_name"], r["last_name"], r["status"]) for r in rows] == [
        ("Jan", "de Vries", "new"),
        ("Anna", "Bakker", "new"),
    ]


def test_an_xlsx_workbook_with_finnish_headers(club, director):
    book = Workbook()
    sheet = book.active
    sheet.append(["Etunimi", "Sukunimi", "Sähköposti", "Lisenssi"])
    sheet.append(["Aino", "Virtanen", "aino@x.fi", 12345])
    sheet.append(["Eero", "Mäkinen", None, None])
    data = io.BytesIO()
    book.save(data)
    response = upload(client_for(director), club, data.getvalue(), name="jäsenet.xlsx")
    assert response.status_code == 201, response.json()
    assert response.json()["summary"]["created"] == 2
    assert Membership.objects.get(player__last_name="Virtanen").licence == "12345"


def test_an_inactive_member_is_not_offered_as_similar(club, director, marie):
    marie.active = False
    marie.save()
    rows = upload(client_for(director), club, FRENCH.encode(), dry_run="true").json()["rows"]
    assert rows[1]["status"] == "new"


@pytest.mark.parametrize(
    ("content", "name", "words"),
    [
        (b"", "empty.csv", "empty"),
        (b"foo,bar\n1,2\n", "x.csv", "No column of names"),
        (b"PK\x03\x04garbage", "x.xlsx", ".xlsx"),
        (b"\xd0\xcf\x11\xe0old", "x.xls", ".xls"),
        (bytes(range(256)) * 4, "x.csv", "not a CSV"),
    ],
)
def test_a_bad_file_is_a_400_naming_the_problem(club, director, content, name, words):
    response = upload(client_for(director), club, content, name=name, dry_run="true")
    assert response.status_code == 400, response.content
    assert words in response.json()["errors"]["file"][0]


def test_only_the_clubs_directors_import(club, marie):
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    for client in (client_for(referee), client_for(stranger)):
        assert upload(client, club, FRENCH.encode()).status_code == 404
    assert upload(APIClient(), club, FRENCH.encode()).status_code == 401
    assert Player.objects.filter(last_name="Fèvre").count() == 0


def test_pasted_names_are_not_offered_an_inactive_member_as_close(club, marie):
    from club.registration import plan_names

    assert [n.similar for n in plan_names(club, ["Marie Lecler"]).new] == [(marie.player,)]
    marie.active = False
    marie.save()
    assert [n.similar for n in plan_names(club, ["Marie Lecler"]).new] == [()]
    # Her exact name still finds her: a returning member is not created twice.
    assert plan_names(club, ["marie leclerc"]).existing == [marie.player]
