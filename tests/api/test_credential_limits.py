"""A referee's private link and a referee's device token give their tables and nothing more:
no token of the person's own, no list of their tokens, no revoking them, and no wider reads
whatever the account becomes (issue 28, items 1 and 11)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import ApiToken, Membership
from tests.factories import ClubFactory, MatchFactory, TournamentFactory
from tournaments.models import Tournament
from tournaments.services.referees import add_referees

from .conftest import MADE, deals_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def marie(tournament, director):  # type: ignore[no-untyped-def]
    (fresh,) = add_referees(tournament, "Marie Dupont", by=director)
    return fresh


def link_session(secret: str) -> APIClient:
    """The session a tap on the link opens, used through the API."""
    client = Client()
    client.post(reverse("tournaments:referee_link", args=[secret]))
    api = APIClient()
    api.cookies = client.cookies
    return api


def own_token_of(user) -> ApiToken:  # type: ignore[no-untyped-def]
    return ApiToken.objects.create(
        user=user, scope=ApiToken.Scope.OWN, digest="d" * 64, prefix="blt_xxxxxxxx"
    )


def test_a_link_session_cannot_make_a_token(marie):
    refused = link_session(marie.secret).post("/api/v1/me/tokens/", {}, format="json")
    assert refused.status_code == 403
    assert "private link" in refused.json()["errors"]["detail"][0]
    assert not ApiToken.objects.filter(user=marie.link.referee).exists()


def test_a_link_session_cannot_list_the_persons_tokens(marie):
    own_token_of(marie.link.referee)
    refused = link_session(marie.secret).get("/api/v1/me/tokens/")
    assert refused.status_code == 403
    assert "prefix" not in str(refused.json())


def test_a_link_session_cannot_revoke_the_persons_tokens(marie):
    token = own_token_of(marie.link.referee)
    refused = link_session(marie.secret).delete(f"/api/v1/me/tokens/{token.pk}/")
    assert refused.status_code == 403
    token.refresh_from_db()
    assert token.revoked_at is None


def test_a_link_session_still_enters_deals_at_its_own_table(tournament, marie):
    mine = MatchFactory(
        round__tournament=tournament, tournament=tournament, referee=marie.link.referee
    )
    api = link_session(marie.secret)
    assert api.post(deals_url(mine), MADE, format="json").status_code == 201


def test_a_referees_device_token_cannot_list_or_revoke_tokens(director_client, referee):
    key = director_client.post("/api/v1/tokens/", {"user": referee.pk}, format="json").json()["key"]
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    token = ApiToken.objects.get(user=referee)
    assert phone.get("/api/v1/me/tokens/").status_code == 403
    assert phone.delete(f"/api/v1/me/tokens/{token.pk}/").status_code == 403
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_a_device_token_keeps_its_scope_when_its_holder_becomes_a_site_admin(
    director_client, referee, club
):
    key = director_client.post("/api/v1/tokens/", {"user": referee.pk}, format="json").json()["key"]
    elsewhere = ClubFactory()
    hidden = [
        TournamentFactory(club=elsewhere, is_public=False, name="Private elsewhere"),
        TournamentFactory(club=elsewhere, status=Tournament.Status.DRAFT, name="Draft elsewhere"),
        TournamentFactory(club=club, status=Tournament.Status.DRAFT, name="Draft at home"),
    ]
    type(referee).objects.filter(pk=referee.pk).update(is_superuser=True, is_staff=True)
    Membership.objects.filter(player__user=referee).update(role=Membership.Role.DIRECTOR)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    listed = phone.get("/api/v1/tournaments/", {"page_size": 100}).json()
    names = {row["name"] for row in listed["results"]}
    assert not names & {t.name for t in hidden}
    for tournament in hidden:
        assert phone.get(f"/api/v1/tournaments/{tournament.pk}/").status_code == 404
