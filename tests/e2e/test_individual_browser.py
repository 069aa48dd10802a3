"""In Debian's chromium: a director creates an individual evening (mêlée), registers thirteen
players by pasting their names, draws two rounds from the dashboard (each shown before it
is stored: four seats a table and who sits out); the public follows the tables, the
players' standings and a player's partners on a phone. Every page is saved under
artifacts/screenshots/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from club.registration import register_players
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.factories import ClubFactory, make_staff
from tournaments.models import Entrant, Match, SitOut, Team, Tournament
from tournaments.services.deals import enter_deal

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
ARGS = ["les-atouts", "melee-du-jeudi"]
PLAYERS = [
    "Anouk Dubois",
    "Bram Visser",
    "Chloé Girard",
    "Daan Smit",
    "Elodie Roux",
    "Finn Bakker",
    "Gaëlle Morel",
    "Hugo Peeters",
    "Inès Faure",
    "Joost Mulder",
    "Katia Lemaire",
    "Lars Jansen",
    "Manon Lefèvre",
]


def play_round(number: int, director) -> None:  # type: ignore[no-untyped-def]
    """North–South takes the one deal of each table (a referee's work)."""
    for match in Match.objects.filter(round__tournament__slug=ARGS[1], round__number=number):
        entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}
        enter_deal(match, entry, by=director)


def no_horizontal_scroll(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_director_draws_a_melee_and_the_players_follow_it(
    page, phone_page, live_server, screenshot
):
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    register_players(club, "\n".join(PLAYERS), by=director)  # the club knows them already
    base = live_server.url
    sign_in(page, base, "dora", reverse("tournaments:director_new", args=["les-atouts"]))

    page.fill("#id_name", "Mêlée du jeudi")
    page.fill("#id_starts_on", "2027-02-11")
    page.select_option("#id_format", "individual")
    page.fill("#id_round_count", "3")
    page.fill("#id_rule_target", "")
    page.fill("#id_rule_max_deals", "1")
    page.click("text=Create the tournament")
    page.wait_for_url("**/direct/les-atouts/melee-du-jeudi/players/")
    tournament = Tournament.objects.get(slug=ARGS[1])
    assert (tournament.format, tournament.round_count) == ("individual", 3)
    assert tournament.tie_breaks == ["points_for", "wins", "point_difference"]

    page.fill("#id_text", "\n".join(PLAYERS))
    submit(page, "button.primary:has-text('Register the players')")
    # Published, as a director does before the evening: a draft is its directors' alone.
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    assert page.locator(".message.success").inner_text().startswith("13 players registered.")
    assert page.locator("ol.entrants li").count() == 13
    screenshot(page, "individual-01-players")

    for number in (1, 2):
        page.goto(base + reverse("tournaments:director", args=ARGS))
        assert "13 players registered." in page.locator("main").inner_text()
        submit(page, f"a.button:has-text('Draw Round {number}')")
        preview = page.locator("table.draw-individual tbody tr")
        assert preview.count() == 3  # 13 players: three tables of four
        headings = page.locator("table.draw-individual thead th").all_inner_texts()
        assert headings[:5] == ["Table", "North", "South", "East", "West"]
        sitting = page.locator("p.sit-outs").inner_text()
        assert sitting.startswith("Sitting out:") and "80 points" in sitting
        screenshot(page, f"individual-02-preview-round-{number}")
        submit(page, f"button.primary:has-text('Draw Round {number}')")
        assert page.locator(".message.success").inner_text() == f"Round {number} drawn."
        round_ = tournament.rounds.get(number=number)
        assert Team.objects.filter(round=round_).count() == 6
        sat_out = SitOut.objects.select_related("entrant__player").get(round=round_).entrant
        assert sat_out.name in sitting
        if number == 1:
            screenshot(page, "individual-03-dashboard-round-1")
            play_round(1, director)
    assert SitOut.objects.values("entrant").distinct().count() == 2  # nobody twice

    # The printed sheets: the four names and their seats.
    page.goto(base + reverse("tournaments:director_print_sheets", args=ARGS) + "?round=2")
    assert page.locator("article.sheet-page").count() == 3
    assert page.locator("article.sheet-page").first.locator("[data-seat]").count() == 4
    screenshot(page, "individual-04-score-sheets")

    # On a phone: the schedule, the players' standings, a player's page.
    phone = phone_page
    phone.goto(base + reverse("tournaments:schedule", args=ARGS) + "?round=2")
    assert phone.locator("table.schedule tbody tr").count() == 3
    assert phone.locator("p.sit-outs").count() == 1
    assert no_horizontal_scroll(phone, 360)
    screenshot(phone, "individual-05-schedule-phone")
    phone.goto(base + reverse("tournaments:standings", args=ARGS) + "?after=1")
    rows = phone.locator("table.standings-table tbody tr")
    assert rows.count() == 13
    assert no_horizontal_scroll(phone, 360)
    screenshot(phone, "individual-06-standings-phone")
    player = Entrant.objects.select_related("player").get(tournament=tournament, seed=1).player
    phone.goto(base + reverse("tournaments:player_table", args=[*ARGS, player.pk]))
    assert phone.locator("table.entrant-rounds tbody tr").count() == 2
    assert no_horizontal_scroll(phone, 360)
    screenshot(phone, "individual-07-player-phone")
