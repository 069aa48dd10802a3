"""The evening through the API: online registration (anonymous, throttled, honeypot), accepting
and cancelling entries, check-ins with fees and the cash, for the three personas."""

from __future__ import annotations

from decimal import Decimal

import pytest

from club.models import Membership
from entries.models import Registration
from tests.api.conftest import client_for
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, make_staff
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(tournament):  # type: ignore[no-untyped-def]
    Tournament.objects.filter(pk=tournament.pk).update(
        registration="open", status="open", capacity=2, check_in="on", entry_fee=Decimal("5")
    )
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def outsider_director():  # type: ignore[no-untyped-def]
    return make_staff(ClubFactory(), Membership.Role.DIRECTOR, "elsewhere")


def url(tournament, what="registrations"):  # type: ignore[no-untyped-def]
    return f"/api/v1/tournaments/{tournament.pk}/{what}/"


TEAM = {"players": ["Marie Dupont", "Luc Martin"], "email": "marie@example.org"}


def test_anyone_registers_a_team_and_gets_its_key(anonymous_client, open_tournament):
    response = anonymous_client.post(url(open_tournament), TEAM, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"id", "key", "status", "position"}
    assert body["status"] == "registered" and body["position"] is None


def test_past_the_capacity_the_answer_is_a_place_in_the_waiting_list(
    anonymous_client, open_tournament
):
    for names in (["Anne Roux", "Paul Roux"], ["Eva Petit", "Jean Petit"]):
        anonymous_client.post(url(open_tournament), {"players": names}, format="json")
    response = anonymous_client.post(url(open_tournament), TEAM, format="json")
    assert response.json()["status"] == "waiting"
    assert response.json()["position"] == 1


def test_a_single_player_asks_for_a_partner(anonymous_client, open_tournament):
    body = {"players": ["Anne Roux"], "partner_wanted": True}
    response = anonymous_client.post(url(open_tournament), body, format="json")
    assert response.status_code == 201


