"""The score pad on a 360 × 740 phone: a game of three, each for themselves, set up, played,
a deal corrected and one removed, the winner named, saved and shared read-only, a deal
kept on the phone while the network is down, and the pad reopened without network (the site's
service worker keeps it).

These phones have no engine of their own (no Web Worker, as on a site installed without npm,
or while the engine is still loading): the server scores, and a deal entered without network
waits, not scored yet. The engine on the phone is tests/e2e/test_pad_engine_browser.py's.

Screenshots land in artifacts/screenshots/pad-*.png.
"""

from __future__ import annotations

import os

import pytest
from django.templatetags.static import static
from django.urls import reverse
from playwright.sync_api import expect

from pad.game import replay
from pad.models import Pad
from tests.e2e.conftest import PHONE, requires_chromium

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.phone,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
]


# The page finds no Web Worker, so static/js/engine.js never starts the engine.
WITHOUT_ENGINE = "Object.defineProperty(window, 'Worker', { value: undefined });"


def _phone_page(browser, **options):
    context = browser.new_context(viewport=PHONE, locale="en-GB", **options)
    context.add_init_script(WITHOUT_ENGINE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def page(chromium_browser):
    """A phone without the site's service worker, for the tests of the pad itself: under
    Playwright a page's fetch can stall while a new worker fills its cache."""
    yield from _phone_page(chromium_browser, service_workers="block")


@pytest.fixture
def worker_page(chromium_browser):
    """A phone with the site's service worker, for the pad reopened without network."""
    yield from _phone_page(chromium_browser)


def open_with_the_worker(page, live_server):
    """The new-game page, once the worker holds its copy (nothing typed while it installs)."""
    page.goto(live_server.url + reverse("pad:new"))
    worker_kept(page, reverse("pad:new"))


def start_a_game_of_three(page, live_server, target="250", *, opened=False):
    if not opened:
        page.goto(live_server.url + reverse("pad:new"))
    page.locator("#setup-form label.side-chip", has_text="3").click()
    page.fill("#name-N", "Anna")
    page.fill("#name-E", "Bram")
    page.fill("#name-S", "Cato")
    assert page.locator("#name-W").is_hidden()
    page.click("#pad-rules summary")
    page.fill("#rule-target", target)


def enter(page, taker, trump, cards, *, belote=None):
    page.locator(f"#pad-form label.seat-{taker}").click()
    page.locator(f"#pad-form label.suit-{trump}").click()
    for seat, points in cards.items():
        page.fill(f"#pad-form input[name=cards_{seat}]", str(points))
    if belote:
        page.click("[data-extra=belote] summary")
        page.locator("[data-sides=belote] label", has_text=f"{belote} ·").click()
    page.click("[data-save]")


def totals(page):
    return {seat: page.locator(f"[data-total={seat}]").inner_text() for seat in ("N", "E", "S")}


def test_a_game_of_three_on_a_phone(page, live_server, screenshot):
    start_a_game_of_three(page, live_server)
    screenshot(page, "pad-setup-three")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")
    # A seat per player: no West chip, a card-points box for each of the three.
    assert page.locator("#pad-form label.seat-W").is_hidden()
    assert page.locator("#pad-form input[name=cards_E]").is_visible()
    screenshot(page, "pad-entry-three", full_page=False)

    # §10's first example: N 70, E 50, S left out (42), N holds belote: made.
    enter(page, "N", "H", {"N": 70, "E": 50}, belote="N")
    page.wait_for_selector("[data-deal='1']")
    expect(page.locator("[data-total=N]")).to_have_text("90")
    assert totals(page) == {"N": "90", "E": "50", "S": "42"}

    # Card points that do not add up are refused, naming the field, and nothing is kept.
    enter(page, "E", "S", {"N": 70, "E": 50, "S": 50})
    page.wait_for_selector("[data-errors=points] li")
    assert "add up to 170" in page.locator("[data-errors=points]").inner_text()
    assert page.locator("[data-deal]").count() == 1
    screenshot(page, "pad-error-three", full_page=False)
    page.fill("#pad-form input[name=cards_S]", "")
    page.click("[data-save]")
    page.wait_for_selector("[data-deal='2']")
    # E 50 not more than N 70: dedans, E's 50 shared (25 each).
    expect(page.locator("[data-total=N]")).to_have_text("185")
    assert totals(page) == {"N": "185", "E": "50", "S": "109"}

    # Deal 1 corrected (no belote after all): the game is replayed.
    page.locator("[data-deal='1'] button", has_text="✎").click()
    assert "Correct deal 1" in page.locator("[data-form-title]").inner_text()
    page.locator("[data-sides=belote] label", has_text="none").click()
    page.click("[data-save]")
    expect(page.locator("[data-total=N]")).to_have_text("165")
    assert totals(page) == {"N": "165", "E": "50", "S": "109"}

    # A third deal, then deal 2 removed: the later deal becomes deal 2.
    enter(page, "S", "C", {"N": 30, "E": 40})
    page.wait_for_selector("[data-deal='3']")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-deal='2'] button", has_text="✕").click()
    expect(page.locator("[data-deal]")).to_have_count(2)
    assert totals(page) == {"N": "100", "E": "90", "S": "134"}
    screenshot(page, "pad-deals-three")

    # South passes 250: the winner is named and the entry closes.
    enter(page, "S", "D", {"N": 0, "E": 0})
    page.wait_for_selector("[data-winner]:not([hidden])")
    assert page.locator("[data-winner]").inner_text() == "Cato wins!"
    assert page.locator("#pad-form").is_hidden()
    screenshot(page, "pad-winner-three", full_page=False)

    # Undo takes the last deal back and the game goes on.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-undo]")
    page.wait_for_selector("[data-winner][hidden]", state="attached")
    assert page.locator("#pad-form").is_visible()

    # Saved: a private address to continue, a read-only one to share.
    page.click("[data-save-game]")
    page.wait_for_url("**/pad/*/")
    pad = Pad.objects.get()
    assert pad.players == ["Anna", "Bram", "Cato"] and len(pad.deals) == 2
    assert page.locator("[data-private-url]").inner_text().endswith(f"/pad/{pad.key}/")
    page.wait_for_selector("[data-deal='2']")
    assert totals(page) == {"N": "100", "E": "90", "S": "134"}
    enter(page, "E", "H", {"N": 20, "E": 120})
    page.wait_for_selector("[data-deal='3']")
    pad.refresh_from_db()
    assert len(pad.deals) == 3
    screenshot(page, "pad-saved-three")

    page.goto(live_server.url + reverse("pad:view", args=[pad.view_key]))
    assert page.locator("[data-side=E] strong").inner_text() == "210"
    screenshot(page, "pad-read-only-three")


