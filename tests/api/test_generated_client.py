"""A Python client generated from the served schema by openapi-python-client, with no hand
fixes, plays a small tournament against a live site: sign in, found a club, register,
draw, make a referee, enter deals from the referee's device, read the standings."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from .live_site import VENV_BIN, LiveSite, live_site

ADMIN_PASSWORD = "site-admin-of-the-evening"
DIRECTOR_PASSWORD = "director-of-the-evening"
PACKAGE = "belote_api_client"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    with live_site(tmp_path_factory.mktemp("client-site")) as running:
        running.manage(
            "createsuperuser",
            "--noinput",
            "--username=root",
            "--email=root@example.org",
            DJANGO_SUPERUSER_PASSWORD=ADMIN_PASSWORD,
        )
        yield running


@pytest.fixture(scope="module")
def client_package(site: LiveSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The generated package, imported; `generator_output` is what the generator printed."""
    folder = tmp_path_factory.mktemp("client")
    schema = folder / "belote.json"
    with urllib.request.urlopen(f"{site.url}/api/schema/?format=json", timeout=10) as answer:
        schema.write_bytes(answer.read())
    config = folder / "config.json"
    config.write_text(json.dumps({"project_name_override": PACKAGE, "post_hooks": []}))
    done = subprocess.run(
        [
            str(VENV_BIN / "openapi-python-client"),
            "generate",
            f"--path={schema}",
            f"--config={config}",
            "--meta=none",
            f"--output-path={folder / PACKAGE}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module(PACKAGE)
        package.generator_output = done.stdout + done.stderr
        yield package
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def endpoint(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.api.v1.{name}")


def model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{package.__name__}.models"), name)


def test_the_schema_generates_a_client_without_a_warning(client_package):
    output = client_package.generator_output
    assert "Warning" not in output and "Unable" not in output and "Error" not in output, output


def test_the_generated_client_plays_a_small_tournament(site, client_package):
    pkg = client_package

    def call(operation: str, /, **arguments: Any) -> Any:
        return endpoint(pkg, operation).sync(**arguments)

    anonymous = pkg.Client(base_url=site.url, raise_on_unexpected_status=True)

    def signed_in(username: str, password: str) -> Any:
        body = model(pkg, "SignInRequest")(username=username, password=password, name="client")
        issued = call("v1_auth_token_create", client=anonymous, body=body)
        assert isinstance(issued, model(pkg, "NewToken")), issued
        return pkg.AuthenticatedClient(base_url=site.url, token=issued.key, prefix="Token")

    admin = signed_in("root", ADMIN_PASSWORD)
    assert call("v1_me_retrieve", client=admin).is_site_admin is True

    founding = model(pkg, "ClubCreateRequest").from_dict(
        {
            "name": "Cercle de Lille",
            "city": "Lille",
            "director": {
                "username": "sophie",
                "name": "Sophie Bernard",
                "password": DIRECTOR_PASSWORD,
            },
        }
    )
    club = call("v1_clubs_create", client=admin, body=founding)
    assert club.slug == "cercle-de-lille" and club.director.username == "sophie"

    director = signed_in("sophie", DIRECTOR_PASSWORD)
    me = call("v1_me_retrieve", client=director)
    assert [(c.name, c.role.value) for c in me.clubs] == [("Cercle de Lille", "director")]

    tournament = call(
        "v1_tournaments_create",
        client=director,
        body=model(pkg, "TournamentWriteRequest").from_dict(
            {
                "club": club.id,
                "name": "Mardi",
                "slug": "mardi",
                "starts_on": "2027-02-02",
                "rules": {"max_deals": 1},
                "is_public": True,
            }
        ),
    )
    teams = call(
        "v1_tournaments_teams_create",
        id=tournament.id,
        client=director,
        body=model(pkg, "TeamCreateRequest")(
            text="Nord: Anne Petit & Paul Roux\nSud: Jean Blanc & Lea Noir\nEst: Marc Brun & Sara Vert"
        ),
    )
    assert [team.seed for team in teams] == [1, 2, 3]
    status = model(pkg, "StatusRequest").from_dict({"status": "running"})
    assert call("v1_tournaments_status_create", id=tournament.id, client=director, body=status)
    schedule = call(
        "v1_tournaments_schedule_create",
        id=tournament.id,
        client=director,
        body=model(pkg, "GenerateScheduleRequest")(draw_lots=False),
    )
    matches = [m for r in schedule.rounds for m in r.matches if not m.is_bye]
    assert len(schedule.rounds) == 3 and len(matches) == 3  # three teams: a bye each round

    referee = call(
        "v1_clubs_referees_create",
        id=club.id,
        client=director,
        body=model(pkg, "RefereeCreateRequest")(name="Bernard Lefevre"),
    )
    found = call("v1_clubs_members_list", id=club.id, client=director, name="lefevre")
    assert [m.user.id for m in found.results] == [referee.user.id]
    device_token = call(
        "v1_tokens_create",
        client=director,
        body=model(pkg, "RefereeTokenRequest")(user=referee.user.id, name="phone"),
    )
    phone = pkg.AuthenticatedClient(base_url=site.url, token=device_token.key, prefix="Token")

    # North–South take and make it, 98 card points and belote: the rule book's example 1.
    made = model(pkg, "DealEntryRequest").from_dict(
        {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
    )
    for match in matches:
        call(
            "v1_matches_referee_create",
            id=match.id,
            client=director,
            body=model(pkg, "RefereeAssignmentRequest")(referee=referee.user.id),
        )
        deal = call(
            "v1_matches_deals_create",
            match_pk=match.id,
            client=phone,
            body=made,
            idempotency_key=f"match-{match.id}",
        )
        assert deal.number == 1
        assert deal.result.outcome.value == "made"
        assert deal.result.score.additional_properties == {"NS": 118, "EW": 64}

    refused = call(
        "v1_matches_deals_create",
        match_pk=matches[0].id,
        client=phone,
        body=model(pkg, "DealEntryRequest").from_dict({"taker": None}),
    )
    assert isinstance(refused, model(pkg, "Error")) and refused.code == "match_over"
    closing = call("v1_rounds_close_create", id=schedule.rounds[0].id, client=phone)
    assert isinstance(closing, model(pkg, "Error")) and closing.code == "forbidden"

    standings = call("v1_tournaments_standings_retrieve", id=tournament.id, client=anonymous)
    assert standings.after_round == 3 and standings.up_to_date is True
    assert sorted(line.match_points for line in standings.results) == [2, 2, 2]
    assert sum(line.points_for for line in standings.results) == 3 * (118 + 64)
