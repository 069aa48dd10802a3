"""The score pad scores on the phone (the engine in the browser, docs/offline.md): with the
network cut after one visit, games of three, two and four are set up, entered, corrected and
trimmed on a 360 × 740 phone, and after every step the totals are the ones worked out by hand
below (docs/rules.md §5 and §9), with no deal left "not scored yet". Back online, the saved
game's server replay agrees with the phone's.

Screenshots land in artifacts/screenshots/pad-engine-*.png.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pad.game import replay
from pad.models import Pad
from tests.e2e.conftest import PHONE, engine_kept, engine_ready, requires_chromium

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.phone,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
]

THREE = ("N", "E", "S")
TWO = ("N", "S")
FOUR = ("NS", "EW")


@pytest.fixture
def phone(chromium_browser):
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def kept_for_offline(page, live_server):
    """One visit: the service worker controls the pad and holds it and the engine's files."""
    page.goto(live_server.url + reverse("pad:new"))
    engine_ready(page)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    files = page.evaluate("() => fetch('/sw.js').then((r) => r.text())")
    assert "engine" in files
    for _ in range(300):
        if page.evaluate(
            """async () => {
              const names = await caches.keys();
              const engine = names.find((n) => n.startsWith('belote-engine-'));
              if (!engine) return false;
              const cache = await caches.open(engine);
              return (await cache.keys()).length >= 6 && !!(await caches.match(location.pathname));
            }"""
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never kept the pad and the engine")


def set_up(page, players, names, target="1000"):
    page.locator("#setup-form label.side-chip", has_text=str(len(names))).click()
    for seat, name in zip(players, names, strict=True):
        page.fill(f"#name-{seat}", name)
    page.click("#pad-rules summary")
    page.fill("#rule-target", target)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad-game:not([hidden])")


def enter(page, taker, trump, *, cards=None, team=None, belote=None):
    page.locator(f"#pad-form label.seat-{taker}").click()
    page.locator(f"#pad-form label.suit-{trump}").click()
    if team:
        page.locator("#pad-form label.side-chip", has=page.locator(f"input[value={team}]")).click()
        page.fill("#pad-form input[name=cards]", str(cards))
    else:
        for seat, points in cards.items():
            page.fill(f"#pad-form input[name=cards_{seat}]", str(points))
    page.click("[data-extra=belote] summary")
    page.locator("[data-sides=belote] label", has_text=f"{belote} ·" if belote else "none").click()
    page.click("[data-save]")


def correct(page, number):
    page.locator(f"[data-deal='{number}'] button", has_text="✎").click()


def remove(page, number):
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"[data-deal='{number}'] button", has_text="✕").click()


def undo(page):
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-undo]")


def shows(page, sides, expected, deals, shot, screenshot=None):
    """The totals by hand, every deal scored on the phone, a screenshot."""
    first = sides[0]
    expect(page.locator(f"[data-total={first}]")).to_have_text(str(expected[first]))
    expect(page.locator("[data-deal]")).to_have_count(deals)
    shown = {side: int(page.locator(f"[data-total={side}]").inner_text()) for side in sides}
    assert shown == expected
    assert "not scored yet" not in page.locator("[data-deals]").inner_text()
    assert page.locator("#pad").get_attribute("data-scored-by") == "phone"
    assert page.locator("[data-waiting]").is_hidden()
    if screenshot is not None:
        screenshot(page, f"pad-engine-{shot}")


