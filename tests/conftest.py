"""Fixtures for every test: a fast password hasher, in-process tasks, and the service markers."""

from __future__ import annotations

import os

import pytest

SERVICE_MARKERS = ("postgres", "redis", "browser")


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    """Each test starts with an empty cache: no throttle count or debounce key of another test."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _tasks_in_process(request):  # type: ignore[no-untyped-def]
    """Run Celery tasks in process, as on a bare machine, except in tests of the real broker.

    CI sets CELERY_BROKER_URL for the whole run; without this every other test would send
    its tasks to Redis and wait for a worker that is not there.
    """
    from config.celery_app import app

    real_broker = request.node.get_closest_marker("redis") is not None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = not real_broker
    yield
    app.conf.task_always_eager = previous


def _on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(
        ("postgres://", "postgresql://", "pgsql://")
    )


requires_postgres = pytest.mark.skipif(
    not _on_postgres(), reason="needs PostgreSQL: set DATABASE_URL=postgres://..."
)
requires_redis = pytest.mark.skipif(
    not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"),
    reason="needs the Redis broker: set CELERY_BROKER_URL=redis://...",
)


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """On several cores (pytest-xdist, `--dist loadgroup`) the tests of the real broker run in
    one process: they share its queue, and a worker of one would take the other's tasks."""
    for item in items:
        if item.get_closest_marker("redis") is not None:
            item.add_marker(pytest.mark.xdist_group("redis"))


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    """In CI (BELOTE_FORBID_SKIPS=1) a skipped test is a failure: the services are all there."""
    if os.environ.get("BELOTE_FORBID_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reporter.write_line(
            f"BELOTE_FORBID_SKIPS: {len(skipped)} test(s) skipped; CI must run every test:",
            red=True,
        )
        for report in skipped:
            reporter.write_line(
                f"  {report.nodeid}: {report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr}"
            )
        session.exitstatus = 1


@pytest.fixture
def compiled_catalogues(tmp_path, settings):  # type: ignore[no-untyped-def]
    """Pages in Dutch and French from catalogues compiled for this test, not a stale .mo."""
    import shutil

    from django.core.management import call_command
    from django.utils.translation import trans_real

    locale = settings.BASE_DIR / "locale"
    shutil.copytree(locale, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("compile_translations", verbosity=0)
    trans_real._translations = {}
    trans_real._default = None
    yield
    trans_real._translations = {}
    trans_real._default = None
