"""The table page without network, on a 360 × 740 phone, with the engine on the phone
(docs/offline.md): a deal the engine refuses is refused there and then, its message beside
its field as the server words it online, in the page's language, and nothing is kept; the
deals kept are counted in the totals by the engine, pot included.

Screenshots land in artifacts/screenshots/table-engine-*.png.
"""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, engine_kept, engine_ready, requires_chromium
from tests.e2e.test_table_browser import match, saved, sign_in, type_ordinary_deal  # noqa: F401
from tournaments.models import Deal

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]
SAVE = "#deal-form button[type=submit]"


@pytest.fixture
def phone(chromium_browser):
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def offline_table(page, live_server, match, language="en"):  # noqa: F811
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    sign_in(page, live_server, match.referee)
    page.goto(live_server.url + reverse("tournaments:table", args=[match.pk]))
    engine_ready(page)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    engine_kept(page)
    page.context.set_offline(True)


def server_says(match, cards, language):  # noqa: F811
    """What the server's own form answers for the same deal, online."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(match.referee)
    client.cookies["django_language"] = language
    page = client.post(
        reverse("tournaments:table", args=[match.pk]),
        {"taker": "N", "trump": "H", "points_team": "NS", "cards": cards, "number": 1},
    )
    assert page.status_code == 400
    return page


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_deal_the_engine_refuses_is_refused_on_the_phone_beside_its_field(
    phone,
    live_server,
    match,  # noqa: F811
    engine_built,
    compiled_catalogues,
    screenshot,
    language,
):
    page = phone
    offline_table(page, live_server, match, language)
    type_ordinary_deal(page, cards="161")
    page.click(SAVE)
    message = page.locator("fieldset.points [data-engine-errors] li")
    expect(message).to_have_count(1)
    # The server's words for the same deal, beside the same field (its errors list).
    online = server_says(match, "161", language).content.decode()
    assert f'id="id_cards-errors" role="alert"><li>{message.inner_text()}</li>' in online
    assert "field-error" in page.locator("fieldset.points").get_attribute("class").split()
    assert page.locator("#outbox li[data-waiting]").count() == 0
    screenshot(page, f"table-engine-refused-{language}", full_page=False)
    if language == "en":
        assert message.inner_text() == "Card points 161 cannot be made: use 0, 2 to 160, or 162."
    else:
        assert message.inner_text().startswith("161 points de cartes sont impossibles")

    # Corrected, it is kept and counted: 98 to 64.
    page.fill("#id_cards", "98")
    page.click(SAVE)
    page.wait_for_selector("#outbox li[data-waiting]")
    assert page.locator("[data-engine-errors]").count() == 0
    expect(page.locator("[data-total=NS]")).to_have_text("98")
    assert Deal.objects.filter(match=match).count() == 0


def test_the_waiting_deals_are_replayed_with_the_stored_ones_pot_included(
    phone,
    live_server,
    match,  # noqa: F811
    engine_built,
    screenshot,
):
    page = phone
    sign_in(page, live_server, match.referee)
    page.goto(live_server.url + reverse("tournaments:table", args=[match.pk]))
    # One deal stored online: NS 98 and 64.
    type_ordinary_deal(page, cards="98")
    page.click(SAVE)
    saved(page, 1)
    engine_ready(page)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    engine_kept(page)
    page.context.set_offline(True)
    # A litige, 81 each, kept on the phone: N took, NS write 0, EW 81, 81 in the pot.
    type_ordinary_deal(page, cards="81")
    page.click(SAVE)
    page.wait_for_selector("#outbox li[data-waiting]")
    expect(page.locator("[data-total=EW]")).to_have_text(str(64 + 81))
    assert page.locator("[data-total=NS]").inner_text() == "98"
    # The next, kept too: NS make 100 and take the pot of 81.
    type_ordinary_deal(page, cards="100")
    page.click(SAVE)
    page.wait_for_function(
        "() => document.querySelectorAll('#outbox li[data-waiting]').length === 2"
    )
    expect(page.locator("[data-total=NS]")).to_have_text(str(98 + 100 + 81))
    assert page.locator("[data-total=EW]").inner_text() == str(64 + 81 + 62)
    assert "2" in page.locator("[data-waiting-note]").inner_text()
    screenshot(page, "table-engine-waiting", full_page=False)

    # Back online: the server stores both, and its totals are the phone's.
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    saved(page, 3)
    page.wait_for_selector("#outbox", state="hidden")
    match.refresh_from_db()
    assert (match.ns_total, match.ew_total) == (98 + 100 + 81, 64 + 81 + 62)
    assert page.locator("[data-total=NS]").inner_text() == str(match.ns_total)