def test_registration_after_closing_is_409_and_stores_nothing(anonymous_client, tournament):
    response = anonymous_client.post(url(tournament), TEAM, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "registration_closed"
    assert not Registration.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**TEAM, "website": "http://spam.example"}, "website"),
        ({"players": ["Marie Dupont"]}, "players"),
        ({"players": "Marie Dupont"}, "players"),
        ({"players": ["Marie Dupont", "M4rie"]}, "players.1"),
        ({**TEAM, "email": "nope"}, "email"),
        ({**TEAM, "partner_wanted": "maybe"}, "partner_wanted"),
    ],
)
def test_bad_input_names_the_field_and_stores_nothing(
    anonymous_client, open_tournament, body, field
):
    response = anonymous_client.post(url(open_tournament), body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not Registration.objects.exists()


def test_a_duplicate_is_refused_naming_the_player(anonymous_client, open_tournament):
    anonymous_client.post(url(open_tournament), TEAM, format="json")
    again = {"players": ["Eva Petit", "marie dupont"]}
    response = anonymous_client.post(url(open_tournament), again, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "already_registered"
    assert "players.1" in response.json()["errors"]
    assert Registration.objects.count() == 1


def test_registrations_are_throttled_per_address(anonymous_client, open_tournament, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "registration": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    codes = [
        anonymous_client.post(
            url(open_tournament), {"players": [f"Anne Roux{c}", f"Paul Roux{c}"]}, format="json"
        ).status_code
        for c in ("a", "b", "c")
    ]
    assert codes == [201, 201, 429]


def test_only_the_clubs_directors_list_the_entries(
    anonymous_client, director_client, referee_client, outsider_director, open_tournament
):
    anonymous_client.post(url(open_tournament), TEAM, format="json")
    listed = director_client.get(url(open_tournament))
    assert listed.status_code == 200
    assert listed.json()[0]["players"] == ["Marie Dupont", "Luc Martin"]
    assert "key" not in listed.json()[0]
    assert anonymous_client.get(url(open_tournament)).status_code == 401
    assert referee_client.get(url(open_tournament)).status_code == 403
    assert client_for(outsider_director).get(url(open_tournament)).status_code == 403


def test_the_key_shows_and_cancels_the_entry_and_the_waiting_list_moves_up(
    anonymous_client, open_tournament
):
    first = anonymous_client.post(
        url(open_tournament), {"players": ["Anne Roux", "Paul Roux"]}, format="json"
    ).json()
    anonymous_client.post(
        url(open_tournament), {"players": ["Eva Petit", "Jean Petit"]}, format="json"
    )
    waiting = anonymous_client.post(url(open_tournament), TEAM, format="json").json()
    entry = f"/api/v1/registrations/{first['id']}/"
    assert anonymous_client.get(entry).status_code == 401
    assert anonymous_client.get(entry + "?key=wrong").status_code == 401
    assert anonymous_client.get(f"{entry}?key={first['key']}").json()["status"] == "registered"
    assert anonymous_client.delete(entry + "?key=wrong").status_code == 401
    assert anonymous_client.delete(f"{entry}?key={first['key']}").status_code == 204
    moved = Registration.objects.get(pk=waiting["id"])
    assert moved.status == "registered"


def test_a_director_accepts_an_entry_into_a_team(
    anonymous_client, director_client, referee_client, outsider_director, open_tournament
):
    created = anonymous_client.post(url(open_tournament), TEAM, format="json").json()
    accept = f"/api/v1/registrations/{created['id']}/accept/"
    assert anonymous_client.post(accept, {}, format="json").status_code == 401
    assert referee_client.post(accept, {}, format="json").status_code == 403
    assert client_for(outsider_director).post(accept, {}, format="json").status_code == 403
    response = director_client.post(accept, {"new_players": "create"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "accepted"
    assert Team.objects.get(pk=response.json()["team"]).name == "Dupont – Martin"


def test_accepting_a_waiting_entry_of_a_full_tournament_is_409_naming_capacity(
    anonymous_client, director_client, open_tournament
):
    for names in (["Anne Roux", "Paul Roux"], ["Eva Petit", "Jean Petit"]):
        anonymous_client.post(url(open_tournament), {"players": names}, format="json")
    waiting = anonymous_client.post(url(open_tournament), TEAM, format="json").json()
    response = director_client.post(
        f"/api/v1/registrations/{waiting['id']}/accept/", {"new_players": "create"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "tournament_full"
    assert "capacity" in response.json()["errors"]
    assert not Team.objects.exists()


def test_a_director_pairs_two_players_looking_for_a_partner(
    anonymous_client, director_client, open_tournament
):
    ids = [
        anonymous_client.post(
            url(open_tournament), {"players": [name], "partner_wanted": True}, format="json"
        ).json()["id"]
        for name in ("Anne Roux", "Luc Martin")
    ]
    response = director_client.post(
        f"/api/v1/registrations/{ids[0]}/pair/", {"partner": ids[1]}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["paired_with"] == ids[1]


@pytest.fixture
def teams(open_tournament):  # type: ignore[no-untyped-def]
    return [
        TeamFactory(
            tournament=open_tournament,
            name=f"Team {n}",
            seed=n,
            first_player=PlayerFactory(),
            second_player=PlayerFactory(),
        )
        for n in (1, 2, 3)
    ]


def test_a_director_checks_entries_in_and_marks_fees(director_client, open_tournament, teams):
    response = director_client.post(
        url(open_tournament, "check-ins"), {"entry": teams[0].pk, "paid": "cash"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["checked_in"] is True and response.json()["paid"] == "cash"
    director_client.post(
        url(open_tournament, "check-ins"), {"entry": teams[1].pk, "present": True}, format="json"
    )
    listed = director_client.get(url(open_tournament, "check-ins")).json()
    assert [(e["name"], e["checked_in"], e["paid"]) for e in listed] == [
        ("Team 1", True, "cash"),
        ("Team 2", True, None),
        ("Team 3", False, None),
    ]
    cash = director_client.get(url(open_tournament, "cash")).json()
    assert cash["received"]["cash"] == "5.00" and cash["total"] == "5.00"
    assert cash["unpaid"] == [{"entry": teams[1].pk, "name": "Team 2", "due": "5.00"}]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"entry": 0, "present": True}, "entry"),
        ({"entry": None, "present": True}, "entry"),
        ({"entry": "x"}, "entry"),
        ({"paid": "cheque"}, "paid"),
        ({"present": False, "paid": "card"}, "paid"),
    ],
)
def test_a_bad_check_in_names_the_field_and_stores_nothing(
    director_client, open_tournament, teams, body, field
):
    body = {"entry": teams[0].pk, **body}
    response = director_client.post(url(open_tournament, "check-ins"), body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    teams[0].refresh_from_db()
    assert teams[0].attendance == "expected" and teams[0].paid == ""


def test_check_ins_and_cash_are_the_directors_alone(
    anonymous_client, referee_client, outsider_director, open_tournament, teams
):
    for what in ("check-ins", "cash"):
        assert anonymous_client.get(url(open_tournament, what)).status_code == 401
        assert referee_client.get(url(open_tournament, what)).status_code == 403
        assert client_for(outsider_director).get(url(open_tournament, what)).status_code == 403
    body = {"entry": teams[0].pk, "present": True}
    assert (
        referee_client.post(url(open_tournament, "check-ins"), body, format="json").status_code
        == 403
    )
    assert (
        anonymous_client.post(url(open_tournament, "check-ins"), body, format="json").status_code
        == 401
    )


def test_a_round_robin_with_teams_not_checked_in_asks_first(
    director_client, open_tournament, teams
):
    Tournament.objects.filter(pk=open_tournament.pk).update(format="round_robin")
    for team in teams[:2]:
        director_client.post(
            url(open_tournament, "check-ins"), {"entry": team.pk, "present": True}, format="json"
        )
    schedule = url(open_tournament, "schedule")
    asked = director_client.post(schedule, {}, format="json")
    assert asked.status_code == 409
    assert asked.json()["code"] == "entries_not_checked_in"
    assert asked.json()["expected"] == ["Team 3"]
    done = director_client.post(schedule, {"leave_out_expected": True}, format="json")
    assert done.status_code == 201


def test_the_tournament_resource_carries_the_evening_settings(director_client, tournament):
    response = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/",
        {"registration": "open", "capacity": 24, "check_in": "on", "entry_fee": "7.50"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["registration"] == "open" and body["capacity"] == 24
    assert body["check_in"] == "on" and body["entry_fee"] == "7.50"
    assert body["entry_fee_per"] == "team" and body["self_check_in"] is True
    refused = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"capacity": 1}, format="json"
    )
    assert refused.status_code == 400 and "capacity" in refused.json()["errors"]


def test_the_answers_place_is_read_after_a_cancellation_committed_meanwhile(
    anonymous_client, open_tournament, monkeypatch
):
    """Issue 41 item 8: the entry was moved into a place by a cancellation that committed
    between its own commit and its answer; the answer still said `waiting`, position 1."""
    from entries.api import views as evening_api
    from entries.services.online import cancel_registration, register_online

    first = anonymous_client.post(
        url(open_tournament), {"players": ["Anne Roux", "Paul Roux"]}, format="json"
    ).json()
    anonymous_client.post(
        url(open_tournament), {"players": ["Eva Petit", "Jean Petit"]}, format="json"
    )

    def then_someone_cancels(*args, **kwargs):  # type: ignore[no-untyped-def]
        registration = register_online(*args, **kwargs)
        assert registration.status == "waiting"
        cancelled = Registration.objects.get(pk=first["id"])
        cancel_registration(cancelled, by=None, key=first["key"])
        return registration

    monkeypatch.setattr(evening_api, "register_online", then_someone_cancels)
    body = anonymous_client.post(url(open_tournament), TEAM, format="json").json()
    assert (body["status"], body["position"]) == ("registered", None)
    assert Registration.objects.get(pk=body["id"]).status == "registered"
