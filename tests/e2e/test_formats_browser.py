"""In Debian's chromium: a director creates a Swiss evening, draws its three rounds from the
dashboard (each shown before it is stored), starts a final of four and draws it to the end;
the public follows the schedule and the bracket on a phone. Every page is saved under
artifacts/screenshots/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from club.registration import register_players
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.factories import ClubFactory, make_staff
from tournaments.models import Match, Round, Tournament
from tournaments.services.deals import enter_deal

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
]


def play_round(number: int, director) -> None:  # type: ignore[no-untyped-def]
    """Each table's better seed takes the one deal of the match (a referee's work)."""
    for match in Match.objects.filter(
        round__tournament__slug=ARGS[1], round__number=number, ew_team__isnull=False
    ).select_related("ns_team", "ew_team"):
        side = "NS" if match.ns_team.seed < match.ew_team.seed else "EW"
        entry = {"taker": side[0], "trump": "H", "points": {"team": side, "cards": 100}}
        enter_deal(match, entry, by=director)


def draw_from_the_dashboard(page, base, label: str, screenshot, shot: str) -> None:
    page.goto(base + reverse("tournaments:director", args=ARGS))
    submit(page, f"a.button:has-text('Draw {label}')")
    assert page.locator("table.table tbody tr").count() >= 1
    screenshot(page, shot)
    submit(page, f"button.primary:has-text('Draw {label}')")
    assert page.locator(".message.success").inner_text() == f"{label} drawn."


def no_horizontal_scroll(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_director_draws_three_rounds_of_a_swiss_and_a_final(
    page, phone_page, live_server, screenshot
):
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    director = make_staff(club, Membership.Role.DIRECTOR, "dora")
    # The club knows its players already: the pasted teams find them by name.
    register_players(
        club, "\n".join(p for t in TEAMS for p in t.split(": ")[1].split(" & ")), by=director
    )
    base = live_server.url
    sign_in(page, base, "dora", reverse("tournaments:director_new", args=["les-atouts"]))

    page.fill("#id_name", "Soirée suisse")
    page.fill("#id_starts_on", "2027-02-05")
    page.select_option("#id_format", "swiss")
    page.fill("#id_round_count", "3")
    page.fill("#id_rule_target", "")
    page.fill("#id_rule_max_deals", "1")
    screenshot(page, "formats-01-new-swiss")
    page.click("text=Create the tournament")
    page.wait_for_url("**/direct/les-atouts/soiree-suisse/teams/")
    tournament = Tournament.objects.get(slug="soiree-suisse")
    assert (tournament.format, tournament.round_count, tournament.bye_points_in_use) == (
        "swiss",
        3,
        80,
    )
    page.fill("#id_text", "\n".join(TEAMS))
    submit(page, "button.primary:has-text('Register the teams')")
    # Published, as a director does before the evening: a draft is its directors' alone.
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)

    for number in (1, 2, 3):
        draw_from_the_dashboard(
            page, base, f"Round {number}", screenshot, f"formats-02-preview-round-{number}"
        )
        assert page.locator(f"#tables details.round:has-text('Round {number}')").count() == 1
        if number < 3:
            # Not over yet: the dashboard says which tables are still to finish.
            assert "is not over" in page.locator("main").inner_text()
        play_round(number, director)
    page.goto(base + reverse("tournaments:director", args=ARGS))
    assert "All 3 rounds of the tournament are drawn." in page.locator("main").inner_text()
    screenshot(page, "formats-03-dashboard-after-three-rounds")

    # The final: the top four, with a match for third place.
    page.select_option("#final-size", "4")
    page.check("#third-place")
    submit(page, "button:has-text('Start the final')")
    assert "Final of 4 seeded" in page.locator(".message.success").inner_text()
    draw_from_the_dashboard(page, base, "Semi-finals", screenshot, "formats-04-preview-semis")
    semis = Round.objects.get(tournament=tournament, stage=Round.Stage.SEMI_FINALS)
    play_round(semis.number, director)
    draw_from_the_dashboard(page, base, "Final", screenshot, "formats-05-preview-final")
    final = Round.objects.get(tournament=tournament, stage=Round.Stage.FINAL)
    assert final.matches.count() == 2  # the final and the third-place match
    play_round(final.number, director)

    # The public bracket and the final ranking, on a phone.
    phone = phone_page
    phone.goto(base + reverse("tournaments:bracket", args=ARGS))
    ranking = phone.locator("ol.ranking li")
    assert ranking.count() == 5
    assert ranking.first.inner_text().startswith("1")
    assert phone.locator(".bracket-round").count() == 2
    assert no_horizontal_scroll(phone, 360)
    screenshot(phone, "formats-06-bracket-phone")
    phone.goto(base + reverse("tournaments:schedule", args=ARGS) + "?round=all")
    assert phone.locator("section.card h2:has-text('Semi-finals')").count() == 1
    screenshot(phone, "formats-07-schedule-phone")
    page.goto(base + reverse("tournaments:bracket", args=ARGS))
    screenshot(page, "formats-08-bracket-desktop")
