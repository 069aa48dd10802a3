"""Live pages in Debian's chromium: a spectator's standings, match sheet and big screen follow a
deal a referee enters in another browser within three seconds; a player finds their table on a
phone; the director's evening (new members confirmed, tie-breaks put in order). Screenshots at
360 px and 1920 px go to artifacts/screenshots/live-*.png.
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.urls import reverse

from club.models import Membership
from tests.e2e.conftest import requires_chromium, sign_in
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, make_staff
from tests.tournaments.pages.pages_world import MADE_BY_EW, MADE_BY_NS, build_world
from tournaments.models import Match, Tournament
from tournaments.services.deals import enter_deal

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]
ARGS = ["les-atouts", "winter-cup"]
BIG_SCREEN = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}
# The promise of the pages: a deal saved shows everywhere within two seconds; the test
# allows three for a loaded machine.
SECONDS = 3.0


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def seconds_until(page, script, arg, since):
    """Wait (at most SECONDS after `since`) for `script` to hold; the delay it took."""
    left = max(0.1, SECONDS - (time.monotonic() - since))
    page.wait_for_function(script, arg=arg, timeout=left * 1000, polling=50)
    return time.monotonic() - since


def test_a_deal_entered_at_a_table_shows_on_the_standings_sheet_and_big_screen_within_3_s(
    chromium_browser, live_server, screenshot
):
    world = build_world()
    match = world.other_match
    base = live_server.url
    spectator = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    projector = chromium_browser.new_context(viewport=BIG_SCREEN, locale="en-GB")
    referee = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    try:
        standings = spectator.new_page()
        standings.goto(base + reverse("tournaments:standings", args=ARGS))
        assert standings.locator("#standings").get_attribute("data-live") == "0"
        sheet = spectator.new_page()
        sheet.goto(base + match.get_absolute_url())
        assert sheet.locator("#sheet .total[data-side=NS]").inner_text() == "0"
        screen = projector.new_page()
        screen.goto(base + reverse("tournaments:screen", args=ARGS))
        row = f"#screen tr[data-match='{match.pk}'] .score"
        assert screen.locator(row).text_content().split() == ["0", "–", "0"]

        table = referee.new_page()
        sign_in(table, base, world.other_referee.username, f"/matches/{match.pk}/table/")
        table.check("#id_taker_0")  # North takes
        table.check("#id_trump_0")
        table.check("#id_points_team_0")
        table.fill("#id_cards", "100")
        table.click("#deal-form button[type=submit]")
        table.wait_for_selector("[data-last-deal='1']")  # the table page saves in place
        saved = time.monotonic()
        match.refresh_from_db()
        assert match.status == Match.Status.PLAYING and match.ns_total > 0

        delays = {
            "standings": seconds_until(
                standings,
                "() => document.querySelector('#standings').dataset.live === '1'",
                None,
                saved,
            ),
            "match sheet": seconds_until(
                sheet,
                "t => document.querySelector('#sheet .total[data-side=NS]').textContent === t",
                str(match.ns_total),
                saved,
            ),
            "big screen": seconds_until(
                screen,
                "([s, t]) => document.querySelector(s).textContent.trim().startsWith(t + ' ')",
                [row, str(match.ns_total)],
                saved,
            ),
        }
        print("\ndelay from the deal saved to the page showing it:", end=" ")
        print(", ".join(f"{page} {delay:.2f} s" for page, delay in delays.items()))
        assert all(delay < SECONDS for delay in delays.values())

        # The live table counts the match in play for both its teams, and says so.
        in_play = standings.locator("#standings tbody tr.in-play")
        assert in_play.count() == 2
        assert "Provisional" in standings.locator("#standings").inner_text()
        assert "Last updated" in standings.locator("#standings .as-of").inner_text()
        screenshot(standings, "live-01-standings-provisional-360")
        screenshot(sheet, "live-02-match-sheet-360")
        assert sheet.evaluate("document.documentElement.scrollWidth") <= 360
        # The totals of every row are in view on the phone: no column is off-screen.
        totals = sheet.locator("#sheet table.sheet thead th", has_text="EW total").bounding_box()
        assert totals is not None and totals["x"] + totals["width"] <= 360
        screenshot(screen, "live-03-big-screen-1920")
        assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
    finally:
        spectator.close()
        projector.close()
        referee.close()


def test_the_big_screen_turns_from_the_tables_to_the_live_standings(
    chromium_browser, live_server, screenshot
):
    world = build_world(8)
    for match in world.tournament.matches.filter(round__number=1, ew_team__isnull=False)[1:3]:
        enter_deal(match, MADE_BY_NS, by=world.director)
    from tournaments.services.standings import recompute_standings

    recompute_standings(world.tournament.pk)
    Tournament.objects.filter(pk=world.tournament.pk).update(language="fr")
    context = chromium_browser.new_context(viewport=BIG_SCREEN, locale="en-GB")
    try:
        screen = context.new_page()
        screen.goto(live_server.url + reverse("tournaments:screen", args=ARGS))
        # In the tournament's language, whatever the browser's.
        assert screen.locator("html").get_attribute("lang") == "fr"
        tables = screen.locator(".slide-tables")
        assert tables.first.is_visible()
        assert "Table" in tables.first.inner_text()
        screenshot(screen, "live-04-big-screen-tables-1920")
        screen.keyboard.press("ArrowRight")  # a presenter's clicker; else it turns by itself
        standings = screen.locator(".slide-standings").first
        standings.wait_for(state="visible", timeout=5_000)
        assert "provisoire" in standings.inner_text().lower()
        screenshot(screen, "live-05-big-screen-standings-1920")
        assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
    finally:
        context.close()


@pytest.mark.phone
def test_a_player_finds_their_table_and_it_follows_the_round(page, live_server, screenshot):
    world = build_world()
    base = live_server.url
    team = world.other_match.ew_team
    player = team.second_player
    player.first_name, player.last_name = "Chloé", "Girard"
    player.save()
    page.goto(base + reverse("tournaments:find_player", args=ARGS))
    page.fill("#find-q", "chloe gir")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    screenshot(page, "live-06-find-my-table-360")
    with page.expect_navigation():
        page.click("text=Chloé Girard")
    card = page.locator("#player-table")
    assert card.locator("[data-table]").inner_text() == f"Table {world.other_match.table}"
    # The second player of the team sitting East–West sits West.
    assert card.locator("[data-seat]").get_attribute("data-seat") == "W"
    screenshot(page, "live-07-my-table-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # The round's match ends: the page moves to the next table by itself.
    for entry in (MADE_BY_NS, MADE_BY_EW, MADE_BY_NS):
        enter_deal(world.other_match, entry, by=world.director)
    following = Match.objects.get(Q(ns_team=team) | Q(ew_team=team), round__number=2)
    page.wait_for_function(
        "t => document.querySelector('#player-table [data-table]')?.dataset.table === t",
        arg=str(following.table),
        timeout=SECONDS * 1000,
    )
    assert "Round 2" in card.inner_text()


def test_the_director_confirms_new_members_and_orders_the_tie_breaks(page, live_server, screenshot):
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    leclerc = PlayerFactory(first_name="Marie", last_name="Leclerc")
    club.memberships.create(player=leclerc, role=Membership.Role.MEMBER)
    TournamentFactory(club=club, slug="winter-cup", name="Winter Cup", status="draft")
    base = live_server.url
    sign_in(page, base, director.username, reverse("tournaments:director_teams", args=ARGS))
    # The header leads directors to their pages.
    assert page.locator("header a", has_text="Direct").count() == 1
    page.fill("#id_text", "Les Tierces: Marie Lecler & Paul Roy")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    warning = page.locator(".confirm-members")
    assert (
        "Marie Lecler" in warning.inner_text() and "close to Marie Leclerc" in warning.inner_text()
    )
    screenshot(page, "live-08-confirm-new-members")
    with page.expect_navigation():
        page.click("button[name=create_members]")
    assert "1 team registered." in page.locator(".messages").inner_text()

    page.goto(base + reverse("tournaments:director_edit", args=ARGS))
    order = page.locator("#id_tie_breaks li")
    assert order.first.get_attribute("data-choice") == "match_points"
    # Points for, moved above the point difference; head-to-head left out.
    page.locator("#id_tie_breaks li[data-choice=points_for] [data-move=up]").click()
    page.uncheck("#id_tie_breaks_head_to_head")
    screenshot(page, "live-09-tie-breaks")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert Tournament.objects.get(slug="winter-cup").tie_breaks == [
        "match_points",
        "points_for",
        "point_difference",
    ]
