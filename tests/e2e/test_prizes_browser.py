"""The prize pages in a browser: the table editor's rows and presets write the setting, and
the prize list, its printed sheet and the form pass axe at 360 px and at 1366 px."""

from __future__ import annotations

import datetime
import json
import os

import pytest

from prizes.models import SeriesPrizes
from prizes.services import recompute_prize_list
from seasons.models import Season, Series, SeriesLine
from tests.e2e.conftest import requires_chromium
from tests.e2e.test_accessibility_browser import BAD, SIZES, TAP_TARGETS
from tests.e2e.test_table_browser import sign_in
from tests.factories import PlayerFactory
from tests.prizes.world import build_world
from tournaments.models import Team, Tournament

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

EDIT = "/direct/les-atouts/concours/edit/"


def violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    from axe_playwright_python.sync_playwright import Axe

    found = [
        f"{v['id']}: {[n['target'] for n in v['nodes'][:3]]}"
        for v in Axe().run(page).response["violations"]
        if v["impact"] in BAD
    ]
    return found


def a_series_with_prizes(club):  # type: ignore[no-untyped-def]
    season = Season.objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    series = Series.objects.create(season=season, name="Thursday")
    for position, rank in enumerate([1, 2, 2, 4], start=1):
        SeriesLine.objects.create(
            series=series,
            player=PlayerFactory(first_name=f"P{position}", last_name="Martin"),
            position=position,
            rank=rank,
            shared_rank=rank == 2,
        )
    SeriesPrizes.objects.create(
        series=series,
        prizes={
            "pool": {"added": 100},
            "lines": [{"place": 1, "percent": 60}, {"last": True, "kind": "Spoon"}],
        },
    )
    return series


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_prize_pages_pass_axe(chromium_browser, live_server, screenshot, size):
    world = build_world()
    Team.objects.filter(name="Team E").update(category="Ladies")
    Tournament.objects.filter(pk=world.tournament.pk).update(check_in="on")
    recompute_prize_list(world.tournament.pk)
    series = a_series_with_prizes(world.tournament.club)
    context = chromium_browser.new_context(viewport=SIZES[size], locale="en-GB")
    page = context.new_page()
    sign_in(page, live_server, world.director)
    problems = {}
    paths = (
        "/clubs/les-atouts/concours/",
        "/direct/les-atouts/concours/print/prizes/",
        EDIT,
        "/direct/les-atouts/concours/check-in/",
        "/direct/les-atouts/concours/cash/",
        f"/clubs/les-atouts/series/{series.pk}/",
        f"/clubs/les-atouts/seasons/{series.season_id}/",
        f"/direct/les-atouts/series/{series.pk}/prizes/",
    )
    for path in paths:
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
        found = violations(page)
        if size == "phone":
            found += [f"tap target under 44 px: {t}" for t in page.evaluate(TAP_TARGETS)]
        screenshot(page, f"prizes-{size}-{path.strip('/').replace('/', '-')}")
        if found:
            problems[path] = found
    context.close()
    assert not problems, problems


def test_a_problem_shows_above_the_rows(chromium_browser, live_server):
    world = build_world(play=False, prizes=None)
    context = chromium_browser.new_context(viewport=SIZES["phone"], locale="en-GB")
    page = context.new_page()
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + EDIT)
    page.get_by_role("button", name="a share of the fees over the first places").click()
    page.get_by_label("Line 1: percent of the pool").fill("80")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state("load")
    shown = page.locator("[data-prize-editor] .errorlist")
    assert shown.is_visible()
    assert "The prize lines: The percentages add up to 130 % of the pool" in shown.inner_text()
    context.close()


def test_a_preset_and_a_row_edit_write_the_setting(chromium_browser, live_server, screenshot):
    world = build_world(play=False, prizes=None)
    context = chromium_browser.new_context(viewport=SIZES["phone"], locale="en-GB")
    page = context.new_page()
    sign_in(page, live_server, world.director)
    page.goto(live_server.url + EDIT)
    page.wait_for_load_state("load")
    page.get_by_role("button", name="the formule van 4").click()
    lines = page.locator(".prize-line")
    assert lines.count() == 5
    page.get_by_label("Line 2: percent of the pool").fill("12")
    page.get_by_role("button", name="Add a line").click()
    page.get_by_label("Line 6: amount").fill("7.50")
    page.get_by_label("Line 6: in kind").fill("Bottle")
    screenshot(page, "prizes-editor-phone")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state("load")
    errors = page.locator(".errorlist li").all_text_contents()
    screenshot(page, "prizes-editor-saved-phone")
    prizes = Tournament.objects.get(pk=world.tournament.pk).prizes
    assert prizes is not None, errors
    assert prizes["pool"] == {"percent_of_fees": 100}
    assert prizes["lines"][1] == {"place": 2, "percent": 12}
    # Six teams: every fourth place from 8 to 8.
    assert prizes["lines"][4] == {"every": 4, "from": 8, "to": 8, "percent": 40}
    assert prizes["lines"][5] == {"place": 6, "amount": 7.5, "kind": "Bottle"}
    context.close()
    assert json.dumps(prizes)
