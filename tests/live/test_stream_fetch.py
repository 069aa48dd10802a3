"""How a stream host fetches a region from the web tier: under a host name the site trusts
(never the visitor's), as the HTTPS request it stands for (DJANGO_SSL_REDIRECT answers a
plain one 301), in the listener's language; and the web tier answers that request."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gzip

import httpx
import pytest
from django.core.cache import cache
from django.urls import reverse

from live.stream.app import StreamApp, trusted_host
from live.stream.hub import Topic
from live.stream.paths import topic_of
from tests.tournaments.pages.pages_world import build_world

ARGS = ["les-atouts", "winter-cup"]


def run(coroutine):  # type: ignore[no-untyped-def]
    # A thread of its own: a browser test may leave an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def stream_request(region: str, host: bytes, lang: str = "en") -> dict:
    return {
        "type": "http",
        "method": "GET",
        "path": f"/stream/clubs/les-atouts/winter-cup/{region}/live/",
        "query_string": f"v=&lang={lang}".encode(),
        "headers": [(b"host", host), (b"accept-encoding", b"gzip")],
    }


def fetched(app: StreamApp, topic: Topic) -> httpx.Request:
    """The request the host sends the web tier for `topic`."""
    seen: list[httpx.Request] = []

    def web(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    async def fetch() -> None:
        app.transport = httpx.MockTransport(web)
        app._client = app.client()
        try:
            await app._fetch(topic)
        finally:
            await app._client.aclose()

    run(fetch())
    return seen[0]


@pytest.mark.parametrize(
    ("origin", "allowed", "debug", "host"),
    [
        # The origin as the stream hosts reach it, when the site answers to it.
        ("http://127.0.0.1:8141", ["127.0.0.1", "localhost"], False, "127.0.0.1:8141"),
        ("http://web:8000", ["belote.example.org", "web"], False, "web:8000"),
        # Compose's `http://web:8000`, which the site does not answer to: its first name.
        (
            "http://web:8000",
            ["belote.example.org", "www.belote.example.org"],
            False,
            "belote.example.org",
        ),
        ("http://web:8000", [".belote.example.org"], False, "belote.example.org"),
        ("http://web:8000", ["*", "belote.example.org"], False, "web:8000"),
        # Development: Django answers localhost with no ALLOWED_HOSTS.
        ("http://localhost:8000", [], True, "localhost:8000"),
    ],
)
def test_the_host_fetched_under_is_one_the_site_answers_to(origin, allowed, debug, host):
    assert trusted_host(origin, allowed, debug) == host


def test_a_visitors_host_header_never_reaches_the_web_tier():
    """One held-open stream with a bogus Host used to make every fetch of its region answer
    400 (DisallowedHost), for every page that watched it."""
    app = StreamApp("http://web:8000", "", host="belote.example.org")
    bogus, _ = topic_of(stream_request("standings", b"evil.example"))
    request = fetched(app, bogus)
    assert request.headers["host"] == "belote.example.org"
    assert request.url.host == "web" and request.url.port == 8000


def test_a_fetch_stands_for_an_https_request_in_the_listeners_language():
    app = StreamApp("http://web:8000", "", host="belote.example.org")
    topic, _ = topic_of(stream_request("schedule", b"belote.example.org", lang="fi"))
    request = fetched(app, topic)
    assert request.headers["x-forwarded-proto"] == "https"
    assert request.headers["cookie"] == "django_language=fi"
    assert request.headers["accept-language"] == "fi"


def test_the_host_defaults_to_the_sites_allowed_hosts(settings):
    settings.ALLOWED_HOSTS = ["belote.example.org"]
    assert StreamApp("http://web:8000", "").host == "belote.example.org"


@pytest.mark.django_db
@pytest.mark.parametrize("region", ["standings", "schedule"])
def test_the_web_tier_answers_the_stream_hosts_fetch_behind_an_ssl_redirect(
    client, settings, region
):
    """As production runs it: DJANGO_SSL_REDIRECT on, a public host name only, the stream
    host reaching the web tier by another name over plain http. Every fetch used to answer
    301, so no streamed page ever updated."""
    settings.ALLOWED_HOSTS = ["belote.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    cache.clear()
    build_world()
    app = StreamApp("http://web:8000", "")
    topic, _ = topic_of(stream_request(region, b"evil.example", lang="fr"))
    request = fetched(app, topic)

    # The same request, answered by the site.
    headers = {name: value for name, value in request.headers.items() if name != "cookie"}
    client.cookies["django_language"] = topic.language
    answer = client.get(request.url.path, dict(request.url.params), headers=headers)
    assert answer.status_code == 200
    assert answer["Content-Language"] == "fr"
    body = answer.content
    if answer.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    assert b"data-version=" in body
    assert reverse(f"tournaments:{region}_live", args=ARGS) == request.url.path
    # A plain one, as the host used to send: redirected, which the hub cannot use.
    plain = client.get(request.url.path, headers={"host": "belote.example.org"})
    assert plain.status_code == 301
    cache.clear()
