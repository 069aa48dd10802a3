"""A director corrects a finished match in a closed round: from the tables page to the table,
removes a deal in the middle, and meets a correction made meanwhile (issue 22 item 6, issue
28 items 4 and 9). Screenshots land in artifacts/screenshots/corrections-*.png."""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Membership
from tests.e2e.conftest import requires_chromium
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.services.deals import close_match, correct_deal, enter_deal

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
DEDANS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 70}}
WON = {"taker": "S", "trump": "D", "points": {"team": "NS", "cards": 120}}


def sign_in(page, live_server, user):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def test_a_director_removes_a_middle_deal_of_a_closed_match_and_sees_a_stale_edit(
    page, live_server, screenshot
):
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(name="Winter Cup", slug="winter", rules={"max_deals": 4})
    match = MatchFactory(round__tournament=tournament, referee=referee, table=2)
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "boss")
    for entry in (MADE, DEDANS, WON, MADE):
        enter_deal(match, entry, by=referee)
    close_match(match, by=director)
    match.round.is_closed = True
    match.round.save()

    sign_in(page, live_server, director)
    page.goto(
        live_server.url + reverse("tournaments:director", args=[tournament.club.slug, "winter"])
    )
    page.locator("details.round summary").first.click()
    screenshot(page, "corrections-director-tables")
    with page.expect_navigation():
        page.click(f"[data-match-deals='{match.pk}']")
    screenshot(page, "corrections-table")
    with page.expect_navigation():
        page.click("[data-remove-deal='2']")
    screenshot(page, "corrections-remove-deal-2")
    with page.expect_navigation():
        page.click("[data-remove-form='2'] button[type=submit]")
    assert [d.entry["taker"] for d in match.deals.order_by("number")] == ["N", "S", "N"]
    screenshot(page, "corrections-after-removal")

    # Deal 2 (the former deal 3) is opened for a correction; another director corrects it
    # meanwhile.
    page.goto(live_server.url + reverse("tournaments:correct_deal", args=[match.pk, 2]))
    correct_deal(match, 2, DEDANS, by=director)
    page.fill("input[name=cards]", "140")
    with page.expect_navigation():
        page.click("#deal-form button[type=submit]")
    assert page.locator("[data-deal-changed]").is_visible()
    screenshot(page, "corrections-stale-edit")
    assert match.deals.get(number=2).entry["taker"] == "E"
