"""The real processes of the integration tests: a Celery worker, the site on gunicorn and a Redis
of the test's own, each a subprocess on the test's PostgreSQL database, its log kept for failures."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

from bench.live_stack import free_port
from tournaments.standings.names import LIVE_ROUND

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WORKER_COMMAND = [str(BIN / "celery"), "-A", "config", "worker", "-l", "info", "--pool=solo"]
WORKER_COMMAND += ["--without-gossip", "--without-mingle", "--without-heartbeat"]


def worker_database_url() -> str:
    """DATABASE_URL with the database pytest-django created for this run."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


def site_environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": worker_database_url(), "PYTHONUNBUFFERED": "1"}
    env.pop("DJANGO_TEST_DB_NAME", None)
    env.update(extra)
    return env


class Process:
    """A subprocess whose output goes to a log file."""

    def __init__(self, command: list[str], log: Path, env: dict[str, str]) -> None:
        self.command, self.log, self.env = command, log, env
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.running:
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


class Worker(Process):
    """A `celery worker` on the test database and the given broker (and cache)."""

    def __init__(self, log: Path, broker_url: str, **extra: str) -> None:
        env = site_environment(CELERY_BROKER_URL=broker_url, **extra)
        command = [*WORKER_COMMAND, "-n", f"test-{os.getpid()}-{free_port()}@%h"]
        super().__init__(command, log, env)


class RedisServer(Process):
    """A Redis of the test's own on a free port, without persistence: killed, it forgets."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        binary = shutil.which("redis-server") or "redis-server"
        command = [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
        command += ["--appendonly", "no", "--dir", str(log.parent)]
        super().__init__(command, log, dict(os.environ))

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        super().start()
        wait_for_port(self.port, self)


class Site(Process):
    """The site as docker-compose runs it: gunicorn, production settings."""

    def __init__(self, log: Path, **extra: str) -> None:
        self.port = free_port()
        env = site_environment(
            DJANGO_PRODUCTION="true",
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY="integration-test-secret-key-" + "x" * 40,
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            **extra,
        )
        command = [str(BIN / "gunicorn"), "config.wsgi:application", "--workers", "2"]
        command += ["--bind", f"127.0.0.1:{self.port}", "--access-logfile", "-"]
        super().__init__(command, log, env)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> None:
        super().start()
        wait_for_port(self.port, self)
        # The first request imports the site in each gunicorn worker.
        for _ in range(4):
            urllib.request.urlopen(self.url("/api/v1/ping/"), timeout=30).read()


def wait_for_port(port: int, process: Process, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process.running:
            raise RuntimeError(f"{process.command[0]} exited:\n{process.tail()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout}s:\n{process.tail()}")


def stored_rounds(by_round: dict[int, list]) -> dict[int, list]:
    """What the store keeps of every round's lines: the latest round's and the live table."""
    latest = max((r for r in by_round if r != LIVE_ROUND), default=None)
    return {r: lines for r, lines in by_round.items() if r in (latest, LIVE_ROUND)}
