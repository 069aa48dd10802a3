"""The ASGI entry of a stream host (uvicorn): the live stream at /stream/, the site elsewhere.

    uvicorn config.asgi:application --port 8001

A stream host needs BELOTE_LIVE_STREAM_ORIGIN (the web tier it fetches the regions from) and
Redis (BELOTE_LIVE_REDIS_URL, or the cache's); see docs/scaling.md. It fetches
under a host name of DJANGO_ALLOWED_HOSTS (the origin's if listed there, else the first),
never a visitor's (`live.stream.app.trusted_host`).
"""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
site = get_asgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

from config.process import settle  # noqa: E402
from live.stream.app import StreamApp  # noqa: E402
from live.stream.paths import PREFIX  # noqa: E402

stream = StreamApp(settings.LIVE_STREAM_ORIGIN, settings.LIVE_REDIS_URL)
settle()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan" or scope.get("path", "").startswith(PREFIX + "/"):
        await stream(scope, receive, send)
    else:
        await site(scope, receive, send)
