"""Erasing a member: the personal data replaced for good wherever it was copied (a team's
name, a drawn partnership's, an online registration's text); the figures kept; audited
without the erased data."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.models import MemberEvent, Membership, Player
from entries.models import Registration
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.models import Standing, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


def test_an_erasure_scrubs_every_copy_of_the_name_and_keeps_the_figures(club):
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    jean = PlayerFactory(first_name="Jean", last_name="Dupont")
    luc = PlayerFactory(first_name="Luc", last_name="Martin")
    MembershipFactory(club=club, player=jean, email="jean@x.fr", phone="0611", licence="F-1")
    tournament = TournamentFactory(club=club)
    team = TeamFactory(
        tournament=tournament, first_player=jean, second_player=luc, name="Dupont – Martin"
    )
    pair = TeamFactory(
        tournament=tournament,
        round=RoundFactory(tournament=tournament),
        first_player=luc,
        second_player=jean,
        name="Luc Martin & Jean Dupont",
    )
    Registration.objects.create(
        tournament=tournament,
        player="Jean Dupont",
        partner="Luc Martin",
        email="jean@x.fr",
        team=team,
    )
    Standing.objects.create(
        tournament=tournament, team=team, round_number=1, rank=2, points_for=1234
    )
    response = client_for(director).post(f"/api/v1/clubs/{club.pk}/members/{jean.pk}/erase/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["first_name"], body["email"], body["phone"], body["licence"]) == (
        "Former member",
        "",
        "",
        "",
    )
    assert Team.objects.get(pk=team.pk).name == f"Former member {jean.pk} – Martin"
    assert Team.objects.get(pk=pair.pk).name == f"Luc Martin & Former member {jean.pk}"
    registration = Registration.objects.get()
    assert (registration.player, registration.email) == (f"Former member {jean.pk}", "")
    assert Standing.objects.get(team=team).points_for == 1234
    event = MemberEvent.objects.get(action="erased")
    assert "Dupont" not in str(event.details) and "jean" not in str(event.details)
    again = client_for(director).post(f"/api/v1/clubs/{club.pk}/members/{jean.pk}/erase/")
    assert again.status_code == 409


def test_an_erased_members_account_cannot_sign_in_any_more(club):
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    referee = make_staff(club, Membership.Role.REFEREE, "jean.dupont")
    player = referee.player
    client_for(director).post(f"/api/v1/clubs/{club.pk}/members/{player.pk}/erase/")
    referee.refresh_from_db()
    assert (referee.username, referee.is_active) == (f"former-member-{player.pk}", False)
    assert Player.objects.get(pk=player.pk).user_id is None


def test_nobody_but_the_clubs_directors_erases(club):
    jean = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Jean", last_name="Dupont")
    ).player
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    url = f"/api/v1/clubs/{club.pk}/members/{jean.pk}/erase/"
    assert client_for(referee).post(url).status_code == 404
    assert client_for(stranger).post(url).status_code == 404
    assert APIClient().post(url).status_code == 401
    assert Player.objects.get(pk=jean.pk).last_name == "Dupont"


def test_an_erasure_reaches_the_records_merged_into_the_member_and_the_merge_audit(club):
    from club.merging import merge_members

    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    jean = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Jean", last_name="Dupont")
    ).player
    typo = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Jean", last_name="Dupond")
    ).player
    merge_members(club, typo, into=jean, by=director)
    assert MemberEvent.objects.get(action="merged").details["name"] == "Jean Dupond"
    client_for(director).post(f"/api/v1/clubs/{club.pk}/members/{jean.pk}/erase/")
    assert Player.objects.get(pk=typo.pk).full_name == f"Former member {jean.pk}"
    assert "name" not in MemberEvent.objects.get(action="merged").details
