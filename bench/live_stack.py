"""The processes the live bench starts and stops: its own Redis, gunicorn, Celery workers.

Each runs in a process group of its own, so that stopping it reaches its children
(gunicorn's and Celery's workers) and nothing else; `stop` runs on every exit, Ctrl-C
included. The bench's PostgreSQL database is created afresh and dropped here too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REDIS_PORT = 6400
WEB_PORTS = range(8141, 8150)
DATABASE = "bench_live"


def port_is_free(port: int) -> bool:
    """Nothing listens there (a socket of a run just ended, in TIME_WAIT, does not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_web_port() -> int:
    port = next((p for p in WEB_PORTS if port_is_free(p)), None)
    if port is None:
        raise SystemExit(f"no free port in {WEB_PORTS.start}–{WEB_PORTS.stop - 1}")
    return port


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released for the caller)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fresh_database(admin_url: str, name: str = DATABASE) -> None:
    """Drop and create the bench's PostgreSQL database `name` (on the server of `admin_url`),
    so every run starts from the same state."""
    import psycopg

    # It is dropped: refuse any database that is not obviously a bench's own.
    if "bench" not in name:
        raise SystemExit(f"refusing to drop {name!r}: the bench database's name must say bench")
    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(admin_url: str, name: str = DATABASE) -> None:
    import psycopg

    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _flat(options: dict[str, object]) -> list[str]:
    """Command-line options from a dict; a value of None is a flag alone."""
    return [str(part) for option in options.items() for part in option if part is not None]


class Stack:
    """The processes the bench started, each in a session of its own, stopped on exit."""

    def __init__(self, logs: Path, env: dict[str, str]) -> None:
        self.logs = logs
        self.env = env
        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        with open(self.logs / f"{name}.log", "wb") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append((name, process))
        return process

    def start_redis(self) -> None:
        if not port_is_free(REDIS_PORT):
            raise SystemExit(f"port {REDIS_PORT} is taken: the bench starts its own Redis there")
        server = shutil.which("redis-server") or "redis-server"
        options = ["--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--dir", str(self.logs)]
        # Nothing to keep: no snapshot, no append-only file.
        self.start("redis", [server, *options, "--save", "", "--appendonly", "no"])
        import redis

        self.wait_for(lambda: redis.Redis(port=REDIS_PORT).ping(), "redis", seconds=15)

    def start_web(self, port: int, workers: int, threads: int) -> str:
        """gunicorn on `port`; returns its base URL once it answers."""
        options = {
            "--bind": f"127.0.0.1:{port}",
            "--workers": workers,
            "--threads": threads,
            "--backlog": 4096,
            "--log-level": "warning",
            # Longer than the pages' poll, as a proxy in front would keep them.
            "--keep-alive": 10,
        }
        self.start("gunicorn", [sys.executable, "-m", "gunicorn", "config.wsgi", *_flat(options)])
        base_url = f"http://127.0.0.1:{port}"
        import httpx

        self.wait_for(lambda: httpx.get(f"{base_url}/api/v1/ping/").status_code == 200, "gunicorn")
        return base_url

    def start_stream(self, port: int) -> str:
        """A stream host (uvicorn, config.asgi) on `port`; its base URL once it answers. It
        fetches the regions from BELOTE_LIVE_STREAM_ORIGIN, which the env must name."""
        options = {
            "--host": "127.0.0.1",
            "--port": port,
            "--backlog": 4096,
            "--log-level": "warning",
            "--no-access-log": None,
            # As compose runs it (config/asgi.py): the site's notion of the client's address.
            "--no-proxy-headers": None,
            "--http": "live.stream.guard:HeaderTimeoutProtocol",
        }
        command = [sys.executable, "-m", "uvicorn", "config.asgi:application"]
        self.start("uvicorn", [*command, *_flat(options)])
        base_url = f"http://127.0.0.1:{port}"
        import httpx

        self.wait_for(lambda: httpx.get(f"{base_url}/stream/").status_code == 404, "uvicorn")
        return base_url

    def start_workers(self, count: int, concurrency: int) -> None:
        """`count` Celery worker processes, each with `concurrency` pool processes."""
        for n in range(1, count + 1):
            options = {"-n": f"bench-live-{n}@%h", "--concurrency": concurrency, "-l": "info"}
            # bench.live_worker: `celery` with each task run logged (recompute_times reads them).
            worker = [sys.executable, "-m", "bench.live_worker"]
            command = [*worker, "-A", "config", "worker", *_flat(options)]
            self.start(f"celery{n}", [*command, "--without-gossip", "--without-mingle"])
        for n in range(1, count + 1):
            log = self.logs / f"celery{n}.log"
            self.wait_for(lambda log=log: b" ready." in log.read_bytes(), f"celery worker {n}")

    def wait_for(self, check: Callable[[], object], what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check()
            with contextlib.suppress(Exception):
                if check():
                    return
            time.sleep(0.2)
        raise SystemExit(f"{what} not ready within {seconds:.0f} s; logs in {self.logs}")

    def check(self) -> None:
        for name, process in self.processes:
            if process.poll() is not None:
                raise SystemExit(f"{name} exited early; see {self.logs / (name + '.log')}")

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time (user + system) used so far by each process group we started, and by
        the PostgreSQL backends serving the bench's database."""
        tick = os.sysconf("SC_CLK_TCK")
        used = {name: 0.0 for name, _process in self.processes}
        used["postgresql"] = 0.0
        groups = {process.pid: name for name, process in self.processes}
        for folder in Path("/proc").glob("[0-9]*"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (folder / "stat").read_text().rsplit(")", 1)[1].split()
                name = groups.get(int(fields[2]))  # the process group
                if name is None and DATABASE.encode() in (folder / "cmdline").read_bytes():
                    name = "postgresql"  # a backend serving the bench's database
                if name is not None:
                    used[name] += (int(fields[11]) + int(fields[12])) / tick
        return used

    def stop(self) -> None:
        """SIGTERM to each process group we started, then SIGKILL to whatever is still
        there after a few seconds."""
        for _name, process in reversed(self.processes):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for _name, process in reversed(self.processes):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.processes.clear()
