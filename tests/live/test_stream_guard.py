"""The stream host's guards (issue 41 items 2, 4 and 7): one address opened 5,000 streams and
every other visitor got 503; the host served the whole site and took X-Forwarded-For from
any local peer, so the registration throttle and the sign-in lockout were bypassed through
its port; half-sent headers held a connection at least 60 s."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml

from config.addresses import scope_address
from live.stream.guard import HeaderTimeoutProtocol, StreamGuard

ROOT = Path(__file__).resolve().parent.parent.parent
STANDINGS = "/stream/club/les-atouts/winter-cup/standings/live/"


class Holding:
    """A stand-in for the stream app: answers 200 and holds each stream until released."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await self.release.wait()
        await send({"type": "http.response.body", "body": b""})


def scope(path: str = STANDINGS, peer: str = "203.0.113.7", forwarded: str = "") -> dict:
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "client": (peer, 5000),
        "headers": headers,
    }


async def status_of(app: Any, request: dict) -> tuple[int, asyncio.Task]:
    """Start `request` on `app`; its status once answered, and the task holding it."""
    answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def receive() -> dict:
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start" and not answered.done():
            answered.set_result(message["status"])

    task = asyncio.create_task(app(request, receive, send))
    return await asyncio.wait_for(answered, 2), task


@pytest.fixture
def stream_host() -> Iterator[Any]:
    """config.asgi's application; importing it freezes the process's objects (a server's
    settling, config/process.py): the test process is given them back."""
    from config.asgi import application

    yield application
    gc.unfreeze()


def guarded(inner: Any, max_per_client: int = 20) -> StreamGuard:
    return StreamGuard(
        inner, prefix="/stream", max_per_client=max_per_client, address_of=scope_address
    )


def run_alone(coroutine_function):  # type: ignore[no-untyped-def]
    """`asyncio.run` in a thread of its own: a browser test before this one (in the same
    process, as pytest-xdist may arrange) leaves Playwright's event loop running in this one."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine_function())
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


def test_one_address_holds_twenty_streams_and_is_refused_the_twenty_first(settings):
    settings.PROXY_COUNT = 0

    async def run() -> None:
        inner = Holding()
        app = guarded(inner)
        held = [await status_of(app, scope()) for _ in range(20)]
        assert [status for status, _task in held] == [200] * 20
        refused, _task = await status_of(app, scope())
        assert refused == 429
        other, _task = await status_of(app, scope(peer="198.51.100.9"))
        assert other == 200
        assert inner.calls == 21
        inner.release.set()
        await asyncio.gather(*(task for _status, task in held))
        assert app.open == {"198.51.100.9": 1} or app.open == {}
        again, _task = await status_of(app, scope())
        assert again == 200

    run_alone(run)


def test_rotating_forwarded_addresses_from_a_local_peer_count_as_that_peer(settings):
    settings.PROXY_COUNT = 0  # no proxy named: X-Forwarded-For proves nothing

    async def run() -> None:
        inner = Holding()
        app = guarded(inner, max_per_client=3)
        answers = [
            (await status_of(app, scope(peer="127.0.0.1", forwarded=f"10.0.0.{n}")))[0]
            for n in range(5)
        ]
        assert answers == [200, 200, 200, 429, 429]
        inner.release.set()

    run_alone(run)


def test_behind_the_named_proxy_the_address_it_forwards_is_the_clients(settings):
    settings.PROXY_COUNT = 1

    async def run() -> None:
        inner = Holding()
        app = guarded(inner, max_per_client=1)
        first, _ = await status_of(app, scope(peer="172.18.0.5", forwarded="spoof, 203.0.113.7"))
        second, _ = await status_of(app, scope(peer="172.18.0.5", forwarded="other, 203.0.113.7"))
        third, _ = await status_of(app, scope(peer="172.18.0.5", forwarded="203.0.113.8"))
        assert (first, second, third) == (200, 429, 200)
        inner.release.set()

    run_alone(run)


def test_the_stream_host_answers_404_for_every_page_of_the_site(stream_host):
    application = stream_host

    async def run() -> list[int]:
        answers = []
        for path in (
            "/",
            "/accounts/login/",
            "/admin/login/",
            "/api/v1/auth/token/",
            "/api/v1/tournaments/1/registrations/",
            "/streamed/",
        ):
            status, _task = await status_of(application, scope(path=path))
            answers.append(status)
        return answers

    assert run_alone(run) == [404] * 6


def test_the_default_cap_is_twenty_a_setting(stream_host):
    from django.conf import settings as django_settings

    assert django_settings.STREAM_MAX_PER_CLIENT == 20
    assert stream_host.max_per_client == 20


# --- the host as compose starts it: a real uvicorn and a raw socket ---------------------------


def compose_stream_command() -> str:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return " ".join(compose["services"]["stream"]["command"].split())


def test_compose_starts_the_stream_host_with_the_guards():
    command = compose_stream_command()
    assert command.startswith("uvicorn config.asgi:application ")
    assert "--no-proxy-headers" in command.split()
    assert re.search(r"--http live\.stream\.guard:HeaderTimeoutProtocol\b", command)
    bench = (ROOT / "bench" / "live_stack.py").read_text()
    assert '"--no-proxy-headers": None' in bench
    assert '"--http": "live.stream.guard:HeaderTimeoutProtocol"' in bench


@contextlib.contextmanager
def served(app: Any, **options: Any) -> Iterator[int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", **options
        )
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


async def echo_address(scope: Any, receive: Any, send: Any) -> None:
    """Answers the peer as uvicorn gives it, and the client's address as the site reads it."""
    body = f"{scope['client'][0]} {scope_address(scope)}".encode()
    length = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": length})
    await send({"type": "http.response.body", "body": body})


