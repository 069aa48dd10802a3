"""Browser fixtures: Debian's chromium driven by Playwright; skipped where chromium is missing.

Use `page` (a desktop-sized page; mark a test `@pytest.mark.phone` for 360x740) or `phone_page`,
and `screenshot(page, "name")` to save artifacts/screenshots/<name>.png.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls from the
# test itself (fixtures, assertions) are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

requires_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"needs Debian's chromium at {CHROMIUM}"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "phone: run the browser page at 360x740")


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _new_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def page(chromium_browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    phone = request.node.get_closest_marker("phone") is not None
    yield from _new_page(chromium_browser, PHONE if phone else DESKTOP)


@pytest.fixture
def phone_page(chromium_browser: Any) -> Iterator[Any]:
    yield from _new_page(chromium_browser, PHONE)


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        if not full_page:
            page.screenshot(path=str(path))
            return path
        # Chromium draws a whole page by stretching the viewport, then puts it back and
        # restores the scroll position a moment later: a click sent meanwhile can land where
        # the element was (the score pad's "Start the game" was missed one run in four). The
        # scroll position is set again, and two frames drawn, before the test goes on.
        scrolled = page.evaluate("() => [window.scrollX, window.scrollY]")
        page.screenshot(path=str(path), full_page=True)
        page.evaluate(
            """([x, y]) => new Promise((done) => {
              window.scrollTo(x, y);
              requestAnimationFrame(() => requestAnimationFrame(done));
            })""",
            scrolled,
        )
        return path

    return take


@pytest.fixture(scope="module")
def compiled_translations() -> None:
    """The install step compiles the catalogues; make sure this process reads fresh ones."""
    from django.core.management import call_command
    from django.utils.translation import trans_real

    call_command("compile_translations", verbosity=0)
    trans_real._translations = {}
    trans_real._default = None


def sign_in(page: Any, base: str, username: str, next_url: str) -> None:
    """Through the sign-in page, as a person would (every test user's password is the same)."""
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", "belote-pass")
    submit(page, "main button[type=submit]")


def submit(page: Any, selector: str) -> None:
    """Click and wait for the page the form answers with."""
    with page.expect_navigation():
        page.click(selector)


@pytest.fixture(scope="session")
def engine_built() -> dict[str, Any]:
    """The engine built for the phone (Pyodide from npm, the engine's zip), as `make install`
    builds it; skipped where npm never fetched Pyodide (a bare machine: CI fails on skips)."""
    from scoring import bundle

    found = bundle.build()
    if found is None:
        pytest.skip("needs Pyodide in node_modules/: run `npm ci` (make install does)")
    return found


def engine_ready(page: Any, timeout: float = 60_000) -> None:
    """Wait until the page's engine (static/js/engine.js) has started on the phone."""
    page.wait_for_function(
        "() => document.documentElement.getAttribute('data-engine') === 'ready'", timeout=timeout
    )


def engine_kept(page: Any) -> None:
    """Wait until the site's service worker holds every file of the engine (its own cache)."""
    for _ in range(300):
        if page.evaluate(
            """async () => {
              const name = (await caches.keys()).find((n) => n.startsWith('belote-engine-'));
              if (!name) return false;
              const sw = await fetch('/sw.js').then((r) => r.text());
              const files = JSON.parse(sw.match(/var ENGINE = (\\[.*\\]);/)[1]);
              const cache = await caches.open(name);
              const kept = await Promise.all(files.map((f) => cache.match(f)));
              return files.length > 0 && kept.every(Boolean);
            }"""
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never kept the engine's files")
