"""The OpenAPI schema validates, the docs are served without a CDN, and schemathesis finds no
5xx and no response that disagrees with the schema (every operation, as a director)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import schemathesis
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, checks
from schemathesis.specs.openapi import checks as openapi_checks

from club.models import ApiToken, Membership
from club.tokens import issue_own_token
from tests.factories import ClubFactory, MatchFactory, TournamentFactory, make_staff

from .conftest import MADE, client_for, deals_url

pytestmark = pytest.mark.django_db


def test_the_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))


def test_the_schema_is_served_with_every_resource_and_deal_examples(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    for path in [
        "/api/v1/clubs/",
        "/api/v1/players/{id}/ratings/",
        "/api/v1/clubs/{id}/rankings/",
        "/api/v1/tournaments/{id}/standings/",
        "/api/v1/tournaments/{id}/schedule/",
        "/api/v1/matches/{match_pk}/deals/",
        "/api/v1/matches/{match_pk}/deals/{number}/",
        "/api/v1/matches/{id}/audit/",
        "/api/v1/tokens/",
    ]:
        assert path in paths, path
    create = paths["/api/v1/matches/{match_pk}/deals/"]["post"]
    assert "A thrown-in deal" in str(
        create["requestBody"]["content"]["application/json"]["examples"]
    )
    assert create["responses"]["400"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert any(p["name"] == "Idempotency-Key" for p in create["parameters"])


def test_the_docs_page_serves_its_assets_itself(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    external = re.findall(r"""(?:src|href)=["'](https?://[^"']+)""", page)
    assert external == []
    assert "cdn." not in page and "unpkg" not in page and "jsdelivr" not in page
    assets = re.findall(r"""(?:src|href)=["']/static/([^"'?]+)""", page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    for asset in assets:
        # Served by WhiteNoise from the collected files: each must be found by the finders.
        assert finders.find(asset), asset


@pytest.fixture
def director_token():  # type: ignore[no-untyped-def]
    """A small world with ids from 1, so generated ids often find something real."""
    club = ClubFactory()
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    tournament = TournamentFactory(club=club, rules={"max_deals": 3})
    for _ in range(2):
        match = MatchFactory(round__tournament=tournament, tournament=tournament, referee=referee)
    client_for(referee).post(deals_url(match), MADE, format="json")
    TournamentFactory(club=club, is_public=False)
    issued = issue_own_token(by=director)
    # Out of reach of the small ids generated for DELETE /me/tokens/{id}/: the run must not
    # revoke the very token it calls with.
    ApiToken.objects.filter(pk=issued.token.pk).update(id=10**9)
    return issued.key


CHECKS = [
    checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]


@pytest.fixture
def _connections_kept_open(director_token):  # type: ignore[no-untyped-def]
    """Schemathesis calls the WSGI application directly; like Django's test client, keep it
    from closing the test's database connection at the end of each request. (After the
    world is built: the test client reconnects these receivers after each of its requests.)"""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.usefixtures("_connections_kept_open")
def test_every_operation_answers_as_documented_and_never_fails(director_token):  # type: ignore[no-untyped-def]
    """Schemathesis over all operations, positive and negative cases, as a director.

    The schema is loaded inside the test (not at collection) because it is served by the
    application, which needs the test database.
    """
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    headers = {"Authorization": f"Token {director_token}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30
    seen: Counter[int] = Counter()
    modes: Counter[str] = Counter()

    for operation in operations:

        @given(
            case=st.one_of(
                operation.as_strategy(GenerationMode.POSITIVE),
                operation.as_strategy(GenerationMode.NEGATIVE),
            )
        )
        @settings(
            max_examples=20,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
        )
        def run(case):  # type: ignore[no-untyped-def]
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            seen[response.status_code // 100] += 1
            modes[str(case.meta.generation.mode) if case.meta else "explicit"] += 1

        run()
    # Real answers, not only refusals, and both kinds of generated input.
    assert seen[2] > 20 and seen[4] > 20, seen
    assert ApiToken.objects.get(pk=10**9).revoked_at is None
    assert len(modes) >= 2, modes


@pytest.fixture
def served_schema(client):  # type: ignore[no-untyped-def]
    return client.get("/api/schema/", HTTP_ACCEPT="application/json").json()


def test_the_schema_says_how_to_obtain_each_credential(served_schema):
    schemes = served_schema["components"]["securitySchemes"]
    assert set(schemes) == {"tokenAuth", "cookieAuth"}
    token = schemes["tokenAuth"]
    assert (token["type"], token["in"], token["name"]) == ("apiKey", "header", "Authorization")
    for step in ["POST /api/v1/auth/token/", "POST /api/v1/tokens/", "Token <key>"]:
        assert step in token["description"], step
    assert "X-CSRFToken" in schemes["cookieAuth"]["description"]
    assert "POST /api/v1/auth/token/" in served_schema["info"]["description"]
    # Signing in needs no credential of its own.
    assert "security" not in served_schema["paths"]["/api/v1/auth/token/"]["post"]


def test_every_error_status_of_every_operation_has_an_example_of_its_codes(served_schema):
    counted = 0
    for operations in served_schema["paths"].values():
        for method, operation in operations.items():
            for status in ["400", "401", "403", "404", "429"] + (
                ["409", "415"] if method != "get" else []
            ):
                media = operation["responses"][status]["content"]["application/json"]
                assert media["schema"] == {"$ref": "#/components/schemas/Error"}
                examples = media["examples"].values()
                assert examples and all(set(e["value"]) == {"errors", "code"} for e in examples)
                counted += 1
    assert counted > 200
    conflicts = served_schema["paths"]["/api/v1/matches/{match_pk}/deals/"]["post"]["responses"]
    codes = {
        e["value"]["code"]
        for e in conflicts["409"]["content"]["application/json"]["examples"].values()
    }
    assert {"conflict", "match_over", "match_closed"} <= codes


def test_the_deal_entry_is_documented_with_the_rule_books_worked_examples(served_schema):
    from pathlib import Path

    from scoring.rulebook import worked_examples

    book = worked_examples(Path(__file__).resolve().parents[2] / "docs" / "rules.md")
    assert len(book) == 14
    create = served_schema["paths"]["/api/v1/matches/{match_pk}/deals/"]["post"]
    examples = create["requestBody"]["content"]["application/json"]["examples"]
    documented = [e["value"] for e in examples.values() if "example" in e.get("summary", "")]
    assert documented == [worked.deal for worked in book]
    assert any("capot" in e["summary"] for e in examples.values())
    refused = create["responses"]["400"]["content"]["application/json"]["examples"]
    assert refused["ARefusedDeal"]["value"]["errors"]["taker"] == [
        "Unknown seat 'X': use N, E, S or W."
    ]


def test_ids_in_paths_are_integers(served_schema):
    kinds = {
        parameter["name"]: parameter["schema"]["type"]
        for operations in served_schema["paths"].values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "path"
    }
    # A score pad's private key is its credential, not an id.
    assert kinds.pop("key") == "string"
    assert set(kinds.values()) == {"integer"}
