"""The big screen cuts each table to the room's screen: every row wholly visible on some slide.

At 1920 × 1080, 1280 × 720 and a portrait TV (1080 × 1920), with 25 teams (12 tables and a
bye, 25 standings lines): each row of the tables and of the standings shows on exactly one
slide, above the footer, and the bye line on the tables' last slide. Screenshots:
artifacts/screenshots/screen-<size>-<slide>.png.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.pages.pages_world import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1920, 1080), (1280, 720), (1080, 1920)]

SHOWN = """() => {
  const foot = document.querySelector('.screen-foot').getBoundingClientRect().top;
  const slide = document.querySelector('#screen [data-slide]:not([hidden])');
  const all = Array.from(document.querySelectorAll('#screen [data-slide]'));
  const rows = Array.from(slide.querySelectorAll('tbody > tr'));
  return {
    slide: all.indexOf(slide),
    rows: rows.map((row, i) => [i, !row.hidden, row.getBoundingClientRect().bottom <= foot + 0.5]),
    notes: Array.from(slide.querySelectorAll(':scope > p:not([hidden])')).map(
      (note) => [note.textContent.trim(), note.getBoundingClientRect().bottom <= foot + 0.5]),
  };
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_row_of_every_table_is_wholly_on_some_slide(
    chromium_browser, live_server, screenshot, size
):
    build_world(25)
    context = chromium_browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(live_server.url + reverse("tournaments:screen", args=["les-atouts", "winter-cup"]))
    page.wait_for_function("() => window.beloteScreenPages && window.beloteScreenPages().length")
    count = len(page.evaluate("window.beloteScreenPages()"))
    seen: dict[int, list[int]] = {}
    notes: list[str] = []
    for turn in range(count):
        shown = page.evaluate(SHOWN)
        screenshot(page, f"screen-{size[0]}x{size[1]}-{turn}", full_page=False)
        for index, visible, above_the_footer in shown["rows"]:
            if visible:
                assert above_the_footer, (turn, index)
                seen.setdefault(shown["slide"], []).append(index)
        for text, above_the_footer in shown["notes"]:
            assert above_the_footer, text
            notes.append(text)
        page.keyboard.press("ArrowRight")
    # The tables (12, the bye apart) and the standings (25 lines), each row once.
    assert sorted(seen[0]) == list(range(12))
    assert sorted(seen[1]) == list(range(25))
    assert any(note.startswith("Bye:") for note in notes)
    assert "Ranked by match points, then head-to-head among the tied teams" in " ".join(notes)
    context.close()
