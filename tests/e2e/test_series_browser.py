"""A series table in Debian's chromium, on a phone (360 × 740) and a laptop (1366 × 768): its
evening columns headed by their dates, the players not yet ranked apart under their heading;
and the director's series form refusing a bad rule on its field. Saved under
artifacts/screenshots/."""

from __future__ import annotations

import datetime
import random

import pytest

from club.models import Membership
from seasons.models import Season
from seasons.services import recompute_series, save_series
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.e2e.test_accessibility_browser import check
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
    seat_teams,
)
from tournaments.models import Standing, Tournament

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
NAMES = [
    "Anouk Dubois",
    "Bram Visser",
    "Chloé Girard",
    "Daan Smit",
    "Elodie Roux",
    "Finn Bakker",
    "Gaëlle Morel",
    "Hugo Peeters",
    "Inès Laurent",
    "Joost Mulder",
    "Katell Riou",
    "Lars Kuiper",
]
LAPTOP = {"width": 1366, "height": 768}


def build_series(newcomers=False):
    """A club with a season and a Thursday series of ten finished evenings of twelve players;
    with `newcomers`, two more players who came only to the last evening (and won it)."""
    rng = random.Random(23)
    club = ClubFactory(name="Les Atouts", slug="les-atouts")
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    players = [PlayerFactory(first_name=n.split()[0], last_name=n.split()[1]) for n in NAMES]
    season = Season.objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    evenings = []
    for week in range(10):
        evening = TournamentFactory(
            club=club,
            name=f"Jeudi {week + 1}",
            slug=f"jeudi-{week + 1}",
            starts_on=datetime.date(2026, 9, 3) + datetime.timedelta(weeks=week),
            status=Tournament.Status.FINISHED,
        )
        present = rng.sample(players, 10)
        if newcomers and week == 9:
            present = [
                PlayerFactory(first_name="Mila", last_name="Jansen"),
                PlayerFactory(first_name="Noé", last_name="Leroy"),
                *present[:8],
            ]
        teams = []
        for rank, i in enumerate(range(0, 10, 2), 1):
            team = TeamFactory(
                tournament=evening, first_player=present[i], second_player=present[i + 1]
            )
            teams.append(team)
            Standing.objects.create(
                tournament=evening, round_number=3, team=team, rank=rank, points_for=900 - rank
            )
        seat_teams(evening, teams)
        evenings.append(evening)
    series = save_series(
        season=season,
        name="Mêlée du jeudi",
        rules={
            "points": "place",
            "place_points": [25, 20, 16, 13, 11],
            "participation_points": 1,
            "best_of": 6,
            "min_evenings": 5,
            "handicap": "none",
        },
        tournaments=evenings,
        by=director,
    )
    recompute_series(series.pk)
    return club, season, series


def fits(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_series_table_reads_on_a_phone_and_a_laptop(chromium_browser, live_server, screenshot):
    club, _season, series = build_series()
    url = f"{live_server.url}/clubs/{club.slug}/series/{series.pk}/"
    for name, viewport in (("phone", {"width": 360, "height": 740}), ("laptop", LAPTOP)):
        context = chromium_browser.new_context(viewport=viewport, locale="en-GB")
        page = context.new_page()
        page.goto(url)
        assert page.locator("h1").inner_text() == "Mêlée du jeudi"
        rows = page.locator(".series-table tbody tr:has(td.player)")
        assert rows.count() == 12
        # The page itself never scrolls sideways: the evenings do, inside the table's frame,
        # and the player's name stays in view while they do.
        assert fits(page, viewport["width"]), name
        first = page.locator(".series-table tbody tr").first.locator("td.player")
        assert first.is_visible()
        page.locator(".table-wrap").first.evaluate("el => el.scrollBy(400, 0)")
        box = first.bounding_box()
        assert box is not None and box["x"] >= 0
        page.locator(".table-wrap").first.evaluate("el => el.scrollTo(0, 0)")
        assert page.locator("svg.chart").count() == 1
        screenshot(page, f"series-{name}-table", full_page=False)
        screenshot(page, f"series-{name}-page")
        context.close()


def test_the_director_sees_a_bad_rule_refused_on_its_field(
    chromium_browser, live_server, screenshot
):
    club, season, _series = build_series()
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    new = f"/direct/{club.slug}/seasons/{season.pk}/series/new/"
    sign_in(page, live_server.url, "director", new)
    page.fill("#id_name", "Vendredi")
    page.select_option("#id_points", "place")
    page.fill("#id_place_points", "25, 20, 20")
    page.fill("#id_best_of", "0")
    submit(page, "main button[type=submit]")
    assert "decrease" in page.locator("#id_place_points_error").inner_text()
    assert "at least one evening" in page.locator("#id_best_of_error").inner_text()
    screenshot(page, "series-director-form-refused")
    context.close()


def test_the_evenings_are_dated_and_the_players_not_yet_ranked_stand_apart(
    chromium_browser, live_server, screenshot
):
    from axe_playwright_python.sync_playwright import Axe

    club, _season, series = build_series(newcomers=True)
    url = f"{live_server.url}/clubs/{club.slug}/series/{series.pk}/"
    sizes = (("phone", {"width": 360, "height": 740}), ("laptop", {"width": 1280, "height": 800}))
    for name, viewport in sizes:
        context = chromium_browser.new_context(viewport=viewport, locale="fi-FI")
        page = context.new_page()
        page.goto(url)
        assert fits(page, viewport["width"]), name
        # The first evening, Thursday 3 September 2026, as Finnish writes it; its name on hover.
        first = page.locator(".series-table th.evening a").first
        assert first.locator("time").inner_text() == "3.9."
        assert first.get_attribute("title").startswith("Jeudi 1, ")
        heading = page.locator(".series-table tr.group-heading th")
        assert heading.inner_text() == "Ei vielä sijoitusta: alle 5 iltaa"
        assert heading.is_visible()
        # Every ranked row above the heading, the two newcomers under it, without a rank.
        ranked = page.locator(".series-table tbody:not(.unranked-group) tr")
        late = page.locator(".series-table tbody.unranked-group tr:has(td.player)")
        assert late.count() == 2
        assert sorted(late.locator("td.player").all_inner_texts()) == ["Mila Jansen", "Noé Leroy"]
        assert late.first.locator("td").first.inner_text() == ""
        last_ranked = ranked.last.bounding_box()
        box = heading.bounding_box()
        assert last_ranked is not None and box is not None
        assert box["y"] >= last_ranked["y"] + last_ranked["height"] - 1
        # axe finds no serious or critical problem in the dated headers and the group.
        assert check(page, Axe()) == [], name
        heading.scroll_into_view_if_needed()
        screenshot(page, f"series-{name}-unranked", full_page=False)
        # Scrolled to the last evenings, the heading's words stay in view beside the names.
        page.locator(".table-wrap").first.evaluate("el => el.scrollBy(2000, 0)")
        words = page.locator(".series-table tr.group-heading th span").bounding_box()
        assert words is not None and 0 <= words["x"] < viewport["width"]
        screenshot(page, f"series-{name}-unranked-scrolled", full_page=False)
        context.close()
