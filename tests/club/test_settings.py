"""Settings read the environment: SQLite and in-process tasks by default, the full stack when told."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import requires_postgres

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "DJANGO_PRODUCTION",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_TEST_DB_NAME",
)
PROBE = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "test_name": db.get("TEST", {}).get("NAME"),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER, "broker": settings.CELERY_BROKER_URL,
    "debug": settings.DEBUG, "secure_cookies": getattr(settings, "SESSION_COOKIE_SECURE", False),
    "allowed_hosts": settings.ALLOWED_HOSTS,
}))
"""


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with only `env` set among our variables."""
    if (ROOT / ".env").exists():
        # A developer's .env fills whatever the environment leaves unset.
        pytest.skip("a .env file in the project folder sets variables these tests control")
    environment = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_with(**env: str) -> dict:  # type: ignore[type-arg]
    run = load_settings(**env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_with_nothing_set_it_uses_sqlite_in_the_project_folder_and_runs_tasks_in_process():
    found = settings_with()
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"] == str(ROOT / "db.sqlite3")
    assert found["eager"] is True
    assert found["broker"] == ""
    assert found["debug"] is False


def test_database_url_switches_to_postgresql():
    found = settings_with(
        DATABASE_URL="postgres://belote:secret@db.example:5432/belote", DJANGO_TEST_DB_NAME="t_x"
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["name"] == "belote"
    assert found["test_name"] == "t_x"


def test_a_broker_url_sends_tasks_to_celery_workers():
    found = settings_with(CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert found["eager"] is False
    assert found["broker"] == "redis://127.0.0.1:6379/3"


def test_production_refuses_to_start_without_a_secret_key():
    run = load_settings(DJANGO_PRODUCTION="1")
    assert run.returncode != 0
    assert "ImproperlyConfigured" in run.stderr and "DJANGO_SECRET_KEY" in run.stderr


def test_production_refuses_to_start_with_debug_on():
    run = load_settings(DJANGO_PRODUCTION="1", DJANGO_DEBUG="1", DJANGO_SECRET_KEY="s" * 50)
    assert run.returncode != 0
    assert "ImproperlyConfigured" in run.stderr and "DJANGO_DEBUG" in run.stderr


def test_production_with_a_secret_key_starts_with_secure_cookies_and_no_default_hosts():
    found = settings_with(DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY="s" * 50)
    assert found["debug"] is False
    assert found["secure_cookies"] is True
    assert found["allowed_hosts"] == []


def test_debug_is_only_on_when_asked():
    assert settings_with(DJANGO_DEBUG="1")["debug"] is True


@pytest.mark.postgres
@requires_postgres
@pytest.mark.django_db
def test_the_tests_run_on_postgresql_when_database_url_says_so():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert "PostgreSQL" in cursor.fetchone()[0]