def test_without_network_games_of_three_two_and_four_are_scored_on_the_phone(
    phone, live_server, engine_built, screenshot
):
    page = phone
    kept_for_offline(page, live_server)
    page.context.set_offline(True)
    page.reload()
    engine_ready(page)

    # Three, each for themselves: N takes ♥ with 70, E has 50, S the 42 left; N's belote.
    set_up(page, THREE, ["Anna", "Bram", "Cato"])
    enter(page, "N", "H", cards={"N": 70, "E": 50}, belote="N")
    shows(page, THREE, {"N": 90, "E": 50, "S": 42}, 1, "three-1", screenshot)
    # E takes ♠ with 50, not more than N's 70: dedans, E's 50 shared by N and S (25 each).
    enter(page, "E", "S", cards={"N": 70, "E": 50})
    shows(page, THREE, {"N": 185, "E": 50, "S": 109}, 2, "three-2", screenshot)
    # Deal 1 corrected, no belote after all: N 20 less.
    correct(page, 1)
    page.locator("[data-sides=belote] label", has_text="none").click()
    page.click("[data-save]")
    shows(page, THREE, {"N": 165, "E": 50, "S": 109}, 2, "three-corrected", screenshot)
    # A third: S takes ♣ with the 92 left by N 30 and E 40, beating both: made.
    enter(page, "S", "C", cards={"N": 30, "E": 40})
    shows(page, THREE, {"N": 195, "E": 90, "S": 201}, 3, "three-3", screenshot)
    # Deal 2 removed: N 70 + 30, E 50 + 40, S 42 + 92.
    remove(page, 2)
    shows(page, THREE, {"N": 100, "E": 90, "S": 134}, 2, "three-removed", screenshot)
    # A wrong deal is refused on the phone, beside its field, and nothing is kept.
    enter(page, "E", "S", cards={"N": 70, "E": 50, "S": 50})
    expect(page.locator("[data-errors=points] li")).to_have_text(
        "The card points add up to 170; a deal has 162."
    )
    shows(page, THREE, {"N": 100, "E": 90, "S": 134}, 2, "three-refused", screenshot)
    # Undo: the last deal goes.
    undo(page)
    shows(page, THREE, {"N": 70, "E": 50, "S": 42}, 1, "three-undone", screenshot)

    # Two: a new game, still without network.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-new-game]")
    page.wait_for_selector("#pad-setup:not([hidden])")
    engine_ready(page)
    set_up(page, TWO, ["Dirk", "Eva"])
    # N takes ♠ with 100, S has 62: made.
    enter(page, "N", "S", cards={"N": 100})
    shows(page, TWO, {"N": 100, "S": 62}, 1, "two-1", screenshot)
    # S takes ♥ with 62 against 100: dedans, N takes all 162.
    enter(page, "S", "H", cards={"N": 100})
    shows(page, TWO, {"N": 262, "S": 62}, 2, "two-2", screenshot)
    # Deal 2 corrected: N had 60, S 102 beats it: made.
    correct(page, 2)
    page.fill("#pad-form input[name=cards_N]", "60")
    page.click("[data-save]")
    shows(page, TWO, {"N": 160, "S": 164}, 2, "two-corrected", screenshot)
    remove(page, 1)
    shows(page, TWO, {"N": 60, "S": 102}, 1, "two-removed", screenshot)
    undo(page)
    expect(page.locator("[data-deal]")).to_have_count(0)
    assert page.locator("[data-total=N]").inner_text() == "0"

    # Four, two partnerships, target 300: a winner.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-new-game]")
    page.wait_for_selector("#pad-setup:not([hidden])")
    engine_ready(page)
    set_up(page, ("N", "E", "S", "W"), ["Fien", "Gijs", "Hanna", "Ivo"], target="300")
    # N takes ♥, NS 98 and belote: made, 118 to 64.
    enter(page, "N", "H", team="NS", cards=98, belote="NS")
    shows(page, FOUR, {"NS": 118, "EW": 64}, 1, "four-1", screenshot)
    # E takes ♠, EW only 62 against 100: dedans, NS take all 162.
    enter(page, "E", "S", team="NS", cards=100)
    shows(page, FOUR, {"NS": 280, "EW": 64}, 2, "four-2", screenshot)
    # Deal 2 corrected: NS 60, EW 102: made.
    correct(page, 2)
    page.fill("#pad-form input[name=cards]", "60")
    page.click("[data-save]")
    shows(page, FOUR, {"NS": 178, "EW": 166}, 2, "four-corrected", screenshot)
    # S takes ♦ with 130 of 162: NS pass 300 and win.
    enter(page, "S", "D", team="NS", cards=130)
    shows(page, FOUR, {"NS": 308, "EW": 198}, 3, "four-winner", screenshot)
    expect(page.locator("[data-winner]")).to_have_text("Fien & Hanna wins!")
    remove(page, 1)
    shows(page, FOUR, {"NS": 190, "EW": 134}, 2, "four-removed", screenshot)
    assert page.locator("[data-winner]").is_hidden()

    # The hand-worked totals are the server engine's too.
    game = replay(
        {"players": 4, "target": 300},
        "N",
        [
            {"taker": "E", "trump": "S", "points": {"team": "NS", "cards": 60}},
            {"taker": "S", "trump": "D", "points": {"team": "NS", "cards": 130}},
        ],
    )
    assert game["totals"] == {"NS": 190, "EW": 134}

    # Back online and saved: the server replays the game and agrees with the phone.
    page.context.set_offline(False)
    page.click("[data-save-game]")
    page.wait_for_url("**/pad/*/")
    pad = Pad.objects.get()
    assert len(pad.deals) == 2
    expect(page.locator("[data-total=NS]")).to_have_text("190")
    assert page.locator("[data-disagreement]").is_hidden()


