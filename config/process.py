"""What a server process does once the site is loaded: its objects set aside from the collector."""

from __future__ import annotations

import gc


def settle() -> None:
    """Import every view (the URLconf), then move every object alive now to the collector's
    permanent generation (`gc.freeze`).

    Those objects (Django, the apps, their modules) live as long as the process, yet a full
    collection scanned them all, with the GIL held: 60–95 ms of CPU each in a gunicorn worker,
    13 of them in a 40 s phase of 20 deals a second (`bench.live`), each stalling every
    request of the worker's threads. Called by gunicorn's and uvicorn's entry points
    (config/wsgi.py, config/asgi.py) and by each Celery pool process.
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (imports every view and what it imports)
    gc.freeze()
