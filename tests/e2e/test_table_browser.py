"""The table on a 360 × 740 phone: one screen per deal, errors in view, deals kept offline and
sent once in order, the teams confirming the sheet, and a referee's private link.

Screenshots land in artifacts/screenshots/table-*.png.
"""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Membership
from tests.e2e.conftest import PHONE, requires_chromium
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import Deal, Match, MatchConfirmation, RefereeLink, Submission
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import enter_deal
from tournaments.services.referees import add_referees, revoke_referee_link

# Playwright's sync API runs an event loop; the ORM calls of this test are synchronous.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.phone,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
]

MADE_BY_NS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


@pytest.fixture
def match():
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(name="Winter Cup", rules={"target": 500})
    return MatchFactory(round__tournament=tournament, referee=referee, table=3)


def sign_in(page, live_server, user):
    """The browser gets a session of `user` (the sign-in page has its own test)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def open_table(page, live_server, match):
    page.goto(live_server.url + reverse("tournaments:table", args=[match.pk]))
    page.wait_for_load_state("domcontentloaded")


def in_view(page, selector):
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def scroll_y(page):
    return page.evaluate("window.scrollY")


def choose(page, field, value_index):
    page.click(f"label[for=id_{field}_{value_index}]")


def type_ordinary_deal(page, *, taker=0, trump=1, side=0, cards="98"):
    choose(page, "taker", taker)
    choose(page, "trump", trump)
    choose(page, "points_team", side)
    page.fill("#id_cards", cards)


def saved(page, number):
    page.wait_for_selector(f"[data-last-deal='{number}']")


def test_an_ordinary_deal_is_entered_and_saved_without_scrolling(
    page, live_server, match, screenshot
):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    screenshot(page, "table-01-empty", full_page=False)
    # Everything an ordinary deal needs is on the first screen, with the score and the dealer.
    for selector in (
        "[data-total=NS]",
        "[data-total=EW]",
        "[data-next-dealer]",
        "label[for=id_taker_0]",
        "label[for=id_taker_2]",
        "label[for=id_trump_3]",
        "#id_cards",
        "#deal-form button[type=submit]",
    ):
        assert in_view(page, selector), selector

    type_ordinary_deal(page, cards="98")
    assert page.locator("[data-other-points]").inner_text() == "EW 64"
    assert in_view(page, "#deal-form button[type=submit]")
    page.click("#deal-form button[type=submit]")
    saved(page, 1)
    assert scroll_y(page) == 0
    assert page.locator("[data-total=NS]").inner_text() == "98"

    # Deal 2: E takes and EW make 81 of 162, a litige: the pot and the undo stay in view.
    type_ordinary_deal(page, taker=1, trump=2, side=1, cards="81")
    page.click("#deal-form button[type=submit]")
    saved(page, 2)
    assert scroll_y(page) == 0
    assert in_view(page, "[data-pot]") and in_view(page, ".undo summary")
    assert in_view(page, "#deal-form button[type=submit]")
    screenshot(page, "table-02-mid-match", full_page=False)
    assert list(match.deals.values_list("number", flat=True)) == [1, 2]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_refused_deal_shows_its_error_in_view(page, live_server, match, screenshot):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    type_ordinary_deal(page, cards="161")  # 161 card points cannot be made
    page.click("#deal-form button[type=submit]")
    page.wait_for_selector("#deal-form .field-error")
    assert scroll_y(page) == 0
    assert in_view(page, "#deal-form .points .errorlist")
    assert in_view(page, "#deal-form button[type=submit]")  # fixed and saved on the same screen
    assert "161" in page.locator("#deal-form .points .errorlist").inner_text()
    assert page.input_value("#id_cards") == "161"
    screenshot(page, "table-03-error", full_page=False)
    assert match.deals.count() == 0

    # Fixed in place and saved.
    page.fill("#id_cards", "160")
    page.click("#deal-form button[type=submit]")
    saved(page, 1)


def test_deals_entered_offline_are_kept_and_sent_once_in_order(
    page, live_server, match, screenshot
):
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    page.context.set_offline(True)
    type_ordinary_deal(page, taker=0, trump=1, side=0, cards="98")
    page.click("#deal-form button[type=submit]")
    page.wait_for_selector("#outbox li[data-waiting]")
    assert page.locator("[data-deal-title]").inner_text().endswith("2")
    assert page.locator("[data-dealer] strong").inner_text().startswith("E ·")  # deal 2's dealer
    type_ordinary_deal(page, taker=1, trump=2, side=1, cards="120")
    page.click("#deal-form button[type=submit]")
    assert page.locator("#outbox li[data-waiting]").count() == 2
    assert "waiting to be sent" in page.locator("#outbox").inner_text()
    assert in_view(page, "#outbox")
    screenshot(page, "table-04-offline", full_page=False)
    assert match.deals.count() == 0

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    saved(page, 2)
    page.wait_for_selector("#outbox", state="hidden")
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [(d.number, d.entry["taker"], d.entry["points"]["cards"]) for d in deals] == [
        (1, "N", 98),
        (2, "E", 120),
    ]
    assert Submission.objects.filter(match=match).count() == 2
    assert page.evaluate("localStorage.length") == 0 or page.evaluate(
        "Object.keys(localStorage).every(k => localStorage.getItem(k) === '[]')"
    )


def test_a_deal_the_director_entered_meanwhile_is_shown_never_dropped(
    page, live_server, match, screenshot
):
    director = make_staff(match.tournament.club, Membership.Role.DIRECTOR, "director")
    sign_in(page, live_server, match.referee)
    open_table(page, live_server, match)
    page.context.set_offline(True)
    type_ordinary_deal(page, cards="98")
    page.click("#deal-form button[type=submit]")
    page.wait_for_selector("#outbox li[data-waiting]")
    enter_deal(match, MADE_BY_NS, by=director)  # the same deal, entered by the director

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#outbox .outbox-conflict")
    conflict = page.locator("#outbox .outbox-conflict").inner_text()
    assert "deal 1" in conflict and "director" in conflict
    screenshot(page, "table-05-conflict", full_page=False)
    assert match.deals.count() == 1

    # The referee sees it is the same deal and discards theirs.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#outbox [data-settle=discard]")
    page.wait_for_selector("#outbox", state="hidden")
    assert match.deals.count() == 1
    type_ordinary_deal(page, taker=1, trump=2, side=1, cards="120")
    page.click("#deal-form button[type=submit]")
    saved(page, 2)


def test_both_teams_confirm_a_finished_match(page, live_server, screenshot):
    referee = UserFactory(username="referee")
    tournament = TournamentFactory(name="Winter Cup", rules={"target": None, "max_deals": 2})
    match = MatchFactory(round__tournament=tournament, referee=referee, table=1)
    enter_deal(match, MADE_BY_NS, by=referee)
    sign_in(page, live_server, referee)
    open_table(page, live_server, match)
    type_ordinary_deal(page, taker=1, trump=0, side=1, cards="120")
    page.click("#deal-form button[type=submit]")
    page.wait_for_selector("[data-confirm]")
    screenshot(page, "table-06-confirm", full_page=False)
    page.click("[data-answer=NS] button.confirm-button")
    page.wait_for_selector("[data-answer=NS].answer-agreed")
    page.click("[data-answer=EW] button.confirm-button")
    page.wait_for_selector("[data-confirmed]")
    screenshot(page, "table-07-confirmed", full_page=False)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert set(
        MatchConfirmation.objects.filter(match=match, agree=True).values_list("side", flat=True)
    ) == {"NS", "EW"}


def test_a_referee_signs_in_through_a_private_link_and_sees_only_their_tables(
    page, live_server, screenshot
):
    tournament = TournamentFactory(name="Winter Cup", rules={"target": 500})
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "director")
    (fresh,) = add_referees(tournament, "Marie Dupont", by=director)
    marie = fresh.link.referee
    mine = MatchFactory(round__tournament=tournament, referee=marie, table=1)
    theirs = MatchFactory(round=mine.round, tournament=tournament, table=2)
    elsewhere = MatchFactory(round__tournament=TournamentFactory(), referee=marie, table=1)

    link = live_server.url + reverse("tournaments:referee_link", args=[fresh.secret])
    page.goto(link)
    assert "Marie Dupont" in page.locator("main").inner_text()
    screenshot(page, "table-08-private-link", full_page=False)
    page.click("main button[type=submit]")
    page.wait_for_url("**/referee/")
    links = page.locator(".table-link")
    assert links.count() == 1
    assert links.first.get_attribute("href") == reverse("tournaments:table", args=[mine.pk])
    for other in (theirs, elsewhere):
        answer = page.request.get(live_server.url + reverse("tournaments:table", args=[other.pk]))
        assert answer.status == 403
    director_page = reverse("tournaments:director", args=[tournament.club.slug, tournament.slug])
    assert page.request.get(live_server.url + director_page).status == 403

    revoke_referee_link(fresh.link, by=director)
    page.goto(live_server.url + reverse("tournaments:table", args=[mine.pk]))
    assert "/accounts/login/" in page.url  # the session it opened has ended
    answer = page.goto(link)
    assert answer.status == 410


def test_the_director_makes_referees_from_names_and_sees_a_dispute(
    chromium_browser, live_server, screenshot
):
    from tests.tournaments.pages.pages_world import build_world

    world = build_world()  # table 1 of round 1 is played out (three deals)
    tournament = world.tournament
    args = [tournament.club.slug, tournament.slug]
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        sign_in(page, live_server, world.director)
        page.goto(live_server.url + reverse("tournaments:director_referees", args=args))
        page.fill("#id_text", "Marie Dupont\nPaul Roux")
        with page.expect_navigation():
            page.click("button:has-text('Add the referees and make their links')")
        assert page.locator("[data-fresh-links] figure.link-card svg").count() == 2
        url = page.locator("[data-link-for='marie.dupont'] [data-link-url]").inner_text()
        assert url.startswith(live_server.url + "/t/")
        screenshot(page, "table-09-director-referees")

        # Marie takes table 2 in every open round at once.
        marie = RefereeLink.objects.get(referee__username="marie.dupont").referee
        page.click("details.every-round summary")
        page.select_option("#id_table_2", value=str(marie.pk))
        with page.expect_navigation():
            page.click("button:has-text('Save the referees')")
        at_table_2 = tournament.matches.filter(table=2, ew_team__isnull=False)
        assert set(at_table_2.values_list("referee", flat=True)) == {marie.pk}

        # On the referee's phone, EW dispute the finished sheet; the director's tables say so.
        confirm_sheet(world.match, side="EW", agree=False, by=world.referee, remark="we had 130")
        page.goto(live_server.url + reverse("tournaments:director", args=args))
        assert "we had 130" in page.locator("[data-disputes]").inner_text()
        screenshot(page, "table-10-director-dispute", full_page=False)
        with page.expect_navigation():
            page.click("#tables details.round >> nth=0 >> button:has-text('Close round 1')")
        assert page.locator("[data-round-not-ready]").count() == 1
        screenshot(page, "table-11-close-round-asks")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_one_screen_holds_in_french_and_dutch(
    chromium_browser, live_server, match, screenshot, language
):
    from django.core.management import call_command
    from django.utils.translation import trans_real

    call_command("compile_translations", verbosity=0)  # this process reads fresh catalogues
    trans_real._translations = {}
    trans_real._default = None
    enter_deal(
        match, {**MADE_BY_NS, "taker": "E", "points": {"team": "EW", "cards": 81}}, by=match.referee
    )
    context = chromium_browser.new_context(viewport=PHONE, locale=language)
    try:
        page = context.new_page()
        sign_in(page, live_server, match.referee)
        open_table(page, live_server, match)
        for selector in (
            "[data-pot]",
            ".undo summary",
            "[data-next-dealer]",
            "#deal-form button[type=submit]",
        ):
            assert in_view(page, selector), selector
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"table-12-{language}", full_page=False)
    finally:
        context.close()
