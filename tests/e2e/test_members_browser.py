"""The members pages in a browser, at 360 px and on a laptop: axe finds nothing serious, the
controls a finger taps are big enough, and an import is previewed then confirmed."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from club.models import Membership
from tests.e2e.conftest import requires_chromium
from tests.e2e.test_accessibility_browser import SIZES, TAP_TARGETS, check
from tests.e2e.test_table_browser import sign_in
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, make_staff

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_members_pages_pass_axe_and_an_import_is_previewed_then_stored(
    chromium_browser, live_server, screenshot, tmp_path, size
):
    from axe_playwright_python.sync_playwright import Axe

    club = ClubFactory(name="Belote Club de Lyon", slug="lyon")
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    anne = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Anne", last_name="Lefèvre"), licence="F-12"
    )
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    listing = tmp_path / "list.csv"
    listing.write_text("Prénom;Nom;Courriel\nMarie;Lecler;\nBen;Noir;ben@x.fr\n", encoding="utf-8")
    axe = Axe()
    context = chromium_browser.new_context(viewport=SIZES[size], locale="en-GB")
    page = context.new_page()
    sign_in(page, live_server, director)
    problems = {}
    pages = [
        reverse("club:members", args=[club.slug]) + "?q=anne+lefevre",
        reverse("club:member", args=[club.slug, anne.player_id]),
        reverse("club:members_import", args=[club.slug]),
        anne.player.get_absolute_url(),
    ]
    for path in pages:
        assert page.goto(live_server.url + path).status == 200, path
        found = check(page, axe)
        if size == "phone":
            found += [f"tap target under 44 px: {t}" for t in page.evaluate(TAP_TARGETS)]
        if found:
            problems[path] = found
        screenshot(page, f"members-{size}-{path.strip('/').replace('/', '-')[:60]}")
    page.goto(live_server.url + reverse("club:members_import", args=[club.slug]))
    page.set_input_files("#id_file", str(listing))
    page.get_by_role("button", name="Preview").click()
    page.wait_for_load_state("load")
    assert "1 new, 0 already members, 1 close to a member" in page.content()
    found = check(page, axe)
    if found:
        problems["preview"] = found
    screenshot(page, f"members-{size}-preview")
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_load_state("load")
    assert "1 new member imported." in page.content()
    assert Membership.objects.filter(club=club, player__last_name="Noir").exists()
    assert not Membership.objects.filter(club=club, player__last_name="Lecler").exists()
    context.close()
    assert not problems, problems
