"""The engine on the phone (docs/offline.md): what a first visit to the score pad downloads,
compressed, and how long until the engine answers on an emulated mid-range phone, on the first
visit and on the second (from the caches).

Run: .venv/bin/python bench/engine_start.py   (after `make install`, which runs npm; needs
/usr/bin/chromium). Options: --cpu 4 (CPU slowdown), --down-kbps 1600, --up-kbps 750,
--rtt-ms 150 (Chrome's "Fast 3G"), --runs 3.

The site runs as in production: `collectstatic` with whitenoise's compressed storage (gzip; and
brotli where the `brotli` package is installed), gunicorn. Between Chromium and gunicorn sits
a small proxy that holds each direction's bytes for half the round trip and shares the
bandwidth between connections, so the page's worker (whose requests the browser's own network
emulation does not reach) is slowed as the page is; it also counts the bytes on the wire, which
is the download figure. The CPU slowdown is Chromium's (Emulation.setCPUThrottlingRate).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring import bundle  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Link:
    """One direction of the phone's network: a shared bandwidth, and half the round trip."""

    def __init__(self, bytes_per_second: float, delay: float) -> None:
        self.rate = bytes_per_second
        self.delay = delay
        self.free_at = 0.0
        self.bytes = 0

    def due(self, now: float, size: int) -> float:
        start = max(now + self.delay, self.free_at)
        self.free_at = start + size / self.rate
        self.bytes += size
        return self.free_at


async def _pipe(reader: Any, writer: Any, link: Link) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

    async def send() -> None:
        while (item := await queue.get()) is not None:
            due, data = item
            await asyncio.sleep(max(0.0, due - loop.time()))
            writer.write(data)
            await writer.drain()
        with contextlib.suppress(Exception):
            writer.close()

    sender = asyncio.create_task(send())
    try:
        while data := await reader.read(16_384):
            queue.put_nowait((link.due(loop.time(), len(data)), data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait(None)
    with contextlib.suppress(Exception):
        await sender


class Proxy(threading.Thread):
    def __init__(self, port: int, target: int, down: Link, up: Link) -> None:
        super().__init__(daemon=True)
        self.port, self.target, self.down, self.up = port, target, down, up
        self.ready = threading.Event()

    async def _client(self, reader: Any, writer: Any) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            _pipe(reader, server_writer, self.up), _pipe(server_reader, writer, self.down)
        )

    def run(self) -> None:
        async def main() -> None:
            server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
            self.ready.set()
            async with server:
                await server.serve_forever()

        asyncio.run(main())


def production_env(database: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_COOKIES": "0",
        "DATABASE_URL": f"sqlite:///{database}",
    }


def collect(env: dict[str, str]) -> None:
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "build_engine_bundle"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def compressed_sizes(found: dict[str, Any]) -> list[tuple[str, int, int, int | None]]:
    """Each engine file: its size, gzip's and brotli's as whitenoise stored them."""
    static_root = ROOT / "staticfiles"
    rows = []
    for name in [*found["files"], found["bundle"]]:
        path = static_root / name
        gz = path.with_name(path.name + ".gz")
        br = path.with_name(path.name + ".br")
        rows.append(
            (
                name,
                path.stat().st_size,
                gz.stat().st_size if gz.exists() else path.stat().st_size,
                br.stat().st_size if br.exists() else None,
            )
        )
    return rows


def visit(page: Any, url: str) -> dict[str, float]:
    page.goto(url)
    page.wait_for_function(
        "() => document.documentElement.getAttribute('data-engine') === 'ready'",
        timeout=600_000,
    )
    return page.evaluate(
        """() => ({
          usable: Math.round(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd),
          ready: window.beloteEngine.readyAt,
          start: window.beloteEngine.startMs,
        })"""
    )


def run(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    env = production_env(work / "bench.sqlite3")
    collect(env)
    found = bundle.built()
    assert found is not None, "no Pyodide in node_modules/: run `npm ci` (make install)"
    app_port, proxy_port = free_port(), free_port()
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{app_port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", app_port)):
                break
            time.sleep(0.1)
        down = Link(args.down_kbps * 1000 / 8, args.rtt_ms / 2000)
        up = Link(args.up_kbps * 1000 / 8, args.rtt_ms / 2000)
        proxy = Proxy(proxy_port, app_port, down, up)
        proxy.start()
        proxy.ready.wait()
        url = f"http://127.0.0.1:{proxy_port}/pad/"
        first, second, first_bytes, second_bytes = [], [], [], []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 360, "height": 740})
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                before = down.bytes
                first.append(visit(page, url))
                # Let the service worker keep the engine (from the browser's cache) first.
                page.wait_for_timeout(3_000)
                first_bytes.append(down.bytes - before)
                page.close()
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                before = down.bytes
                second.append(visit(page, url))
                second_bytes.append(down.bytes - before)
                context.close()
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    print(
        f"Pyodide {found['pyodide_version']}, engine {found['version']}; CPU ×{args.cpu}, "
        f"{args.down_kbps} kbit/s down, {args.up_kbps} up, {args.rtt_ms} ms round trip; "
        f"{args.runs} run(s), median"
    )
    print("\nThe engine's files as served (bytes): file, raw, gzip, brotli")
    print("(a zip is served as it is: whitenoise does not compress it again)")
    total = [0, 0, 0]
    for name, raw, gz, br in compressed_sizes(found):
        brotli = raw if br is None and name.endswith(".zip") else br
        shown = f"{brotli:,}" if brotli is not None else "-"
        print(f"  {name:48} {raw:>10,} {gz:>10,} {shown:>10}")
        total[0] += raw
        total[1] += gz
        total[2] += brotli if brotli is not None else gz
    print(f"  {'together':48} {total[0]:>10,} {total[1]:>10,} {total[2]:>10,}")

    def median(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rows) / 1000

    for name, rows, sent in (("first", first, first_bytes), ("second", second, second_bytes)):
        print(
            f"\n{name} visit: {statistics.median(sent):,.0f} bytes on the wire (whole page); "
            f"page usable at {median(rows, 'usable'):.1f} s, engine ready at "
            f"{median(rows, 'ready'):.1f} s ({median(rows, 'start'):.1f} s from the worker's start)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", type=float, default=4)
    parser.add_argument("--down-kbps", type=float, default=1600)
    parser.add_argument("--up-kbps", type=float, default=750)
    parser.add_argument("--rtt-ms", type=float, default=150)
    parser.add_argument("--runs", type=int, default=3)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
