"""A real site for tests that talk HTTP to it: gunicorn on a free port, a throwaway SQLite
database, tasks in process. Stopped (and its database dropped) when the test module ends."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.live_stack import free_port

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class LiveSite:
    url: str
    env: dict[str, str]

    def manage(self, *args: str, **extra_env: str) -> str:
        """`manage.py <args>` against the site's database; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, **extra_env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout


def site_environment(database: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        # The site runs alone: no broker, no shared cache, none of the test run's database.
        if key not in {"CELERY_BROKER_URL", "CACHE_URL", "DJANGO_TEST_DB_NAME", "DATABASE_URL"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_DEBUG="false",
        DJANGO_PRODUCTION="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_LOG_LEVEL="WARNING",
        PYTHONDONTWRITEBYTECODE="1",
        PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def _wait_until_up(url: str, server: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/v1/ping/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer at {url} within {seconds} s")


@contextmanager
def live_site(folder: Path) -> Iterator[LiveSite]:
    env = site_environment(folder / "site.sqlite3")
    site = LiveSite("", env)
    site.manage("migrate", "--noinput")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until_up(url, server)
        yield LiveSite(url, env)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