def test_when_the_server_scores_a_saved_game_differently_the_pad_says_so_and_shows_the_servers(
    phone, live_server, engine_built, screenshot
):
    page = phone
    page.goto(live_server.url + reverse("pad:new"))
    engine_ready(page)
    set_up(page, TWO, ["Dirk", "Eva"])
    page.click("[data-save-game]")
    page.wait_for_url("**/pad/*/")
    engine_ready(page)

    # A server that answers 10 more for N than the rules give (as a changed server engine would).
    def skewed(route):
        response = route.fetch()
        game = response.json()
        if "totals" in game:
            game["totals"]["N"] += 10
        route.fulfill(response=response, json=game)

    page.route("**/api/v1/pads/*/deals/", skewed)
    enter(page, "N", "S", cards={"N": 100})
    expect(page.locator("[data-disagreement]")).to_be_visible()
    # The server's answer wins: N 110, not the 100 the phone worked out.
    expect(page.locator("[data-total=N]")).to_have_text("110")
    assert page.locator("[data-total=S]").inner_text() == "62"
    screenshot(page, "pad-engine-disagreement")

    # An answer that agrees again clears the warning.
    page.unroute("**/api/v1/pads/*/deals/")
    enter(page, "S", "H", cards={"N": 60})
    expect(page.locator("[data-disagreement]")).to_be_hidden()
    expect(page.locator("[data-total=S]")).to_have_text(str(62 + 102))


def test_a_saved_game_scores_on_the_phone_offline_and_the_server_agrees_when_it_returns(
    phone, live_server, engine_built, screenshot
):
    page = phone
    kept_for_offline(page, live_server)
    set_up(page, THREE, ["Anna", "Bram", "Cato"])
    page.click("[data-save-game]")
    page.wait_for_url("**/pad/*/")
    pad = Pad.objects.get()
    engine_ready(page)
    engine_kept(page)
    for _ in range(150):
        if page.evaluate("() => caches.match(location.pathname).then(Boolean)"):
            break
        page.wait_for_timeout(100)

    page.context.set_offline(True)
    page.reload()
    engine_ready(page)
    enter(page, "N", "H", cards={"N": 70, "E": 50}, belote="N")
    expect(page.locator("[data-total=N]")).to_have_text("90")
    enter(page, "E", "S", cards={"N": 70, "E": 50})
    expect(page.locator("[data-total=N]")).to_have_text("185")
    # Scored here, not yet saved: the pad says the two changes wait to be sent.
    expect(page.locator("[data-waiting]")).to_contain_text("2 change(s) wait to be sent")
    assert "not scored yet" not in page.locator("[data-deals]").inner_text()
    screenshot(page, "pad-engine-saved-offline", full_page=False)
    pad.refresh_from_db()
    assert pad.deals == []

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-waiting]", state="hidden")
    pad.refresh_from_db()
    assert [(d["taker"], d["trump"]) for d in pad.deals] == [("N", "H"), ("E", "S")]
    # The server replayed the game: its figures are the phone's, and nothing is flagged.
    assert replay(pad.rules, pad.first_dealer, pad.deals)["totals"] == {"N": 185, "E": 50, "S": 109}
    assert page.locator("#pad").get_attribute("data-scored-by") == "server"
    assert page.locator("[data-disagreement]").is_hidden()
    assert page.locator("[data-total=N]").inner_text() == "185"