def test_a_deal_entered_without_network_waits_on_the_phone(page, live_server, screenshot):
    start_a_game_of_three(page, live_server, target="1000")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")
    page.context.set_offline(True)
    enter(page, "N", "H", {"N": 70, "E": 50})
    page.wait_for_selector("[data-waiting]:not([hidden])")
    assert "not scored yet" in page.locator("[data-deal='1']").inner_text()
    screenshot(page, "pad-offline-three", full_page=False)
    # Still there after a reload: the game lives on the phone.
    page.context.set_offline(False)
    page.reload()
    expect(page.locator("[data-total=N]")).to_have_text("70")
    assert totals(page) == {"N": "70", "E": "50", "S": "42"}
    assert page.locator("[data-waiting]").is_hidden()


def worker_kept(page, path):
    """The site's service worker controls the page and holds its copy of `path`."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    )
    # A promise is truthy to wait_for_function, so the cache is asked until it answers yes.
    for _ in range(150):
        if page.evaluate(f"() => caches.match({path!r}).then(Boolean)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the service worker never kept {path}")


def test_the_pad_reopens_without_network_and_scores_the_deals_when_it_returns(
    worker_page, live_server, screenshot
):
    page = worker_page
    # The first visit: the page was not the worker's yet, and asked to be kept.
    open_with_the_worker(page, live_server)
    start_a_game_of_three(page, live_server, target="1000", opened=True)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")
    enter(page, "N", "H", {"N": 70, "E": 50})
    expect(page.locator("[data-total=N]")).to_have_text("70")
    for asset in ("js/pad.js", "js/site.js", "css/site.css"):
        assert page.evaluate(f"() => caches.match({static(asset)!r}).then(Boolean)"), asset

    page.context.set_offline(True)
    page.reload()
    # Reopened without network: the kept page, the game from the phone, deal 1 scored.
    page.wait_for_selector("#pad-game:not([hidden])")
    assert totals(page) == {"N": "70", "E": "50", "S": "42"}
    assert page.locator("[data-deal]").count() == 1
    assert page.locator("[data-waiting]").is_hidden()
    screenshot(page, "pad-phone-offline-reopened", full_page=False)

    # A deal entered without network waits on the phone, not scored; the totals stay.
    enter(page, "E", "S", {"N": 30, "E": 90})
    page.wait_for_selector("[data-waiting]:not([hidden])")
    assert "1 change(s)" in page.locator("[data-waiting]").inner_text()
    assert "not scored yet" in page.locator("[data-deal='2']").inner_text()
    # Deal 1 was scored before and has not changed: it keeps its score.
    assert "made" in page.locator("[data-deal='1']").inner_text()
    assert totals(page) == {"N": "70", "E": "50", "S": "42"}
    # Reopened again without network: still waiting.
    page.reload()
    page.wait_for_selector("[data-waiting]:not([hidden])")
    assert "not scored yet" in page.locator("[data-deal='2']").inner_text()
    screenshot(page, "pad-phone-offline-waiting")

    # The network returns: the game is replayed by the engine, deal 2 scored.
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-waiting]", state="hidden")
    game = replay(
        {"players": 3, "target": 1000},
        "N",
        [
            {"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50}}},
            {"taker": "E", "trump": "S", "points": {"cards": {"N": 30, "E": 90}}},
        ],
    )
    assert totals(page) == {seat: str(game["totals"][seat]) for seat in ("N", "E", "S")}
    assert "not scored yet" not in page.locator("[data-deal='2']").inner_text()
    screenshot(page, "pad-phone-back-online", full_page=False)


def test_a_saved_game_reopens_without_network_and_sends_its_deals_in_order(
    worker_page, live_server
):
    page = worker_page
    open_with_the_worker(page, live_server)
    start_a_game_of_three(page, live_server, target="1000", opened=True)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")
    page.click("[data-save-game]")
    page.wait_for_url("**/pad/*/")
    pad = Pad.objects.get()
    worker_kept(page, reverse("pad:game", args=[pad.key]))

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#pad-game:not([hidden])")
    enter(page, "N", "H", {"N": 70, "E": 50})
    page.wait_for_selector("[data-deal='1']")
    # The second waits behind the first, even once the network is back.
    enter(page, "E", "S", {"N": 30, "E": 90})
    page.wait_for_selector("[data-deal='2']")
    assert "2 change(s)" in page.locator("[data-waiting]").inner_text()
    pad.refresh_from_db()
    assert pad.deals == []

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-waiting]", state="hidden")
    pad.refresh_from_db()
    assert [(d["taker"], d["trump"]) for d in pad.deals] == [("N", "H"), ("E", "S")]
    assert "not scored yet" not in page.locator("[data-deals]").inner_text()


def test_the_worker_keeps_the_pad(client):
    worker = client.get("/sw.js")
    assert worker["Service-Worker-Allowed"] == "/"
    assert b"js/pad.js" in worker.content
    assert f'var PAD = "{reverse("pad:new")}"'.encode() in worker.content


def test_the_pad_speaks_finnish(page, live_server, settings, screenshot):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fi", "url": live_server.url}]
    )
    start_a_game_of_three(page, live_server)
    assert page.locator("#setup-title").inner_text() == "Pistelista"
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")
    assert page.locator("[data-field=taker] legend").inner_text().lower() == "valtin valitsija"
    enter(page, "N", "H", {"N": 70, "E": 50, "S": 50})
    page.wait_for_selector("[data-errors=points] li")
    assert "162" in page.locator("[data-errors=points]").inner_text()
    assert "Korttipisteitä on yhteensä 170" in page.locator("[data-errors=points]").inner_text()
    screenshot(page, "pad-finnish-three", full_page=False)
