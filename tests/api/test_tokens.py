"""Referees' device tokens: a director issues them only to people whose only role is referee,
and such a token acts with a referee's rights in that club, never more (no impersonation)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.models import ApiToken, Membership
from tests.factories import ClubFactory, MatchFactory, TournamentFactory, UserFactory, make_staff

from .conftest import MADE, client_for, deals_url

pytestmark = pytest.mark.django_db


def device(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def issue(client: APIClient, user, **extra):  # type: ignore[no-untyped-def]
    return client.post("/api/v1/tokens/", {"user": user.pk, **extra}, format="json")


def add_role(user, club, role):  # type: ignore[no-untyped-def]
    Membership.objects.create(club=club, player=user.player, role=role)


def test_a_director_issues_a_referees_token_which_then_enters_deals(
    director_client, referee, match
):
    issued = issue(director_client, referee, name="table 1 phone")
    assert issued.status_code == 201, issued.json()
    body = issued.json()
    assert body["scope"] == "referee" and body["club"] == match.tournament.club_id
    assert body["key"].startswith("blt_") and body["prefix"] == body["key"][:12]
    assert device(body["key"]).post(deals_url(match), MADE, format="json").status_code == 201
    assert director_client.delete(f"/api/v1/tokens/{referee.pk}/").status_code == 204
    refused = device(body["key"]).post(deals_url(match), MADE, format="json")
    assert refused.status_code == 401
    assert refused.json()["code"] == "not_authenticated"


def test_only_the_keys_hash_is_stored(director_client, referee):
    key = issue(director_client, referee).json()["key"]
    token = ApiToken.objects.get(user=referee)
    assert key not in {token.digest, token.prefix}
    assert len(token.digest) == 64


def test_reissuing_a_token_revokes_the_old_one(director_client, referee, match):
    first = issue(director_client, referee).json()["key"]
    second = issue(director_client, referee).json()["key"]
    assert first != second
    assert ApiToken.objects.filter(user=referee, revoked_at__isnull=True).count() == 1
    assert device(first).get("/api/v1/me/").status_code == 401
    assert device(second).get("/api/v1/me/").status_code == 200


def test_a_director_cannot_issue_a_token_to_a_director_of_another_club(director_client, club):
    """The impersonation: staff of club A who directs club B got a key acting as them."""
    other_club = ClubFactory()
    double = make_staff(other_club, Membership.Role.DIRECTOR, "double")
    add_role(double, club, Membership.Role.REFEREE)
    refused = issue(director_client, double, club=club.pk)
    assert refused.status_code == 403
    assert "only role is referee" in refused.json()["errors"]["user"][0]
    assert not ApiToken.objects.filter(user=double).exists()


def test_a_director_cannot_issue_a_token_to_a_site_admin_on_the_clubs_staff(director_client, club):
    admin = make_staff(club, Membership.Role.REFEREE, "root")
    admin.is_superuser = admin.is_staff = True
    admin.save()
    assert issue(director_client, admin).status_code == 403
    assert not ApiToken.objects.filter(user=admin).exists()


def test_a_director_cannot_issue_a_token_to_a_fellow_director_nor_to_themself(
    director_client, director, club
):
    fellow = make_staff(club, Membership.Role.DIRECTOR, "fellow")
    assert issue(director_client, fellow).status_code == 403
    assert issue(director_client, director).status_code == 403
    assert not ApiToken.objects.exists()


def test_a_referees_token_never_gets_director_rights_even_after_a_promotion(
    director_client, referee, club, match
):
    key = issue(director_client, referee).json()["key"]
    Membership.objects.filter(player__user=referee, club=club).update(role=Membership.Role.DIRECTOR)
    referee.is_superuser = True
    referee.save()
    phone = device(key)
    assert phone.post(f"/api/v1/rounds/{match.round_id}/close/").status_code == 403
    assert phone.post(f"/api/v1/matches/{match.pk}/close/").status_code == 403
    assert phone.post("/api/v1/clubs/", {"name": "Mine"}, format="json").status_code == 403
    me = phone.get("/api/v1/me/").json()
    assert me["is_site_admin"] is False and me["directs"] == []
    assert me["referee_only_in"] == club.pk
    # Signed in with a password, the same person has their new rights.
    assert client_for(referee).post(f"/api/v1/matches/{match.pk}/close/").status_code == 200


def test_a_referees_token_acts_only_in_the_club_that_issued_it(director_client, referee, club):
    other_club = ClubFactory()
    add_role(referee, other_club, Membership.Role.REFEREE)
    elsewhere = TournamentFactory(club=other_club, is_public=True)
    their_match = MatchFactory(round__tournament=elsewhere, tournament=elsewhere, referee=referee)
    key = issue(director_client, referee, club=club.pk).json()["key"]
    assert device(key).post(deals_url(their_match), MADE, format="json").status_code == 403
    assert client_for(referee).post(deals_url(their_match), MADE, format="json").status_code == 201


def test_a_referees_token_cannot_make_tokens_of_its_own(director_client, referee):
    key = issue(director_client, referee).json()["key"]
    refused = device(key).post("/api/v1/me/tokens/", {}, format="json")
    assert refused.status_code == 403
    assert ApiToken.objects.filter(user=referee).count() == 1


def test_referees_and_outsiders_cannot_issue_tokens(
    referee_client, other_referee, anonymous_client, director
):
    assert issue(referee_client, other_referee).status_code == 403
    assert issue(anonymous_client, other_referee).status_code == 401
    outsider = make_staff(ClubFactory(), Membership.Role.REFEREE, "outsider")
    assert issue(client_for(director), outsider).status_code == 404
    assert issue(client_for(director), UserFactory()).status_code == 404


def test_a_director_of_two_clubs_names_the_club(director, referee, club):
    second = ClubFactory()
    add_role(director, second, Membership.Role.DIRECTOR)
    add_role(referee, second, Membership.Role.REFEREE)
    client = client_for(director)
    assert "club" in issue(client, referee).json()["errors"]
    assert issue(client, referee, club=second.pk).json()["club"] == second.pk


def test_a_director_of_another_club_cannot_revoke_this_clubs_tokens(director_client, referee, club):
    key = issue(director_client, referee).json()["key"]
    stranger = client_for(make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger"))
    assert stranger.delete(f"/api/v1/tokens/{referee.pk}/").status_code == 404
    assert stranger.delete(f"/api/v1/tokens/{referee.pk}/?club={club.pk}").status_code == 403
    assert device(key).get("/api/v1/me/").status_code == 200
