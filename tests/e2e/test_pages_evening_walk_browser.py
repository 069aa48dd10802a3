"""The pages, second pass (issue 24), in Debian's chromium at 360 × 740 and at 1366 × 768: the
tie-break list follows the format, the big screen's QR code without a CSP error, the standings'
first rows on a phone's first screen, the director's grouped pages, a round deleted only once
confirmed, a referee's link copied in one tap, a typo fixed in one click, the finish card, a
referee signing in to My tables (the table to play first), a Swiss with teams and no round.

Screenshots land in artifacts/screenshots/second-*.png.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.urls import reverse

from tests.e2e.conftest import requires_chromium
from tests.e2e.test_table_browser import sign_in
from tests.tournaments.pages.pages_world import build_world
from tournaments.models import Round, Tournament
from tournaments.services.draws import draw_next_round
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1366, "height": 768}}
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture(params=sorted(SIZES))
def sized(request, chromium_browser):
    context = chromium_browser.new_context(viewport=SIZES[request.param], locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    yield request.param, page
    context.close()


@pytest.fixture
def world():
    return build_world()


def ticked(page):
    return page.eval_on_selector_all(
        "[data-ordered] input:checked", "inputs => inputs.map(i => i.value)"
    )


def test_the_tie_break_list_follows_the_format_and_is_saved_as_shown(
    sized, live_server, world, screenshot
):
    size, page = sized
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + reverse("tournaments:director_new", args=["les-atouts"]))
    assert ticked(page) == ["match_points", "head_to_head", "point_difference", "points_for"]
    page.select_option("#id_format", "swiss")
    shown = ["match_points", "buchholz", "point_difference", "points_for"]
    assert ticked(page) == shown
    page.locator("[data-ordered]").scroll_into_view_if_needed()
    screenshot(page, f"second-{size}-tie-breaks-swiss", full_page=False)
    # A list the director changed stays as it is when the format changes.
    page.uncheck("[data-ordered] input[value=points_for]")
    page.select_option("#id_format", "round_robin")
    page.select_option("#id_format", "swiss")
    assert ticked(page) == shown[:3]
    page.fill("#id_name", f"Swiss {size}")
    page.fill("#id_starts_on", "2026-12-05")
    page.fill("#id_round_count", "4")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert Tournament.objects.get(name=f"Swiss {size}").tie_breaks == shown[:3]


def test_the_big_screen_shows_a_qr_code_and_logs_no_error(sized, live_server, world, screenshot):
    size, page = sized
    page.goto(live_server.url + reverse("tournaments:screen", args=ARGS))
    page.wait_for_load_state("load")
    qr = page.locator("[data-find-table] svg").bounding_box()
    assert qr is not None and qr["width"] >= 60 and qr["y"] + qr["height"] <= SIZES[size]["height"]
    page.wait_for_timeout(500)
    assert page.errors == []
    screenshot(page, f"second-{size}-big-screen", full_page=False)


def test_the_standings_first_rows_are_on_the_first_screen(sized, live_server, world, screenshot):
    size, page = sized
    page.goto(live_server.url + reverse("tournaments:standings", args=ARGS))
    rows = page.locator(".standings-table tbody tr")
    assert rows.count() == 4
    for i in range(3):
        box = rows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= SIZES[size]["height"], i
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    wrap = page.locator(".standings .table-wrap")
    wide = wrap.evaluate("w => w.scrollWidth > w.clientWidth + 2")
    # A table wider than its box says so above it, and its box scrolls by the keyboard too.
    assert page.locator("[data-scroll-hint]").count() == (1 if wide else 0)
    screenshot(page, f"second-{size}-standings", full_page=False)


def test_the_directors_pages_are_grouped_and_a_round_is_deleted_only_once_confirmed(
    sized, live_server, world, screenshot
):
    size, page = sized
    swiss = create_tournament(
        world.tournament.club,
        by=world.director,
        name="Swiss",
        slug="swiss",
        starts_on=datetime.date(2026, 12, 5),
        format="swiss",
        round_count=3,
    )
    register_teams(swiss, "A: Ann One & Bob Two\nB: Cy Three & Di Four", by=world.director)
    draw_next_round(swiss, by=world.director)
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + reverse("tournaments:director", args=["les-atouts", "swiss"]))
    groups = page.locator(".director-nav .nav-group-title").all_inner_texts()
    assert [g.lower() for g in groups] == [
        "before the evening",
        "during the evening",
        "after the evening",
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    screenshot(page, f"second-{size}-director", full_page=False)
    delete = page.locator("form[action$='/delete/'] button")
    page.once("dialog", lambda dialog: dialog.dismiss())
    delete.click()
    page.wait_for_timeout(300)
    assert Round.objects.filter(tournament=swiss).count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        delete.click()
    assert Round.objects.filter(tournament=swiss).count() == 0


def test_a_referees_link_is_copied_in_one_tap(sized, live_server, world, screenshot):
    size, page = sized
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + reverse("tournaments:director_referees", args=ARGS))
    page.fill("#id_text", "Paul Martin")
    with page.expect_navigation():
        page.click("form[action$='/referees/add/'] button[type=submit]")
    copy = page.locator("[data-fresh-links] [data-copy]").first
    copy.click()
    page.wait_for_function("() => document.querySelector('[data-copy]').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == copy.get_attribute("data-copy")
    screenshot(page, f"second-{size}-referee-links", full_page=False)


def test_a_typo_is_fixed_in_one_click_and_the_finish_card_finishes(
    sized, live_server, world, screenshot
):
    from club.models import Player
    from tests.factories import MembershipFactory, PlayerFactory
    from tournaments.models import Match

    size, page = sized
    club = world.tournament.club
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + reverse("tournaments:director_club", args=["les-atouts"]))
    page.fill("#id_text", "Marie Leclrc")
    with page.expect_navigation():
        page.click("main form button.primary >> text=Register the players")
    use = page.locator("[data-use-member]")
    assert use.inner_text() == "Use the member Marie Leclerc"
    use.scroll_into_view_if_needed()
    screenshot(page, f"second-{size}-typo", full_page=False)
    with page.expect_navigation():
        use.click()
    assert not Player.objects.filter(last_name="Leclrc").exists()

    # Every table finished: the dashboard offers to finish, and the card does it.
    Match.objects.filter(tournament=world.tournament).update(status=Match.Status.FINISHED)
    page.goto(live_server.url + reverse("tournaments:director", args=ARGS))
    card = page.locator("[data-finish]")
    card.scroll_into_view_if_needed()
    screenshot(page, f"second-{size}-finish-card", full_page=False)
    with page.expect_navigation():
        card.locator("button").click()
    world.tournament.refresh_from_db()
    assert world.tournament.status == Tournament.Status.FINISHED
    assert page.locator("[data-finish]").count() == 0


def test_a_referee_signs_in_to_my_tables_with_the_table_to_play_first(
    sized, live_server, world, screenshot
):
    from tournaments.models import Match

    size, page = sized
    Match.objects.filter(pk=world.other_match.pk).update(referee=world.referee)
    page.goto(live_server.url + "/")
    with page.expect_navigation():
        page.click("a[href='/accounts/login/']")
    page.fill("#id_username", world.referee.username)
    page.fill("#id_password", "belote-pass")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.endswith(reverse("tournaments:my_tables"))
    tables = page.locator("main a[href$='/table/']")
    first = tables.first.get_attribute("href")
    assert first == reverse("tournaments:table", args=[world.other_match.pk])
    screenshot(page, f"second-{size}-my-tables", full_page=False)


def test_a_swiss_with_teams_says_to_draw_a_round(sized, live_server, world, screenshot):
    size, page = sized
    swiss = create_tournament(
        world.tournament.club,
        by=world.director,
        name="Swiss",
        starts_on=datetime.date(2026, 12, 5),
        format="swiss",
        round_count=3,
    )
    register_teams(swiss, "A: Ann Lee & Bob Lee\nC: Cid Roe & Dan Roe", by=world.director)
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + reverse("tournaments:director", args=["les-atouts", swiss.slug]))
    text = page.locator("main").inner_text()
    assert "No round drawn yet" in text and "No schedule yet" not in text
    screenshot(page, f"second-{size}-swiss-draw-a-round", full_page=False)
