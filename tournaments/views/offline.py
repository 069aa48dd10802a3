"""The table as an installable app: its web app manifest and the service worker that keeps the
table page and its assets for a room without network (static/js/table-outbox.js keeps the deals).
The same worker keeps the score pad's pages and assets (static/js/pad.js keeps the game): one
worker, one cache, one policy.

The worker is served from the site's root so that its scope covers every table page and the
pad; it is a template only to name the assets by their collected (hashed) addresses.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from scoring import bundle

# The cache the worker and the table page share (the pad's pages too); a new name drops the old
# copies.
CACHE_NAME = "belote-table-v1"
ASSETS = (
    "css/site.css",
    "js/site.js",
    "js/deal-form.js",
    "js/table-outbox.js",
    "js/pad.js",
    "js/engine.js",
    "js/engine-worker.js",
    "favicon.svg",
)


def engine_files() -> tuple[str, list[str]]:
    """The engine on the phone's cache name and files (Pyodide and the engine's zip), by their
    plain addresses; none when it was not built (scoring/bundle.py, docs/offline.md)."""
    found = bundle.built()
    if found is None:
        return "", []
    name = f"belote-engine-{found['pyodide_version']}-{found['version']}"
    files = [*found["files"], found["bundle"]]
    return name, [f"{settings.STATIC_URL}{path}" for path in files]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    engine_cache, engine = engine_files()
    context = {
        "cache_name": CACHE_NAME,
        "engine_cache": engine_cache,
        "engine_files": engine,
        # The engine's messages by language, /engine/messages.<language>.json: their prefix.
        "engine_messages": reverse("scoring:engine_messages", args=["en"]).removesuffix("en.json"),
        "assets": [static(name) for name in ASSETS],
        "my_tables": reverse("tournaments:my_tables"),
        # By name only: the pad sits on top of tournaments/ and is never imported here.
        "pad_page": reverse("pad:new"),
    }
    response = render(request, "tournaments/offline/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """What a phone needs to install the table as an app that opens on "My tables"."""
    data = {
        "name": _("Belote club: my tables"),
        "short_name": _("My tables"),
        "start_url": reverse("tournaments:my_tables"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f6f8",
        "theme_color": "#10375c",
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return JsonResponse(data, content_type="application/manifest+json")
