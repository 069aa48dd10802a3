"""The table's deal form undoes every choice in place (issue: "All passed" after starting a
deal was a dead end) and turns the card points' side to the taker's.

On a 360 × 740 phone; screenshots in artifacts/screenshots/deal-choices-*.png.
"""

from __future__ import annotations

import pytest

from tests.e2e.test_table_browser import choose, open_table, saved, sign_in
from tests.factories import MatchFactory, TournamentFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.phone, pytest.mark.django_db(transaction=True)]

NORTH, EAST, SOUTH, WEST, ALL_PASSED = range(5)


@pytest.fixture
def match():
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(name="Winter Cup", rules={"target": 500})
    return MatchFactory(round__tournament=tournament, referee=referee, table=3)


def checked(page, field):
    return page.evaluate(
        f"(document.querySelector('input[name={field}]:checked') || {{}}).value || ''"
    )


def test_all_passed_after_a_seat_a_suit_and_points_saves_a_thrown_in_deal(
    page, live_server, match, screenshot
):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    choose(page, "taker", NORTH)
    choose(page, "trump", 1)
    page.fill("#id_cards", "100")
    choose(page, "taker", ALL_PASSED)
    screenshot(page, "deal-choices-all-passed", full_page=False)
    assert page.locator("[data-when-taken]").is_hidden()
    page.click("#deal-form button[type=submit]")
    saved(page, 1)
    deal = match.deals.get()
    # An all-passed deal: no taker, no trump, no points (the engine's shape of a pass).
    assert (deal.entry["taker"], deal.entry["trump"], deal.entry["points"]) == (None, None, None)
    assert (deal.ns_score, deal.ew_score) == (0, 0)


def test_a_seat_tapped_back_brings_the_trump_and_points_back_as_they_were(page, live_server, match):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    choose(page, "taker", NORTH)
    choose(page, "trump", 1)
    page.fill("#id_cards", "100")
    choose(page, "taker", ALL_PASSED)
    choose(page, "taker", NORTH)
    assert page.locator("[data-when-taken]").is_visible()
    assert page.input_value("#id_cards") == "100"
    page.click("#deal-form button[type=submit]")
    saved(page, 1)
    assert match.deals.get().entry["points"] == {"team": "NS", "cards": 100}


def test_a_trump_or_a_seat_tapped_again_is_unchosen(page, live_server, match):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    choose(page, "trump", 2)
    assert checked(page, "trump") != ""
    choose(page, "trump", 2)
    assert checked(page, "trump") == ""
    choose(page, "taker", WEST)
    choose(page, "taker", WEST)
    assert checked(page, "taker") == ""


def test_the_points_side_follows_the_taker_until_the_referee_picks_it(page, live_server, match):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    assert checked(page, "points_team") == "NS"
    choose(page, "taker", EAST)
    assert checked(page, "points_team") == "EW"
    choose(page, "taker", SOUTH)
    assert checked(page, "points_team") == "NS"
    # Picked by hand, the side stays whoever takes.
    choose(page, "points_team", 1)
    choose(page, "taker", NORTH)
    assert checked(page, "points_team") == "EW"
    choose(page, "trump", 0)
    page.fill("#id_cards", "90")
    page.click("#deal-form button[type=submit]")
    saved(page, 1)
    # The next deal starts again from the taker's side.
    choose(page, "taker", WEST)
    assert checked(page, "points_team") == "EW"
    choose(page, "taker", NORTH)
    assert checked(page, "points_team") == "NS"
