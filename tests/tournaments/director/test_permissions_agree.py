"""The pages and the API give the same answer to the same person, for every action.

Both ask tournaments.permissions; this holds them to it: each persona tries each action
once on the pages and once through the API, every attempt rolled back, and the two
answers (allowed or refused) must agree — and match the table of docs/director.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership
from tests.factories import ClubFactory, UserFactory, make_staff
from tests.tournaments.pages.pages_world import World, build_world

pytestmark = pytest.mark.django_db

PERSONAS = ["anonymous", "referee", "other_referee", "director", "other_club", "site_admin"]


def people(world: World) -> dict[str, Any]:
    return {
        "anonymous": AnonymousUser(),
        "referee": world.referee,
        "other_referee": world.other_referee,
        "director": world.director,
        "other_club": make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger"),
        "site_admin": UserFactory(username="root", is_superuser=True, is_staff=True),
    }


def page_client(user: Any) -> Client:
    client = Client()
    if user.is_authenticated:
        client.force_login(user)
    return client


def api_client(user: Any) -> APIClient:
    client = APIClient()
    if user.is_authenticated:
        client.force_authenticate(user)
    return client


def page_allowed(response: Any) -> bool:
    if response.status_code == 302:
        return "/accounts/login/" not in response["Location"]
    return response.status_code < 400


def api_allowed(response: Any) -> bool:
    return response.status_code < 400


def attempt(call: Callable[[], Any]) -> Any:
    """Make the request, then undo whatever it changed, so every attempt sees the same world."""
    with transaction.atomic():
        response = call()
        transaction.set_rollback(True)
    return response


def actions(world: World) -> dict[str, tuple[Callable[..., Any], Callable[..., Any]]]:
    t, match = world.tournament, world.match
    args = [t.club.slug, t.slug]
    round_1 = match.round
    team = t.teams.order_by("seed").first()
    settings = {
        "name": t.name,
        "slug": t.slug,
        "starts_on": t.starts_on.isoformat(),
        "format": t.format,
        "points_win": 3,
        "points_draw": 1,
        "points_loss": 0,
        "tie_breaks": "match_points",
        "is_public": "on" if t.is_public else "",
    }
    return {
        "read the tournament": (
            lambda c: c.get(reverse("tournaments:detail", args=args)),
            lambda c: c.get(f"/api/v1/tournaments/{t.pk}/"),
        ),
        "read a match sheet": (
            lambda c: c.get(reverse("tournaments:match", args=[match.pk])),
            lambda c: c.get(f"/api/v1/matches/{match.pk}/"),
        ),
        "remove the last deal": (
            lambda c: c.post(
                reverse("tournaments:remove_last_deal", args=[match.pk]),
                {"number": str(match.deal_count)},
            ),
            lambda c: c.delete(f"/api/v1/matches/{match.pk}/deals/{match.deal_count}/"),
        ),
        "close a match": (
            lambda c: c.post(reverse("tournaments:close_match", args=[match.pk])),
            lambda c: c.post(f"/api/v1/matches/{match.pk}/close/"),
        ),
        "close a round": (
            lambda c: c.post(
                reverse("tournaments:director_round", args=[*args, 1, "close"]), {"force": "1"}
            ),
            lambda c: c.post(f"/api/v1/rounds/{round_1.pk}/close/?force=true"),
        ),
        "confirm the sheet for a team": (
            lambda c: c.post(
                reverse("tournaments:confirm_sheet", args=[match.pk]), {"team": "NS", "agree": "1"}
            ),
            lambda c: c.post(
                f"/api/v1/matches/{match.pk}/confirmations/",
                {"team": "NS", "agree": True},
                format="json",
            ),
        ),
        "change the settings": (
            lambda c: c.post(reverse("tournaments:director_edit", args=args), settings),
            lambda c: c.patch(f"/api/v1/tournaments/{t.pk}/", {"points_win": 3}, format="json"),
        ),
        "withdraw a team": (
            lambda c: c.post(reverse("tournaments:director_withdraw", args=[*args, team.pk])),
            lambda c: c.post(f"/api/v1/teams/{team.pk}/withdraw/"),
        ),
    }


# What the table of docs/director.md says each persona may do (a public tournament).
MAY = {
    "anonymous": {"read the tournament", "read a match sheet"},
    "referee": {
        "read the tournament",
        "read a match sheet",
        "remove the last deal",
        "confirm the sheet for a team",
    },
    "other_referee": {"read the tournament", "read a match sheet"},
    "other_club": {"read the tournament", "read a match sheet"},
}


@pytest.mark.parametrize("persona", PERSONAS)
def test_pages_and_api_agree_on_every_action_in_a_public_tournament(persona):
    world = build_world()
    user = people(world)[persona]
    for action, (on_page, through_api) in actions(world).items():
        page = page_allowed(attempt(lambda on_page=on_page: on_page(page_client(user))))
        api = api_allowed(attempt(lambda through_api=through_api: through_api(api_client(user))))
        assert page == api, f"{persona} / {action}: page {page}, API {api}"
        expected = persona in ("director", "site_admin") or action in MAY[persona]
        assert page == expected, f"{persona} / {action}"


@pytest.mark.parametrize("persona", PERSONAS)
def test_pages_and_api_agree_on_reading_a_private_tournament(persona):
    world = build_world()
    world.tournament.is_public = False
    world.tournament.save(update_fields=["is_public"])
    user = people(world)[persona]
    reads = {k: v for k, v in actions(world).items() if k.startswith("read")}
    for action, (on_page, through_api) in reads.items():
        page = page_allowed(attempt(lambda on_page=on_page: on_page(page_client(user))))
        api = api_allowed(attempt(lambda through_api=through_api: through_api(api_client(user))))
        assert page == api, f"{persona} / {action}: page {page}, API {api}"
        # Its directors and the referees of its matches see it; nobody else learns it exists.
        expected = persona in ("referee", "other_referee", "director", "site_admin")
        assert page == expected, f"{persona} / {action}"
