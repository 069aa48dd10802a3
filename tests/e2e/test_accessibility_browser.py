"""Every page, checked with axe-core (issue 24): no serious or critical violation, tap targets of
44 px on a phone, at 360 × 740 and at 1366 × 768; on the phone, no page scrolls sideways, in
English, Dutch, French or Finnish.

The pages are found as a visitor finds them: from the home page, "My tables" and the director's
pages of the demo club (`manage.py load_demo`, with online registration and check-in opened on
its round robin), every link of the site is followed, and each page is checked once per URL
pattern, visitor and tournament format (a Swiss's director pages are not a mêlée's). A page
added later is checked once a link leads to it. axe-core is the copy the PyPI package `axe-playwright-python` ships (axe.min.js,
MPL-2.0): nothing is downloaded while the tests run.

A failure lists each page with its rules and the elements they name; the screenshots of the
pages checked are in artifacts/screenshots/a11y-*.png.
"""

from __future__ import annotations

import os
from collections import deque
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import Resolver404, resolve, reverse

from tests.e2e.conftest import SCREENSHOTS, requires_chromium
from tests.e2e.test_table_browser import sign_in
from tournaments.models import Tournament

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, requires_chromium, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1366, "height": 768}}
BAD = {"serious", "critical"}
# Where a visitor's walk starts: (who, the first page).
WALKS = (("visitor", "/"), ("referee1", "/referee/"), ("director", "/direct/"))
# Not pages: files, the API and admin (their own tools), a referee's private link (it signs in).
SKIP_PREFIXES = ("/static/", "/api/", "/admin/", "/accounts/logout", "/i18n/", "/t/")
SKIP_SUFFIXES = (".csv", ".svg", ".png", ".js", ".json", ".webmanifest")
MOST_PAGES = 240
# A phone never scrolls a page sideways, in any language (a wide table scrolls in its own box).
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
OTHER_LANGUAGES = ("nl", "fr", "fi")

# Controls a finger taps (inline links in a sentence are exempt, as WCAG 2.5.8 says).
TAP_TARGETS = """() => {
  const small = [];
  const sel = 'button, select, input:not([type=hidden]), summary, .button, nav a, .tabs a,'
    + ' .pills a, .small-button, .chip, label:has(input[type=radio]), label:has(input[type=checkbox])';
  document.querySelectorAll(sel).forEach((el) => {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest('[hidden], .visually-hidden, .skip-link')) return;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) return;
    if (box.height < 43.5 && box.width < 43.5 || box.height < 23.5) {
      small.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + el.className)
        + ' ' + Math.round(box.width) + 'x' + Math.round(box.height)
        + ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"');
    }
  });
  return small;
}"""


@pytest.fixture
def demo(live_server):
    """The demo club, and a score pad with a deal (its pages are reached by their key only)."""
    from pad.services import create_pad

    call_command("load_demo", verbosity=0)
    # The evening's doors: the round robin takes entries online and checks them in.
    Tournament.objects.filter(format=Tournament.Format.ROUND_ROBIN).update(
        registration=Tournament.RegistrationMode.OPEN, check_in=Tournament.CheckIn.ON
    )
    deal = {"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50}}}
    pad = create_pad(players=["Anna", "Bram", "Cato"], rules={"target": 60}, deals=[deal])[0]
    return (
        live_server,
        [
            reverse("pad:game", args=[pad.key]),
            reverse("pad:view", args=[pad.view_key]),
        ],
        prize_pages(),
    )


def prize_pages() -> dict[str, list[str]]:
    """A finished evening of the demo plays for prizes: its page (the prize list) and, for the
    director, the printed sheet are walked first (an evening under way has no list)."""
    from prizes.services import recompute_prize_list

    evening = Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by("pk").first()
    evening.entrants.filter(seed__in=[2, 5]).update(category="Youth")
    evening.prizes = {
        "pool": {"added": 60},
        "lines": [
            {"place": 1, "percent": 50},
            {"places": [2, 3], "amount": 10},
            {"last": True, "kind": "Booby prize"},
            {"category": "Youth", "place": 1, "kind": "Cup"},
        ],
    }
    evening.save(update_fields=["prizes"])
    recompute_prize_list(evening.pk)
    page = reverse("tournaments:detail", args=[evening.club.slug, evening.slug])
    printed = reverse("prizes:print", args=[evening.club.slug, evening.slug])
    return {"visitor": [page], "referee1": [], "director": [page, printed]}


def page_kind(path, formats):
    """(URL pattern, the format of the tournament in it): a page is checked once per kind."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.route, formats.get(match.kwargs.get("slug"))


def links(page, base):
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    for href in hrefs:
        parts = urlsplit(href)
        if f"{parts.scheme}://{parts.netloc}" != base or not parts.path:
            continue
        if parts.path.startswith(SKIP_PREFIXES) or parts.path.endswith(SKIP_SUFFIXES):
            continue
        yield parts.path


def check(page, axe):
    found = []
    results = axe.run(page)
    for violation in results.response["violations"]:
        if violation["impact"] in BAD:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


@pytest.mark.timeout(900)  # some 150 pages, each walked and checked (about 0.4 s each)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_passes_axe_and_has_big_enough_tap_targets(
    chromium_browser, demo, screenshot, size
):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    problems: dict[str, list[str]] = {}
    checked: list[str] = []
    server, pad_pages, prizes = demo
    base = server.url
    formats = dict(Tournament.objects.values_list("slug", "format"))
    for who, start in WALKS:
        context = chromium_browser.new_context(viewport=SIZES[size], locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        if who != "visitor":
            sign_in(page, server, get_user_model().objects.get(username=who))
        seen_routes = set()
        visited: list[str] = []
        queue = deque([*prizes[who], start, *(pad_pages if who == "visitor" else [])])
        while queue and len(seen_routes) < MOST_PAGES:
            path = queue.popleft()
            kind = page_kind(path, formats)
            if kind is None or kind in seen_routes:
                continue
            seen_routes.add(kind)
            response = page.goto(base + path)
            if response is None or response.status >= 400:
                continue
            page.wait_for_load_state("load")
            name = f"{who} {path}"
            checked.append(name)
            found = check(page, axe)
            if size == "phone":
                found += [f"tap target under 44 px: {t}" for t in page.evaluate(TAP_TARGETS)]
                if page.evaluate(SIDEWAYS) > 0:
                    found.append(f"scrolls sideways by {page.evaluate(SIDEWAYS)} px")
                visited.append(path)
            if found:
                problems[name] = found
                slug = path.strip("/").replace("/", "-") or "home"
                screenshot(page, f"a11y-{size}-{who}-{slug}"[:120], full_page=False)
            queue.extend(links(page, base))
        for language in OTHER_LANGUAGES if size == "phone" else ():
            context.add_cookies([{"name": "django_language", "value": language, "url": base}])
            for path in visited:
                response = page.goto(base + path)
                if response is not None and response.status < 400 and page.evaluate(SIDEWAYS) > 0:
                    problems.setdefault(f"{who} {path} ({language})", []).append(
                        f"scrolls sideways by {page.evaluate(SIDEWAYS)} px"
                    )
        context.close()
    print(f"\n{len(checked)} pages checked at {size}")
    report = SCREENSHOTS.parent / f"a11y-{size}.txt"
    report.write_text(
        "\n".join(checked)
        + "\n\n"
        + "\n".join(f"{n}:\n  " + "\n  ".join(p) for n, p in problems.items())
    )
    assert len(checked) > 20, checked
    assert not problems, "\n".join(f"{name}:\n  " + "\n  ".join(p) for name, p in problems.items())
