"""Signing in by API: a password for a token (throttled, audited), who am I, one's own tokens."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.signals import user_logged_in, user_login_failed
from rest_framework.test import APIClient

from club.models import ApiToken, Membership
from tests.factories import ClubFactory, UserFactory

from .conftest import client_for

pytestmark = pytest.mark.django_db

SIGN_IN = "/api/v1/auth/token/"


def device(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_director_signs_in_with_a_password_and_acts_with_the_key(director, club, tournament):
    response = APIClient().post(
        SIGN_IN,
        {"username": "director", "password": "belote-pass", "name": "laptop"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["scope"] == "own" and body["name"] == "laptop" and body["club"] is None
    assert body["user"] == {"id": director.pk, "username": "director"}
    renamed = device(body["key"]).patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": "Renamed"}, format="json"
    )
    assert renamed.status_code == 200
    # No cookie, no CSRF token, no Referer: the key is enough.
    assert "sessionid" not in response.cookies


def test_a_wrong_password_is_a_400_naming_no_field_but_the_request(director):
    response = APIClient().post(
        SIGN_IN, {"username": "director", "password": "guess"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "errors": {"detail": ["The username or the password is wrong."]},
        "code": "invalid_credentials",
    }
    assert not ApiToken.objects.exists()


def test_a_missing_password_names_the_field(director):
    response = APIClient().post(SIGN_IN, {"username": "director"}, format="json")
    assert response.status_code == 400
    assert "password" in response.json()["errors"]


def test_an_inactive_account_cannot_sign_in(director):
    director.is_active = False
    director.save()
    response = APIClient().post(
        SIGN_IN, {"username": "director", "password": "belote-pass"}, format="json"
    )
    assert response.status_code == 400


def test_sign_ins_are_audited_through_djangos_signals_and_the_log(director, caplog):
    seen: list[str] = []

    def on_success(sender, user, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(f"in:{user.username}")

    def on_failure(sender, credentials, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(f"failed:{credentials['username']}")

    user_logged_in.connect(on_success)
    user_login_failed.connect(on_failure)
    try:
        with caplog.at_level(logging.INFO, logger="belote.auth"):
            client = APIClient()
            client.post(SIGN_IN, {"username": "director", "password": "nope"}, format="json")
            client.post(SIGN_IN, {"username": "director", "password": "belote-pass"}, format="json")
    finally:
        user_logged_in.disconnect(on_success)
        user_login_failed.disconnect(on_failure)
    assert seen == ["failed:director", "in:director"]
    director.refresh_from_db()
    assert director.last_login is not None
    assert "api sign-in refused for 'director'" in caplog.text
    assert "issued to director (own)" in caplog.text


def test_signing_in_is_throttled_per_address(director):
    client = APIClient()
    answers = [
        client.post(SIGN_IN, {"username": "director", "password": "belote-pass"}, format="json")
        for _ in range(11)
    ]
    assert [a.status_code for a in answers] == [201] * 10 + [429]
    assert answers[-1].json()["code"] == "throttled"
    assert int(answers[-1]["Retry-After"]) > 0


def test_wrong_passwords_lock_the_sign_in_out_before_the_rate_limit(director):
    client = APIClient()
    answers = [
        client.post(SIGN_IN, {"username": "director", "password": "nope"}, format="json")
        for _ in range(5)
    ]
    assert [a.status_code for a in answers] == [400] * 4 + [429]
    assert answers[-1].json()["code"] == "locked_out"
    # The right password does not get past the lockout either.
    right = client.post(SIGN_IN, {"username": "director", "password": "belote-pass"}, format="json")
    assert right.status_code == 429


def test_a_forged_forwarded_for_header_does_not_escape_the_limit(director):
    client = APIClient()
    answers = [
        client.post(
            SIGN_IN,
            {"username": "director", "password": "nope"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{attempt}",
        )
        for attempt in range(11)
    ]
    assert answers[-1].status_code == 429


def test_me_answers_who_i_am_my_clubs_and_roles(director, club):
    second = ClubFactory(name="Cercle de Nantes")
    Membership.objects.create(club=second, player=director.player, role=Membership.Role.REFEREE)
    me = client_for(director).get("/api/v1/me/").json()
    assert me["id"] == director.pk and me["username"] == "director"
    assert me["player"] == director.player.pk
    assert [(c["name"], c["role"]) for c in me["clubs"]] == [
        ("Belote Club de Lyon", "director"),
        ("Cercle de Nantes", "referee"),
    ]
    assert me["directs"] == [club.pk]
    assert me["is_site_admin"] is False
    assert me["authenticated_by"] == "session" and me["token"] is None


def test_me_with_a_token_names_the_token(director):
    key = (
        APIClient()
        .post(
            SIGN_IN,
            {"username": "director", "password": "belote-pass", "name": "script"},
            format="json",
        )
        .json()["key"]
    )
    me = device(key).get("/api/v1/me/").json()
    assert me["authenticated_by"] == "token"
    assert me["token"]["name"] == "script" and me["token"]["scope"] == "own"
    assert me["token"]["last_used_at"] is not None


def test_a_site_admin_is_told_so(db):
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    me = client_for(admin).get("/api/v1/me/").json()
    assert me["is_site_admin"] is True and me["clubs"] == [] and me["player"] is None


def test_me_asks_an_anonymous_caller_to_sign_in():
    response = APIClient().get("/api/v1/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Token realm="api"'


def test_a_person_lists_makes_and_revokes_their_own_tokens(director, referee):
    client = client_for(director)
    made = client.post("/api/v1/me/tokens/", {"name": "scoreboard"}, format="json")
    assert made.status_code == 201
    key = made.json()["key"]
    listed = client.get("/api/v1/me/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["scoreboard"]
    assert "key" not in listed[0]
    # Someone else's token is not theirs to see or revoke.
    other = client_for(referee).post("/api/v1/me/tokens/", {}, format="json").json()
    assert client.delete(f"/api/v1/me/tokens/{other['id']}/").status_code == 404
    assert client.delete(f"/api/v1/me/tokens/{made.json()['id']}/").status_code == 204
    assert device(key).get("/api/v1/me/").status_code == 401
    revoked = ApiToken.objects.get(pk=made.json()["id"])
    assert revoked.revoked_at is not None and revoked.revoked_by == director
    assert client.get("/api/v1/me/tokens/").json()["results"] == []


def test_a_garbled_authorization_header_is_a_401_not_a_500(match):
    for header in ["Token", "Token a b", "Token blt_nothing", "Token \u00e9t\u00e9"]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get("/api/v1/me/")
        assert response.status_code == 401, header
        assert response.json()["code"] == "not_authenticated"
