"""In Debian's chromium: a director edits a drawn Swiss round by hand before its first deal,
at 1366x768 and on a phone (360x740): swaps two teams (reading what the edit breaks) and
the sides of a table. Every page is saved under artifacts/screenshots/."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import Membership
from club.registration import register_players
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.factories import ClubFactory, make_staff
from tournaments.models import Match, MatchEvent, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
ARGS = ["les-atouts", "soiree-suisse"]
TEAMS = [
    "Les As: Anouk Dubois & Bram Visser",
    "Carreaux: Chloé Girard & Daan Smit",
    "Piques: Elodie Roux & Finn Bakker",
    "Trèfles: Gaëlle Morel & Hugo Peeters",
    "Atouts: Inès Faure & Joost Mulder",
    "Belotes: Jade Laurent & Koen Jansen",
]
LAPTOP = {"width": 1366, "height": 768}


def no_horizontal_scroll(page, width):  # type: ignore[no-untyped-def]
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_director_edits_a_drawn_round_on_a_laptop_and_a_phone(
    chromium_browser, phone_page, live_server, screenshot
):
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    register_players(
        club, "\n".join(p for t in TEAMS for p in t.split(": ")[1].split(" & ")), by=director
    )
    tournament = create_tournament(
        club,
        by=director,
        name="Soirée suisse",
        slug="soiree-suisse",
        starts_on=datetime.date(2027, 2, 5),
        format=Tournament.Format.SWISS,
        round_count=3,
        rules={"target": None, "max_deals": 1},
        status=Tournament.Status.RUNNING,
    )
    register_teams(tournament, "\n".join(TEAMS), by=director)
    round_1 = draw_next_round(tournament, by=director)
    met = {}
    for match in round_1.matches.select_related("tournament", "round"):
        entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}
        enter_deal(match, entry, by=director)
        met[match.ns_team_id], met[match.ew_team_id] = match.ew_team_id, match.ns_team_id
    round_2 = draw_next_round(tournament, by=director)
    base = live_server.url

    context = chromium_browser.new_context(viewport=LAPTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, base, "dora", reverse("tournaments:director", args=ARGS))
    screenshot(page, "draw-edit-01-tables-1366")
    submit(page, "a[data-edit-draw]:has-text('Edit the draw of round 2')")
    screenshot(page, "draw-edit-02-round-1366")

    # Bring table 1's East–West team's round-1 opponent to table 1: a repeat.
    table_1 = round_2.matches.select_related("ns_team", "ew_team").get(table=1)
    repeat = met[table_1.ns_team_id]
    page.select_option("#swap-a", str(table_1.ew_team_id))
    page.select_option("#swap-b", str(repeat))
    submit(page, "button:has-text('Swap their places')")
    assert "is changed" in page.locator(".message.success").inner_text()
    warnings = page.locator(".message.warning").all_inner_texts()
    assert any("opponents who have already met" in text for text in warnings)
    table_1.refresh_from_db()
    assert table_1.ew_team_id == repeat
    screenshot(page, "draw-edit-03-swapped-with-warnings-1366")
    assert no_horizontal_scroll(page, LAPTOP["width"])

    # The sides of table 2.
    table_2 = Match.objects.get(round=round_2, table=2)
    page.select_option("#sides-table", str(table_2.pk))
    submit(page, "button:has-text('Swap the sides')")
    swapped = Match.objects.get(pk=table_2.pk)
    assert (swapped.ns_team_id, swapped.ew_team_id) == (table_2.ew_team_id, table_2.ns_team_id)
    assert MatchEvent.objects.filter(tournament=tournament, action="swap").count() == 2
    context.close()

    # On a phone: the same page, readable without sideways scrolling.
    phone = phone_page
    sign_in(phone, base, "dora", reverse("tournaments:director_round_edit", args=[*ARGS, 2]))
    assert phone.locator("[data-swap-form]").is_visible()
    screenshot(phone, "draw-edit-04-round-360")
    assert no_horizontal_scroll(phone, 360)

    # Once the round has a deal the draw is fixed: the page says so and offers no edit.
    enter_deal(
        Match.objects.select_related("tournament", "round").get(pk=table_2.pk),
        {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}},
        by=director,
    )
    phone.reload()
    assert phone.locator("[data-refusal]").is_visible()
    assert phone.locator("[data-swap-form]").count() == 0
    screenshot(phone, "draw-edit-05-started-360")