AS_COMPOSE = {"proxy_headers": False, "http": "live.stream.guard:HeaderTimeoutProtocol"}


def seconds_until_closed(port: int, sent: bytes, limit: float) -> float:
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(sent)
        raw.settimeout(limit)
        started = time.monotonic()
        try:
            while raw.recv(4096):
                pass
        except TimeoutError:
            return float("inf")
        return time.monotonic() - started


def test_half_sent_headers_are_closed_within_the_header_timeout(settings):
    settings.STREAM_HEADER_TIMEOUT_SECONDS = 0.5
    with served(echo_address, **AS_COMPOSE) as port:
        waited = seconds_until_closed(port, b"GET /stream/ HTTP/1.1\r\nHost: x\r\n", limit=5)
        assert waited < 2.0
        # And after a whole request, a second one left half-sent.
        request = b"GET /stream/ HTTP/1.1\r\nHost: x\r\n\r\nGET /stream/ HTTP/1.1\r\n"
        assert seconds_until_closed(port, request, limit=5) < 2.0


def test_a_whole_request_is_answered_before_the_timeout(settings):
    settings.STREAM_HEADER_TIMEOUT_SECONDS = 0.5
    with (
        served(echo_address, **AS_COMPOSE) as port,
        socket.create_connection(("127.0.0.1", port)) as raw,
    ):
        raw.sendall(b"GET /stream/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        raw.settimeout(5)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200")


def test_uvicorn_as_compose_runs_it_does_not_take_forwarded_addresses_itself(settings):
    settings.PROXY_COUNT = 0
    with (
        served(echo_address, **AS_COMPOSE) as port,
        socket.create_connection(("127.0.0.1", port)) as raw,
    ):
        raw.sendall(
            b"GET /stream/ HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.8.7\r\n"
            b"Connection: close\r\n\r\n"
        )
        raw.settimeout(5)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
        assert answer.endswith(b"\r\n\r\n127.0.0.1 127.0.0.1")
    with served(echo_address) as port, socket.create_connection(("127.0.0.1", port)) as raw:
        # uvicorn's default, as the host ran before: the header rewrote the peer.
        raw.sendall(
            b"GET /stream/ HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.8.7\r\n"
            b"Connection: close\r\n\r\n"
        )
        raw.settimeout(5)
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
        assert answer.endswith(b"\r\n\r\n10.9.8.7 10.9.8.7")


def test_the_protocol_is_uvicorns_default_parser_with_the_timeout():
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    assert issubclass(HeaderTimeoutProtocol, HttpToolsProtocol)
