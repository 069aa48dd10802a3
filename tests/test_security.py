"""Sign-in lockout, API throttles, the client's address behind proxies, the Content Security
Policy, HSTS, and `check --deploy` with the production settings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from club.tokens import issue_own_token
from config.addresses import client_address
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def director():  # type: ignore[no-untyped-def]
    user = UserFactory(username="director", is_staff=True, is_superuser=True)
    user.set_password(PASSWORD)
    user.save()
    return user


def sign_in(client, password: str, username: str = "director", url: str = "/accounts/login/"):  # type: ignore[no-untyped-def]
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR="203.0.113.7")


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_five_wrong_passwords_lock_the_account_even_for_the_right_one(client, director, url):
    answers = [sign_in(client, "wrong", url=url).status_code for _ in range(5)]
    assert answers == [200, 200, 200, 200, 429]  # the form again, then the lockout
    locked = sign_in(client, PASSWORD, url=url)

    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_api_sign_in_is_locked_out_too_with_the_apis_error_body(director):
    client = APIClient(REMOTE_ADDR="203.0.113.8")
    answers = [
        client.post("/api/v1/auth/token/", {"username": "director", "password": p}, format="json")
        for p in ["wrong"] * 5 + [PASSWORD]
    ]
    assert [a.status_code for a in answers[:4]] != [429] * 4
    locked = answers[-1]
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert "15 minutes" in locked.json()["errors"]["detail"][0]


def test_a_lockout_holds_per_address_across_accounts(client, director):
    for number in range(5):
        sign_in(client, "wrong", username=f"guess{number}")
    assert sign_in(client, PASSWORD).status_code == 429


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_someone_elses_failures_do_not_lock_the_owner_out_from_their_own_address(
    client, director, url
):
    """Issue 28 item 12: a lockout by username alone let anyone lock a known user out."""
    attacker = [
        client.post(url, {"username": "director", "password": "guess"}, REMOTE_ADDR="192.0.2.66")
        for _ in range(6)
    ]
    assert attacker[-1].status_code == 429
    owner = client.post(
        url, {"username": "director", "password": PASSWORD}, REMOTE_ADDR="198.51.100.20"
    )
    assert owner.status_code == 302
    # The attacker's address stays locked, even with the right password.
    client.logout()
    again = client.post(
        url, {"username": "director", "password": PASSWORD}, REMOTE_ADDR="192.0.2.66"
    )
    assert again.status_code == 429


def test_someone_elses_failures_do_not_lock_the_owner_out_of_the_api(director):
    attacker = APIClient(REMOTE_ADDR="192.0.2.67")
    for _ in range(6):
        attacker.post(
            "/api/v1/auth/token/", {"username": "director", "password": "x"}, format="json"
        )
    owner = APIClient(REMOTE_ADDR="198.51.100.21").post(
        "/api/v1/auth/token/", {"username": "director", "password": PASSWORD}, format="json"
    )
    assert owner.status_code == 201


def test_the_right_password_before_the_limit_signs_in(client, director):
    for _ in range(4):
        sign_in(client, "wrong")
    assert sign_in(client, PASSWORD).status_code == 302


def test_the_client_address_ignores_forwarded_headers_without_a_proxy(settings):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.9"
    )
    settings.PROXY_COUNT = 0
    assert client_address(request) == "10.0.0.2"
    settings.PROXY_COUNT = 1  # one TLS proxy: the address it saw, not what the client wrote
    assert client_address(request) == "198.51.100.9"
    settings.PROXY_COUNT = 2
    assert client_address(request) == "1.2.3.4"


@pytest.fixture
def low_rates(settings):  # type: ignore[no-untyped-def]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "4/min", "token": "5/min"},
    }


def statuses(client, count: int) -> list[int]:  # type: ignore[no-untyped-def]
    return [client.get("/api/v1/clubs/").status_code for _ in range(count)]


def test_anonymous_readers_are_throttled_per_address(low_rates):
    client = APIClient(REMOTE_ADDR="198.51.100.1")
    assert statuses(client, 4) == [200, 200, 200, 429]
    refused = client.get("/api/v1/clubs/")
    assert refused.json()["code"] == "throttled" and "Retry-After" in refused
    assert statuses(APIClient(REMOTE_ADDR="198.51.100.2"), 1) == [200]  # another address


def test_signed_in_users_and_tokens_have_rates_of_their_own(low_rates, director):
    session = APIClient()
    session.force_login(director)
    assert statuses(session, 5) == [200] * 4 + [429]
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {issue_own_token(by=director).key}")
    assert statuses(device, 6) == [200] * 5 + [429]


# --- the Content Security Policy and HSTS -------------------------------------------------------


def test_every_page_carries_a_content_security_policy_without_inline_code(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    # WebAssembly may be compiled (the engine on the phone), JavaScript never evaluated.
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert directives["worker-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy.replace("'wasm-unsafe-eval'", "")


def test_no_template_needs_inline_script_style_or_handlers():
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|\sstyle\s*=|<style\b|javascript:", re.I
    )
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in inline.finditer(path.read_text())
    ]
    assert offenders == []


def test_the_api_docs_page_loads_its_script_from_a_file_and_may_only_add_styles(client):
    response = client.get("/api/docs/")
    page = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>\s*\S", page)
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy + ";"
    assert "style-src 'self' 'unsafe-inline'" in policy


def production_check(**extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DJANGO_PRODUCTION": "true",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "a-long-random-production-key-" + "k7Qz" * 10,
        "DJANGO_ALLOWED_HOSTS": "belote.example.org",
        "DATABASE_URL": "sqlite:///:memory:",
        **extra,
    }
    # Set by other tests (the browser tests), never in a deployment.
    for name in ("DJANGO_SECURE_COOKIES", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_leaves_only_what_the_tls_proxy_handles():
    result = production_check()
    warnings = set(re.findall(r"\((security\.\w+)\)", result.stdout + result.stderr))
    # W004: HSTS (opt-in: DJANGO_HSTS_SECONDS), W008: the http→https redirect (the proxy's).
    assert warnings == {"security.W004", "security.W008"}, result.stdout + result.stderr


def test_with_hsts_and_the_redirect_turned_on_check_deploy_is_clean():
    result = production_check(
        DJANGO_HSTS_SECONDS="31536000",
        DJANGO_HSTS_INCLUDE_SUBDOMAINS="true",
        DJANGO_HSTS_PRELOAD="true",
        DJANGO_SSL_REDIRECT="true",
    )
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def test_hsts_is_sent_when_turned_on(client, settings):
    settings.SECURE_HSTS_SECONDS = 3600
    response = client.get(reverse("home"), secure=True)
    assert response["Strict-Transport-Security"] == "max-age=3600"
