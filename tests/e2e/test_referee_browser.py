"""A referee on a phone signs in and enters a whole match: litige, thrown in, dedans, capot,
a correction and a removal; the page's totals equal the engine's replay."""

from __future__ import annotations

import os

import pytest

from scoring.engine import Team
from tests.e2e.conftest import requires_chromium
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tournaments.models import Match
from tournaments.services.deals import replay

# Playwright's sync API runs an event loop; the ORM calls of this test are synchronous.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(name="Winter Cup", rules={"target": 500})
    return MatchFactory(round__tournament=tournament, referee=referee, table=3)


def totals_on(page):
    return (
        int(page.locator("[data-total=NS]").inner_text()),
        int(page.locator("[data-total=EW]").inner_text()),
    )


def totals_of_the_engine(match):
    played = replay(match)
    return (played.totals[Team.NS], played.totals[Team.EW])


def save(page, number=None):
    """Save the deal; the page sends it and shows the server's answer in place."""
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("#deal-form button[type=submit]")
    if number is not None:
        page.wait_for_selector(f"[data-last-deal='{number}']")


@pytest.mark.phone
def test_a_referee_enters_a_whole_match_on_a_phone(page, live_server, match, screenshot):
    # Sign in on the way to "My tables".
    page.goto(live_server.url + "/referee/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "referee")
    page.fill("#id_password", "belote-pass")
    screenshot(page, "referee-01-sign-in")
    page.click("button[type=submit]")
    page.wait_for_url("**/referee/")
    screenshot(page, "referee-02-my-tables")
    page.click("text=Table 3")
    page.wait_for_url("**/table/")
    assert page.locator("[data-next-dealer=N]").count() == 1

    # Deal 1, by keyboard alone: N takes in spades, NS make 81 of 162: a litige.
    page.focus("#id_taker_0")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("81")
    assert page.locator("[data-other-points]").inner_text() == "EW 81"
    screenshot(page, "referee-03-deal-form")
    # The keyboard's Enter closes the keyboard; belote or a declaration may still be added.
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator("[data-last-deal]").count() == 0
    page.focus("#deal-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-last-deal='1']")
    assert totals_on(page) == (0, 81)
    assert page.locator("[data-pot]").inner_text() == "81"

    # A mistake is shown at its field and what was typed stays.
    page.check("#id_taker_1")
    page.fill("#id_cards", "161")
    save(page)
    page.wait_for_selector("#deal-form .field-error")
    assert page.locator(".field-error").count() >= 2
    assert page.input_value("#id_cards") == "161"
    screenshot(page, "referee-04-errors")

    # Deal 2: all passed, thrown in.
    page.check("#id_taker_4")
    page.fill("#id_cards", "")
    save(page, 2)
    assert page.locator("[data-deal='2']").inner_text().count("thrown in") == 1

    # Deal 3: E takes in diamonds, EW 100: made, and EW take the pot of 81.
    page.check("#id_taker_1")
    page.check("#id_trump_2")
    page.check("#id_points_team_1")
    page.fill("#id_cards", "100")
    save(page, 3)
    assert totals_on(page) == (62, 262)

    # Deal 4: W takes in clubs, EW only 70: dedans.
    page.check("#id_taker_3")
    page.check("#id_trump_3")
    page.check("#id_points_team_1")
    page.fill("#id_cards", "70")
    save(page, 4)
    assert totals_on(page) == (224, 262)

    # Deal 5: S takes in hearts, NS capot with a fifty from the quick buttons: the match ends.
    page.check("#id_taker_2")
    page.check("#id_trump_1")
    page.click("[data-extra=capot] summary")
    page.check("#id_capot_1")
    page.click("[data-extra=declarations] summary")
    page.locator("[data-decl-team=NS] [data-add=seq4]").click()
    assert page.locator("#id_decl_NS_0_kind").input_value() == "seq4"
    save(page, 5)
    assert totals_on(page) == (526, 262)
    assert page.locator("[data-winner=NS]").count() == 1
    assert page.locator("#deal-form").count() == 0
    screenshot(page, "referee-05-match-over")

    # Correct deal 3: EW had 110, not 100 (the correction page is an ordinary form).
    page.click("#deal-3 a")
    assert page.input_value("#id_cards") == "100"
    page.fill("#id_cards", "110")
    with page.expect_navigation():
        page.click("#deal-form button[type=submit]")
    page.wait_for_url("**/table/")
    match.refresh_from_db()
    assert totals_on(page) == (516, 272) == totals_of_the_engine(match)

    # Remove the last deal from the score bar's undo: the match goes on.
    page.click(".undo summary")
    with page.expect_navigation():
        page.click(".undo button[type=submit]")
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.deal_count == 4
    assert totals_on(page) == (214, 272) == totals_of_the_engine(match)
    assert page.locator("#deal-form").count() == 1
    screenshot(page, "referee-06-after-removal")

    # Nothing overflows the phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


def test_a_director_sees_the_audit_trail_and_closes_the_match(page, live_server, match, screenshot):
    from club.models import Membership
    from tests.factories import make_staff
    from tournaments.services.deals import correct_deal, enter_deal

    director = make_staff(match.tournament.club, Membership.Role.DIRECTOR, "director")
    enter_deal(
        match, {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}, by=match.referee
    )
    correct_deal(
        match, 1, {"taker": "E", "trump": "H", "points": {"team": "EW", "cards": 60}}, by=director
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/{match.pk}/table/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "belote-pass")
    page.click("main button[type=submit]")
    page.wait_for_url("**/table/")
    assert page.locator("table.audit tbody tr").count() == 2
    page.click("text=Close the match")
    page.wait_for_load_state("domcontentloaded")
    assert page.locator("text=Reopen the match").count() == 1
    screenshot(page, "referee-07-director")
    match.refresh_from_db()
    assert match.is_closed
