"""The pages in Debian's chromium: a director sets up a tournament, a player on a phone finds a
table and the standings, the standings follow a referee's deal without reload, and the French
and Dutch pages show no English left. Every page is saved under artifacts/screenshots/."""

from __future__ import annotations

import re

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from club.models import Membership, Player
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.factories import ClubFactory, make_staff
from tests.tournaments.pages.pages_world import MADE_BY_EW, MADE_BY_NS, build_world
from tournaments.models import Match, Team, Tournament
from tournaments.services.deals import enter_deal

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
ARGS = ["les-atouts", "winter-cup"]
# Neutral names, so a team or a player is never mistaken for an English word left untranslated.
TEAMS = ["Les As", "Carreaux", "Piques", "Trèfles"]
PLAYERS = [
    "Anouk Dubois",
    "Bram Visser",
    "Chloé Girard",
    "Daan Smit",
    "Elodie Roux",
    "Finn Bakker",
    "Gaëlle Morel",
    "Hugo Peeters",
]


def no_horizontal_scroll(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_director_sets_up_a_tournament_from_nothing_to_a_printed_schedule(
    page, live_server, screenshot
):
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    make_staff(club, Membership.Role.DIRECTOR, "dora")
    remi = make_staff(club, Membership.Role.REFEREE, "remi")
    base = live_server.url
    sign_in(page, base, "dora", reverse("tournaments:director_club", args=["les-atouts"]))
    assert page.url.endswith("/direct/les-atouts/")
    screenshot(page, "pages-director-01-club")

    # The players the club did not know yet, pasted as a list.
    page.fill("#id_text", "\n".join(PLAYERS))
    submit(page, "main form button[type=submit]")
    assert page.locator(".message.success").count() == 1

    # A tournament with its house rules, each rule explained in one line.
    submit(page, "text=New tournament")
    page.fill("#id_name", "Winter Cup")
    page.fill("#id_starts_on", "2026-12-05")
    page.select_option("#id_rule_litige", "made")
    page.fill("#id_rule_target", "501")
    assert page.locator("#id_rule_litige_helptext").inner_text().startswith("What a tied contract")
    screenshot(page, "pages-director-02-new-tournament")
    page.click("text=Create the tournament")
    page.wait_for_url("**/direct/les-atouts/winter-cup/teams/")
    tournament = Tournament.objects.get(slug="winter-cup")
    assert tournament.rules["litige"] == "made" and tournament.rules["target"] == 501

    # The teams, pasted with the players' names.
    lines = [f"{name}: {PLAYERS[2 * i]} & {PLAYERS[2 * i + 1]}" for i, name in enumerate(TEAMS)]
    page.fill("#id_text", "\n".join(lines))
    submit(page, "button.primary:has-text('Register the teams')")
    screenshot(page, "pages-director-03-teams")
    assert page.locator("main ol.list li").count() == 4

    # The schedule, then a referee at table 1 of round 1.
    submit(page, "text=Go to the schedule")
    submit(page, "button.primary:has-text('Generate the schedule')")
    assert Match.objects.filter(tournament=tournament).count() == 6
    assert page.locator("#tables details.round").count() == 3
    screenshot(page, "pages-director-04-dashboard")
    submit(page, ".director-nav >> text=Referees")
    first = tournament.matches.filter(round__number=1).order_by("table").first()
    page.select_option(f"#id_match_{first.pk}", value=str(remi.pk))
    screenshot(page, "pages-director-05-referees")
    submit(page, "button.primary:has-text('Save the referees')")
    first.refresh_from_db()
    assert first.referee.username == "remi"

    # The printed score sheets: one per table, each with a QR code to its entry page.
    page.goto(base + reverse("tournaments:director_print_sheets", args=ARGS) + "?round=1")
    assert page.locator("article.sheet-page").count() == 2
    assert page.locator("article.sheet-page figure.qr svg").count() == 2
    page.emulate_media(media="print")
    screenshot(page, "pages-director-06-score-sheets-print")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    page.emulate_media(media="screen")

    # And the public schedule shows it.
    page.goto(base + reverse("tournaments:schedule", args=ARGS))
    assert page.locator("table.schedule tbody tr").count() == 2
    screenshot(page, "pages-director-07-public-schedule")


def test_a_player_on_a_phone_finds_their_next_table_and_the_standings(
    phone_page, live_server, screenshot
):
    world = build_world()
    page = phone_page
    team = world.match.ns_team
    base = live_server.url
    page.goto(base + "/")
    screenshot(page, "pages-player-01-home")
    submit(page, "text=Winter Cup")
    screenshot(page, "pages-player-02-tournament")
    assert no_horizontal_scroll(page, 360)
    submit(page, f"main >> text={team.name}")
    next_table = page.locator(".next-table")
    assert "Round 2" in next_table.inner_text() and "table" in next_table.inner_text()
    screenshot(page, "pages-player-03-team")
    assert no_horizontal_scroll(page, 360)
    submit(page, "nav.tabs >> text=Standings")
    assert page.locator("#standings tbody tr").count() == 4
    assert page.locator(".chart-wrap svg").count() == 1
    screenshot(page, "pages-player-04-standings")
    assert no_horizontal_scroll(page, 360)
    submit(page, "nav.tabs >> text=Schedule")
    submit(page, "table.schedule a[aria-label^='Match sheet']")
    screenshot(page, "pages-player-05-match-sheet")
    page.goto(base + team.first_player.get_absolute_url())
    screenshot(page, "pages-player-06-player")
    page.goto(base + reverse("club:detail", args=["les-atouts"]))
    screenshot(page, "pages-player-07-club")
    page.goto(base + reverse("club:ranking", args=["les-atouts"]))
    screenshot(page, "pages-player-08-ranking")


def test_the_standings_update_by_themselves_after_a_referee_enters_a_deal(
    chromium_browser, live_server, screenshot
):
    world = build_world()
    match = world.other_match
    for entry in (MADE_BY_NS, MADE_BY_EW):  # the third deal, from the referee, ends the match
        enter_deal(match, entry, by=world.director)
    base = live_server.url
    spectator = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    referee = chromium_browser.new_context(viewport={"width": 360, "height": 740})
    director = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        tables = director.new_page()
        sign_in(tables, base, "dora", reverse("tournaments:director", args=ARGS))
        live_row = tables.locator("#tables tr", has_text=match.ns_team.name).first
        assert "2 deals" in live_row.inner_text()
        standings = spectator.new_page()
        standings.goto(base + reverse("tournaments:standings", args=ARGS))
        version = standings.locator("#standings").get_attribute("data-version")
        row = standings.locator("#standings tbody tr", has_text=match.ns_team.name)
        # Being played: the live table counts it on its current totals, marked in play.
        assert (
            "in-play" in row.get_attribute("class") and row.locator("td").nth(2).inner_text() == "1"
        )
        screenshot(standings, "pages-live-01-before")

        table = referee.new_page()
        sign_in(table, base, world.other_referee.username, f"/matches/{match.pk}/table/")
        table.check("#id_taker_0")
        table.check("#id_trump_0")
        table.check("#id_points_team_0")
        table.fill("#id_cards", "100")
        # The table page sends the deal and shows the answer in place (no navigation).
        table.click("#deal-form button[type=submit]")
        table.wait_for_selector("[data-last-deal='3']")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED

        # No reload: the poll notices the new version and swaps the table in.
        standings.wait_for_function(
            "v => document.querySelector('#standings').dataset.version !== v",
            arg=version,
            timeout=20_000,
        )
        row = standings.locator("#standings tbody tr", has_text=match.ns_team.name)
        # Finished: it counts for good, in the after-round table; nothing is provisional now.
        assert row.locator("td").nth(2).inner_text() == "1"
        assert "in-play" not in (row.get_attribute("class") or "")
        assert standings.locator("#standings").get_attribute("data-live") == "0"
        screenshot(standings, "pages-live-02-after")

        # The director's tables follow too: the match is finished, without a reload.
        tables.wait_for_function(
            "name => [...document.querySelectorAll('#tables tr')].some("
            "r => r.innerText.includes(name) && r.querySelector('.badge-finished'))",
            arg=match.ns_team.name,
            timeout=20_000,
        )
        screenshot(tables, "pages-live-03-director-tables")
    finally:
        spectator.close()
        referee.close()
        director.close()


# English msgids that are also ordinary words of the language: Finnish "on" is "is".
WORDS_OF_THE_LANGUAGE = {"fi": {"on"}}


def english_left(text: str, language: str) -> list[str]:
    """English msgids whose translation differs and that still appear in `text`."""
    catalogue = polib.pofile(
        str(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po")
    )
    found = []
    for entry in catalogue:
        if entry.obsolete or entry.msgid_plural or entry.msgstr == entry.msgid:
            continue
        # The literal parts of the message: with a placeholder, only phrases of two words or more.
        parts = re.split(r"%\(\w+\)[sd]|<[^>]+>", entry.msgid)
        for part in parts:
            part = part.strip(" .,:;()·—")
            if not part or (len(parts) > 1 and len(part.split()) < 2) or len(part) < 2:
                continue
            if part in WORDS_OF_THE_LANGUAGE.get(language, ()):
                continue
            if re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", text):
                found.append(part)
    return sorted(set(found))


def visible_text(page) -> str:
    return page.evaluate(
        """() => { const b = document.body.cloneNode(true);
        b.querySelectorAll('.language-switcher, script').forEach(e => e.remove());
        document.body.appendChild(b); const t = b.innerText; b.remove(); return t; }"""
    )


@pytest.mark.parametrize("language", ["fr", "nl", "fi"])
def test_french_dutch_and_finnish_pages_show_no_untranslated_string(
    chromium_browser, live_server, screenshot, language
):
    world = build_world()
    for team, name in zip(Team.objects.order_by("seed"), TEAMS, strict=True):
        team.name = name
        team.save()
    for player, name in zip(
        Player.objects.filter(user__isnull=True).order_by("pk"), PLAYERS, strict=False
    ):
        player.first_name, player.last_name = name.split()
        player.save()
    base = live_server.url
    team = world.match.ns_team
    public = [
        ("home", "/"),
        ("club", reverse("club:detail", args=["les-atouts"])),
        ("ranking", reverse("club:ranking", args=["les-atouts"])),
        ("tournament", world.tournament.get_absolute_url()),
        ("schedule", reverse("tournaments:schedule", args=ARGS) + "?round=1"),
        ("standings", reverse("tournaments:standings", args=ARGS)),
        ("team", reverse("tournaments:team", args=[*ARGS, team.pk])),
        ("match-sheet", world.match.get_absolute_url()),
        ("player", team.first_player.get_absolute_url()),
    ]
    director = [
        ("director-club", reverse("tournaments:director_club", args=["les-atouts"])),
        ("director-new", reverse("tournaments:director_new", args=["les-atouts"])),
        ("director", reverse("tournaments:director", args=ARGS)),
        ("director-teams", reverse("tournaments:director_teams", args=ARGS)),
        ("director-referees", reverse("tournaments:director_referees", args=ARGS)),
        ("director-sheets", reverse("tournaments:director_print_sheets", args=ARGS) + "?round=1"),
        ("director-print-standings", reverse("tournaments:director_print_standings", args=ARGS)),
        ("referee-tables", reverse("tournaments:my_tables")),
        ("referee-table", reverse("tournaments:table", args=[world.match.pk])),
    ]
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}])
    page = context.new_page()
    problems = {}
    try:
        for name, url in public:
            page.goto(base + url)
            assert page.locator("html").get_attribute("lang") == language
            screenshot(page, f"pages-{language}-{name}")
            if left := english_left(visible_text(page), language):
                problems[name] = left
        sign_in(page, base, "dora", "/")
        for name, url in director:
            page.goto(base + url)
            screenshot(page, f"pages-{language}-{name}")
            if left := english_left(visible_text(page), language):
                problems[name] = left
    finally:
        context.close()
    assert problems == {}


def test_a_keyboard_user_skips_to_the_content_and_sees_where_the_focus_is(page, live_server):
    build_world()
    page.goto(live_server.url + reverse("tournaments:standings", args=ARGS))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    assert page.locator(".skip-link").bounding_box()["x"] >= 0  # shown while focused
    page.keyboard.press("Enter")
    assert page.url.endswith("#main")
    # Every form control of the page has a label a screen reader can read.
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('select, input:not([type=hidden]), textarea')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).length"""
    )
    assert unlabelled == 0
