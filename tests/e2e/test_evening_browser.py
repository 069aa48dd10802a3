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
