"""The evening in Debian's chromium: the director checks 40 teams in, one tap each (and with
the search), and a player checks in on a 360x740 phone by the QR code's page, with a typo.
Every step is saved under artifacts/screenshots/evening-*.png."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from club.models import Membership
from entries.models import Registration
from tests.e2e.conftest import PHONE, requires_chromium, sign_in, submit
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Team

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
ARGS = ["les-atouts", "thursday"]
FIRST = ["Anouk", "Bram", "Chloé", "Daan", "Elodie", "Finn", "Gaëlle", "Hugo", "Inès", "Joost"]
LAST = ["Dubois", "Visser", "Girard", "Smit", "Roux", "Bakker", "Morel", "Peeters"]


def evening(teams: int, **kwargs):  # type: ignore[no-untyped-def]
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    make_staff(club, Membership.Role.DIRECTOR, "dora")
    tournament = TournamentFactory(
        club=club,
        slug="thursday",
        name="Thursday evening",
        status="open",
        format="swiss",
        round_count=4,
        check_in="on",
        entry_fee=Decimal("5.00"),
        **kwargs,
    )
    for n in range(teams):
        TeamFactory(
            tournament=tournament,
            seed=n + 1,
            name=f"Team {n + 1:02d}",
            first_player=PlayerFactory(first_name=FIRST[n % 10], last_name=LAST[n % 8] + f"{n}"),
            second_player=PlayerFactory(
                first_name=FIRST[(n + 3) % 10], last_name=LAST[(n + 5) % 8]
            ),
        )
    return tournament


def test_a_director_checks_in_forty_teams_one_tap_each(page, live_server, screenshot):
    tournament = evening(40)
    base = live_server.url
    url = reverse("entries:director_check_in", args=ARGS)
    sign_in(page, base, "dora", url)
    assert page.locator(".check-in-row").count() == 40
    screenshot(page, "evening-01-check-in-list", full_page=False)
    taps = 0
    # 37 teams arrive and pay as they come in: one tap on the way they pay marks them present.
    for n in range(1, 38):
        row = page.locator(f"#entry-{tournament.teams.get(seed=n).pk}")
        method = ("Cash", "Card", "Transfer")[n % 3] if n != 5 else "Waived"
        row.get_by_role("button", name=f"{method} Team {n:02d}").click()
        taps += 1
        row.locator(".badge-present").wait_for()
    screenshot(page, "evening-02-after-37-taps", full_page=False)
    # The 38th found with the search box: a few letters, then its one tap.
    late = tournament.teams.get(seed=38)
    page.fill("#check-in-filter", late.first_player.last_name[:-1].lower())
    visible = page.locator(".check-in-row:visible")
    assert visible.count() == 1
    screenshot(page, "evening-03-search", full_page=False)
    visible.get_by_role("button", name="Present Team 38").click()
    taps += 1
    page.locator(f"#entry-{late.pk} .badge-present").wait_for()
    page.fill("#check-in-filter", "")
    # One team says it cannot come; one has not come yet.
    page.get_by_role("button", name="Absent Team 39").click()
    taps += 1
    page.locator(f"#entry-{tournament.teams.get(seed=39).pk} .badge-absent").wait_for()
    assert page.locator("#check-in-counts").inner_text() == "38 present · 1 expected · 1 absent"
    assert taps == 39  # one tap per entry checked: 38 present (37 of them paid), 1 absent
    screenshot(page, "evening-04-counts")
    assert Team.objects.filter(attendance="present").count() == 38
    assert Team.objects.filter(paid="cash").count() == 12

    # The draw takes the 38 present, and says who is left out and why.
    page.goto(base + reverse("tournaments:director_draw", args=ARGS))
    left_out = page.locator(".left-out").inner_text()
    assert "2 entries are left out of this draw" in left_out
    assert "Team 39 (absent)" in left_out and "Team 40 (not checked in)" in left_out
    screenshot(page, "evening-05-draw-preview")

    # The absent team withdrawn in one step (it asks first).
    page.goto(base + url)
    page.once("dialog", lambda dialog: dialog.accept())
    absent = tournament.teams.get(seed=39)
    submit(page, f"#entry-{absent.pk} button:has-text('Withdraw')")
    assert Team.objects.get(seed=39, tournament=tournament).withdrawn

    # The cash: what came in per way of paying, and who is present and has not paid.
    page.goto(base + reverse("entries:director_cash", args=ARGS))
    assert "Still due: €5.00" in page.locator("main").inner_text()
    screenshot(page, "evening-06-cash")


def test_a_player_checks_in_on_a_phone_by_the_door_qr_code(
    page, phone_page, live_server, screenshot
):
    tournament = evening(6)
    base = live_server.url
    # The poster the director prints for the door.
    sign_in(page, base, "dora", reverse("entries:director_check_in_poster", args=ARGS))
    assert page.locator(".poster svg").count() == 1
    link = page.locator(".poster figcaption").inner_text()
    screenshot(page, "evening-07-door-poster")

    phone = phone_page
    phone.goto(link)
    screenshot(phone, "evening-08-phone-check-in")
    team = tournament.teams.get(seed=3)
    typed = team.first_player.full_name.replace("è", "e")[:-2] + "x"  # a typo, no accent
    phone.fill("#check-in-q", typed)
    submit(phone, "button:has-text('Search')")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "evening-09-phone-found")
    submit(phone, f".check-in-found button:has-text('{team.first_player.full_name}')")
    assert "Team 03 is checked in" in phone.locator("main").inner_text()
    screenshot(phone, "evening-10-phone-checked-in")
    team.refresh_from_db()
    assert team.is_present


def test_a_player_registers_on_a_phone_and_keeps_the_private_link(
    phone_page, live_server, screenshot
):
    evening(1, registration="open", capacity=2)
    phone = phone_page
    phone.goto(live_server.url + reverse("entries:register", args=ARGS))
    phone.fill("#id_player", "Marie Dupont")
    phone.check("#id_partner_wanted")
    screenshot(phone, "evening-11-phone-register")
    submit(phone, "main button.primary:has-text('Register')")
    entry = Registration.objects.get()
    assert phone.url.endswith(reverse("entries:entry", args=[*ARGS, entry.key]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "evening-12-phone-entry")


# --- issue 38 (third pass): the entry form's missing partner, links to keep, accept all, ------
# --- the check-in search and the amount due; at 360 × 740 and 1280 × 800, axe-clean ----------

SIZES = {"phone": PHONE, "desktop": {"width": 1280, "height": 800}}


def _context(browser, size):  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport=SIZES[size], locale="en-GB", permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _clean(page, size):  # type: ignore[no-untyped-def]
    """No serious axe violation; on the phone, no sideways scroll and taps of 44 px."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.e2e.test_accessibility_browser import SIDEWAYS, TAP_TARGETS, check

    found = check(page, Axe())
    if size == "phone":
        found += page.evaluate(TAP_TARGETS)
        if page.evaluate(SIDEWAYS) > 0:
            found.append(f"scrolls sideways by {page.evaluate(SIDEWAYS)} px")
    assert found == [], found


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_entry_form_says_to_name_the_partner_or_tick_i_come_alone_and_the_link_is_kept(
    chromium_browser, live_server, screenshot, size
):
    evening(1, registration="open", capacity=4)
    context, page = _context(chromium_browser, size)
    page.goto(live_server.url + reverse("entries:register", args=ARGS))
    page.fill("#id_player", "Marie Dupont")
    submit(page, "main button.primary:has-text('Register')")
    error = page.locator("#id_partner").locator("xpath=ancestor::div[1]").inner_text()
    assert "Give your partner's name, or tick “I come alone: find me a partner”." in error
    screenshot(page, f"evening3-{size}-1-missing-partner", full_page=False)
    _clean(page, size)
    page.check("#id_partner_wanted")
    submit(page, "main button.primary:has-text('Register')")
    entry = Registration.objects.get()
    address = live_server.url + reverse("entries:entry", args=[*ARGS, entry.key])
    assert page.url == address
    copy = page.get_by_role("button", name="Copy the link")
    copy.click()
    page.get_by_role("button", name="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == address
    screenshot(page, f"evening3-{size}-2-entry-link")
    _clean(page, size)
    context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_director_accepts_all_and_reads_the_dates_in_their_language(
    chromium_browser, live_server, screenshot, size
):
    import datetime

    from entries.services.online import register_online

    tournament = evening(0, registration="open", capacity=3)  # 2.5 places, then the list
    register_online(tournament, by=None, players=["Marie Dupont", "Luc Martin"])
    register_online(tournament, by=None, players=["Tom Noir"], partner_wanted=True)
    third = register_online(tournament, by=None, players=["Léa Blanc", "Marc Blanc"])
    late = register_online(tournament, by=None, players=["Ida Gris", "Jan Gris"])
    assert [third.status, late.status] == ["registered", "waiting"]
    at = datetime.datetime(2026, 6, 12, 10, 29, tzinfo=datetime.UTC)
    Registration.objects.update(created_at=at)
    context, page = _context(chromium_browser, size)
    sign_in(page, live_server.url, "dora", reverse("entries:director_registrations", args=ARGS))
    late_row = page.locator(f"#registration-{late.pk}")
    assert late_row.get_by_role("button", name="Accept").count() == 0
    assert "June 12, 2026, 12:29" in late_row.inner_text()
    screenshot(page, f"evening3-{size}-3-online-entries")
    _clean(page, size)
    submit(page, "button:has-text('Accept all')")
    said = page.locator(".messages").inner_text()
    assert "2 entries accepted." in said
    assert "Tom Noir not accepted: Tom Noir is looking for a partner" in said
    screenshot(page, f"evening3-{size}-4-accepted-all")
    _clean(page, size)
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page.goto(live_server.url + reverse("entries:director_registrations", args=ARGS))
    assert "12 juin 2026, 12:29" in page.locator(f"#registration-{late.pk}").inner_text()
    context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_check_in_search_clears_after_a_tap_and_unpaid_rows_show_what_they_owe(
    chromium_browser, live_server, screenshot, size
):
    tournament = evening(6)
    context, page = _context(chromium_browser, size)
    sign_in(page, live_server.url, "dora", reverse("entries:director_check_in", args=ARGS))
    assert page.locator(".check-in-row .badge-due").count() == 6
    assert page.locator(".check-in-row .badge-due").first.inner_text() == "€5.00 due"
    team = tournament.teams.get(seed=4)
    page.fill("#check-in-filter", team.first_player.last_name.lower())
    assert page.locator(".check-in-row:visible").count() == 1
    page.locator(".check-in-row:visible").get_by_role("button", name="Cash Team 04").click()
    page.locator(f"#entry-{team.pk} .badge-paid").wait_for()
    assert page.input_value("#check-in-filter") == ""
    assert page.locator(".check-in-row:visible").count() == 6
    assert page.locator(f"#entry-{team.pk} .badge-paid").inner_text() == "cash €5.00"
    assert page.locator(".check-in-row .badge-due").count() == 5
    screenshot(page, f"evening3-{size}-5-check-in-after-tap")
    _clean(page, size)
    context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_score_pads_saved_addresses_are_copied_and_shared(
    chromium_browser, live_server, screenshot, size
):
    from pad.services import create_pad

    deal = {"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50}}}
    pad = create_pad(players=["Anna", "Bram", "Cato"], rules={"target": 60}, deals=[deal])[0]
    context, page = _context(chromium_browser, size)
    page.goto(live_server.url + reverse("pad:game", args=[pad.key]))
    view = live_server.url + reverse("pad:view", args=[pad.view_key])
    page.get_by_role("button", name="Copy the link Read-only address").click()
    page.locator(".pad-share").get_by_role("button", name="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == view
    page.locator(".pad-share").scroll_into_view_if_needed()
    screenshot(page, f"evening3-{size}-6-pad-addresses", full_page=False)
    _clean(page, size)
    page.goto(view)
    page.get_by_role("button", name="Copy the link").click()
    page.get_by_role("button", name="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == view
    screenshot(page, f"evening3-{size}-7-pad-read-only")
    _clean(page, size)
    context.close()
