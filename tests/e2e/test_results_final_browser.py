"""Final results in the browser: a phone's outbox stops on final results and says so (deals
kept, never retried forever), the tournament page says "provisional until" in the reader's
own format, and the director reopens with a reason.

Screenshots land in artifacts/screenshots/final-*.png.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import Membership
from tests.e2e.conftest import requires_chromium
from tests.e2e.test_table_browser import open_table, sign_in, type_ordinary_deal
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import Tournament

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(
        name="Winter Cup", slug="winter-cup", club__slug="les-atouts", rules={"target": 500}
    )
    return MatchFactory(round__tournament=tournament, tournament=tournament, referee=referee)


def finish(tournament: Tournament, minutes_ago: int) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )


@pytest.mark.phone
def test_the_outbox_stops_on_final_results_and_keeps_the_deal(page, live_server, match, screenshot):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    page.context.set_offline(True)
    type_ordinary_deal(page, cards="98")
    page.click("#deal-form button[type=submit]")
    page.wait_for_selector("#outbox li[data-waiting]")
    finish(match.tournament, minutes_ago=31)  # the window closed while the phone was offline

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-results-final]")
    state = page.locator("[data-outbox-state]").inner_text()
    assert "results are final" in state
    assert page.locator("#outbox li[data-waiting]").count() == 1
    screenshot(page, "final-01-outbox", full_page=False)
    requests_before = match.deals.count()
    page.wait_for_timeout(1500)
    assert match.deals.count() == requests_before == 0


def test_the_tournament_page_says_until_when_in_the_readers_format(
    page, live_server, match, screenshot
):
    finish(match.tournament, minutes_ago=5)
    page.goto(live_server.url + match.tournament.get_absolute_url())
    shown = page.locator("time[data-local-time]").inner_text()
    # The browser's en-GB on an English page: "1 Dec 2026, 21:49" (the server wrote
    # "Dec. 1, 2026, 9:49 p.m." in the site's time zone).
    assert shown.split(" ")[0].isdigit() and "." not in shown
    screenshot(page, "final-02-provisional", full_page=False)


def test_the_director_reopens_the_final_results_with_a_reason(page, live_server, match, screenshot):
    finish(match.tournament, minutes_ago=31)
    director = make_staff(match.tournament.club, Membership.Role.DIRECTOR, "director")
    sign_in(page, live_server, director)
    page.goto(live_server.url + reverse("tournaments:director", args=["les-atouts", "winter-cup"]))
    page.fill("#reopen-reason", "Table 1 scored deal 3 for the wrong team")
    page.locator("form.reopen-results").scroll_into_view_if_needed()
    screenshot(page, "final-03-reopen", full_page=False)
    page.click("form.reopen-results button[type=submit]")
    page.wait_for_selector(".message.success")
    match.tournament.refresh_from_db()
    assert match.tournament.status == Tournament.Status.RUNNING
