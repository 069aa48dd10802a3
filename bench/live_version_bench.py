"""Server work of "nothing changed" for a polling page: `tournaments.changes.live_version`.

    CACHE_URL=rediscache://127.0.0.1:6379/2 DATABASE_URL=sqlite:////tmp/bench_live.sqlite3 \\
        .venv/bin/python -m bench.live_version_bench

Times, median of many runs on one core: the live version read from the shared cache, the
same read while the cache is down (from the database), and a fragment view that answers 204
when the poller's version is current, called directly and through the whole Django stack
(middleware included; no network). Prints the figures; it is not a pass/fail test.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable


def per_call(work: Callable[[], object], runs: int = 2000) -> float:
    """Median microseconds of `work()`, over batches of 20 calls."""
    for _ in range(50):
        work()
    batches = []
    for _ in range(runs // 20):
        start = time.perf_counter()
        for _ in range(20):
            work()
        batches.append((time.perf_counter() - start) / 20)
    return statistics.median(batches) * 1e6


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("CACHE_URL", "rediscache://127.0.0.1:6379/2")
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.db import connection
    from django.http import HttpRequest, HttpResponse
    from django.test import RequestFactory
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.urls import path

    from config.cache import cache_config
    from tests.factories import TournamentFactory
    from tournaments.changes import bump_live_version, live_version

    call_command("migrate", verbosity=0)
    from tournaments.models import Tournament

    tournament = Tournament.objects.order_by("pk").first() or TournamentFactory()
    tid = tournament.pk
    bump_live_version(tid)

    def fragment(request: HttpRequest, pk: int) -> HttpResponse:
        # What a live fragment does first: nothing changed since the poller's version → 204.
        if request.GET.get("v") == live_version(pk):
            return HttpResponse(status=204)
        return HttpResponse("the fragment, rendered from the database")

    print(
        f"cache: {settings.CACHES['default']['BACKEND']} at {settings.CACHES['default']['LOCATION']}"
    )
    print(f"database: {connection.vendor}")
    print(f"live_version, from the cache:            {per_call(lambda: live_version(tid)):7.1f} µs")
    version = live_version(tid)
    request = RequestFactory().get(f"/live/{tid}/", {"v": version})
    with CaptureQueriesContext(connection) as queries:
        assert fragment(request, tid).status_code == 204
    print(
        f"fragment view, 204, called directly:     {per_call(lambda: fragment(request, tid)):7.1f} µs"
        f"  ({len(queries)} queries)"
    )

    urlpatterns = [path("live/<int:pk>/", fragment)]
    module = type(os)("bench_live_urls")
    module.urlpatterns = urlpatterns  # type: ignore[attr-defined]
    import sys

    sys.modules["bench_live_urls"] = module
    with override_settings(ROOT_URLCONF="bench_live_urls", ALLOWED_HOSTS=["testserver"]):
        # The WSGI handler gunicorn calls, every middleware of the site included.
        handler = WSGIHandler()
        environ = {
            **RequestFactory()._base_environ(),
            "PATH_INFO": f"/live/{tid}/",
            "QUERY_STRING": f"v={version}",
        }
        statuses: list[str] = []

        def through_django() -> None:
            handler(dict(environ), lambda status, headers: statuses.append(status)).close()

        through_django()
        assert statuses[-1].startswith("204"), statuses[-1]
        print(f"fragment, 204, through every middleware: {per_call(through_django, 1000):7.1f} µs")

    down = cache_config("rediscache://127.0.0.1:1/1")  # nothing listens there: Redis is down
    with override_settings(CACHES={"default": down}):
        cache.get("warm")  # the first failure pauses the cache for this process
        token = live_version(tid)
        print(
            f"live_version, cache down (database):     {per_call(lambda: live_version(tid)):7.1f} µs"
            f"  ({token[:1]}… token)"
        )


if __name__ == "__main__":
    main()
