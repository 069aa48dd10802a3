"""The ASGI entry of a stream host (uvicorn): the live stream at /stream/, nothing else.

    uvicorn config.asgi:application --port 8001 --no-proxy-headers \\
        --http live.stream.guard:HeaderTimeoutProtocol

A stream host needs BELOTE_LIVE_STREAM_ORIGIN (the web tier it fetches the regions from) and
Redis (BELOTE_LIVE_REDIS_URL, or the cache's); see docs/scaling.md. It fetches
under a host name of DJANGO_ALLOWED_HOSTS (the origin's if listed there, else the first),
never a visitor's (`live.stream.app.trusted_host`).

Every other path answers 404 (the site is gunicorn's), one client address holds at most
BELOTE_STREAM_MAX_PER_CLIENT streams, and that address is read as the whole site reads it,
behind DJANGO_NUM_PROXIES proxies (`config.addresses`): so uvicorn runs with
`--no-proxy-headers`, or it would take X-Forwarded-For from any local peer itself. The
`--http` protocol closes connections whose headers do not come within
BELOTE_STREAM_HEADER_TIMEOUT seconds (`live.stream.guard`; docs/security.md).
"""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (after Django is set up)

from config.addresses import scope_address  # noqa: E402
from config.process import settle  # noqa: E402
from live.stream.app import StreamApp  # noqa: E402
from live.stream.guard import StreamGuard  # noqa: E402
from live.stream.paths import PREFIX  # noqa: E402

stream = StreamApp(settings.LIVE_STREAM_ORIGIN, settings.LIVE_REDIS_URL)
application: Any = StreamGuard(
    stream,
    prefix=PREFIX,
    max_per_client=settings.STREAM_MAX_PER_CLIENT,
    address_of=scope_address,
)
settle()
