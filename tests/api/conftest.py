"""The world of the API tests: a club, its director and referees, a running public tournament
with one refereed match, and a client for each persona."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, MatchFactory, TournamentFactory, make_staff

MADE = {
    "taker": "N",
    "trump": "H",
    "points": {"team": "NS", "cards": 98},
    "capot": None,
    "belote": None,
    "declarations": {"NS": [], "EW": []},
}
DEDANS = {**MADE, "taker": "E", "points": {"team": "EW", "cards": 60}}


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def referee(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "referee")


@pytest.fixture
def other_referee(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "other")


@pytest.fixture
def tournament(club):  # type: ignore[no-untyped-def]
    return TournamentFactory(club=club, name="Coupe d'hiver", slug="hiver", is_public=True)


@pytest.fixture
def private_tournament(club):  # type: ignore[no-untyped-def]
    return TournamentFactory(club=club, name="Staff night", slug="staff", is_public=False)


@pytest.fixture
def match(tournament, referee):  # type: ignore[no-untyped-def]
    return MatchFactory(round__tournament=tournament, tournament=tournament, referee=referee)


@pytest.fixture
def other_match(tournament, other_referee):  # type: ignore[no-untyped-def]
    return MatchFactory(round__tournament=tournament, tournament=tournament, referee=other_referee)


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def anonymous_client() -> APIClient:
    return APIClient()


@pytest.fixture
def director_client(director) -> APIClient:  # type: ignore[no-untyped-def]
    return client_for(director)


@pytest.fixture
def referee_client(referee) -> APIClient:  # type: ignore[no-untyped-def]
    return client_for(referee)


@pytest.fixture
def other_referee_client(other_referee) -> APIClient:  # type: ignore[no-untyped-def]
    return client_for(other_referee)


def deals_url(match: Any, number: int | None = None) -> str:
    base = f"/api/v1/matches/{match.pk}/deals/"
    return base if number is None else f"{base}{number}/"


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    # Ids repeat from one rolled-back test to the next: cached bodies must not.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
