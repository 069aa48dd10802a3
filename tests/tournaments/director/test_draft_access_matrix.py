"""Drafts are for their club's directors only (issue 28 item 5): every read of a draft — the
tournament, its teams, players, rounds and matches, by id or by address, on the pages and in
the API — answers "not found" to everyone else, its referees included. The matrix: every read
endpoint and page × every persona; the club's directors (and a site admin) read them all."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import (
    ClubFactory,
    MatchFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    make_staff,
)
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, Any]:
    club = ClubFactory(slug="les-atouts")
    referee = make_staff(club, Membership.Role.REFEREE, "rita")
    draft = TournamentFactory(club=club, slug="draft-cup", status=Tournament.Status.DRAFT)
    match = MatchFactory(round__tournament=draft, tournament=draft, referee=referee)
    melee = TournamentFactory(
        club=club,
        slug="draft-melee",
        status=Tournament.Status.DRAFT,
        format=Tournament.Format.INDIVIDUAL,
        round_count=3,
    )
    entrant = Entrant.objects.create(tournament=melee, player=PlayerFactory(), seed=1)
    return {
        "club": club,
        "referee": referee,
        "draft": draft,
        "match": match,
        "team": match.ns_team,
        "player": match.ns_team.first_player,
        "melee": melee,
        "entrant": entrant,
    }


def api_reads(w: dict[str, Any]) -> list[str]:
    t, m, team, p = w["draft"], w["match"], w["team"], w["player"]
    return [
        f"/api/v1/tournaments/{t.pk}/",
        f"/api/v1/tournaments/{t.pk}/schedule/",
        f"/api/v1/tournaments/{t.pk}/standings/",
        f"/api/v1/tournaments/{w['melee'].pk}/entrants/",
        f"/api/v1/teams/{team.pk}/",
        f"/api/v1/rounds/{m.round_id}/",
        f"/api/v1/matches/{m.pk}/",
        f"/api/v1/matches/{m.pk}/deals/",
        f"/api/v1/players/{p.pk}/",
        f"/api/v1/players/{p.pk}/ratings/",
        f"/api/v1/entrants/{w['entrant'].pk}/",
    ]


def api_lists(w: dict[str, Any]) -> list[tuple[str, int]]:
    """Lists, and the id of the draft's row that must not be in them."""
    return [
        ("/api/v1/tournaments/", w["draft"].pk),
        ("/api/v1/teams/", w["team"].pk),
        ("/api/v1/rounds/", w["match"].round_id),
        ("/api/v1/matches/", w["match"].pk),
        ("/api/v1/players/", w["player"].pk),
        ("/api/v1/entrants/", w["entrant"].pk),
    ]


def page_reads(w: dict[str, Any]) -> list[str]:
    slugs = ["les-atouts", "draft-cup"]
    team, match, player = w["team"].pk, w["match"].pk, w["player"].pk
    named = [
        ("detail", []),
        ("schedule", []),
        ("standings", []),
        ("rules", []),
        ("bracket", []),
        ("screen", []),
        ("find_player", []),
        ("team", [team]),
        ("player_table", [player]),
        ("standings_live", []),
        ("schedule_live", []),
        ("team_live", [team]),
        ("match_live", [match]),
        ("screen_live", []),
        ("player_live", [player]),
    ]
    urls = [reverse(f"tournaments:{name}", args=[*slugs, *extra]) for name, extra in named]
    urls.append(
        reverse(
            "tournaments:player_table", args=["les-atouts", "draft-melee", w["entrant"].player_id]
        )
    )
    urls += [
        reverse("tournaments:match", args=[match]),
        reverse("tournaments:player", args=[player]),
        reverse("tournaments:table", args=[match]),
    ]
    return urls


def personas(w: dict[str, Any]) -> dict[str, Any]:
    other_director = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "other-director")
    return {
        "anonymous": None,
        "a signed-in stranger": UserFactory(username="stranger"),
        "the match's referee": w["referee"],
        "another club's director": other_director,
    }


def clients(user: Any) -> tuple[APIClient, Client]:
    api, pages = APIClient(), Client()
    if user is not None:
        api.force_authenticate(user)
        pages.force_login(user)
    return api, pages


def test_no_read_of_a_draft_reaches_anyone_but_its_directors(world):
    leaks = []
    for who, user in personas(world).items():
        api, pages = clients(user)
        for url in api_reads(world):
            status = api.get(url).status_code
            if status != 404:
                leaks.append((who, url, status))
        for url, hidden in api_lists(world):
            rows = api.get(url, {"page_size": 200}).json()["results"]
            if hidden in {row["id"] for row in rows}:
                leaks.append((who, url, "listed"))
        for url in page_reads(world):
            status = pages.get(url).status_code
            if status not in (302, 403, 404) or (status == 302 and user is not None):
                leaks.append((who, url, status))
    assert leaks == []


def test_the_clubs_director_and_a_site_admin_read_every_draft_page_and_endpoint(world):
    director = make_staff(world["club"], Membership.Role.DIRECTOR, "dora")
    site_admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    for user in (director, site_admin):
        api, pages = clients(user)
        for url in api_reads(world):
            assert api.get(url).status_code == 200, url
        for url, shown in api_lists(world):
            rows = api.get(url, {"page_size": 200}).json()["results"]
            assert shown in {row["id"] for row in rows}, url
        for url in page_reads(world):
            if "/final/" in url:
                continue  # no knockout final was started: not found for anyone
            assert pages.get(url).status_code == 200, url
