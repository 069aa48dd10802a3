"""The door (issue 41 item 3): the public self check-in took any entry by its id, 24 in 0.4 s,
with no proof of being at the door, so no-shows got drawn. Now its QR code carries the door's
code, which only the director's poster and the big screen as a director's browser shows it
carry; without it self check-in answers 403 and says why; a director makes a new code on
demand; searches and check-ins are throttled per address at a rate a club's Wi-Fi survives."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from rest_framework.settings import api_settings

from club.models import Membership
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import MatchEvent, Team

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="les-atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


@pytest.fixture
def member(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "remi")


@pytest.fixture
def tournament(club):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(
        club=club,
        slug="winter-cup",
        status="open",
        is_public=True,
        check_in="on",
        entry_fee=Decimal("5.00"),
    )
    for n in range(1, 25):
        TeamFactory(
            tournament=tournament,
            name=f"Team {n}",
            seed=n,
            first_player=PlayerFactory(first_name=f"Anne{n}", last_name="Martin"),
            second_player=PlayerFactory(first_name=f"Bruno{n}", last_name="Petit"),
        )
    return tournament


def door_url() -> str:
    return reverse("entries:self_check_in", args=ARGS)


def test_checking_in_entries_by_id_without_the_doors_code_is_refused(client, tournament):
    for team in tournament.teams.all():
        answer = client.post(door_url(), {"entry": team.pk})
        assert answer.status_code == 403
    assert not Team.objects.filter(tournament=tournament, attendance="present").exists()
    page = client.post(door_url(), {"entry": tournament.teams.first().pk, "door": "guessed"})
    assert page.status_code == 403
    assert "Scan the QR code at the door" in page.content.decode()


def test_searching_names_without_the_doors_code_finds_nobody(client, tournament):
    page = client.get(door_url(), {"q": "anne1 martin"})
    assert page.status_code == 403 and not page.context["found"]


def test_with_the_doors_code_a_player_checks_in(client, tournament):
    team = tournament.teams.get(seed=7)
    answer = client.post(door_url(), {"entry": team.pk, "door": tournament.door_key})
    assert answer.status_code == 200 and "Team 7 is checked in" in answer.content.decode()
    team.refresh_from_db()
    assert team.is_present


def test_the_code_is_on_no_page_or_api_answer_others_can_open(client, member, tournament):
    pages = [
        reverse("tournaments:detail", args=ARGS),
        reverse("tournaments:screen", args=ARGS),
        reverse("tournaments:screen_live", args=ARGS),
        reverse("tournaments:find_player", args=ARGS),
        reverse("entries:register", args=ARGS),
        door_url(),
        f"/api/v1/tournaments/{tournament.pk}/",
        "/api/v1/tournaments/",
    ]
    for who in (None, member):
        if who is not None:
            client.force_login(who)
        for url in pages:
            answer = client.get(url)
            assert answer.status_code in (200, 403), url
            assert tournament.door_key not in answer.content.decode(), (who, url)
    for url in (
        reverse("entries:director_check_in_poster", args=ARGS),
        reverse("entries:director_check_in", args=ARGS),
    ):
        assert client.get(url).status_code == 403  # the member is no director


def test_the_directors_poster_and_big_screen_carry_it(client, director, tournament):
    client.force_login(director)
    for url in (
        reverse("entries:director_check_in_poster", args=ARGS),
        reverse("tournaments:screen", args=ARGS),
        reverse("tournaments:screen_live", args=ARGS),
    ):
        assert f"door={tournament.door_key}" in client.get(url).content.decode(), url


def test_each_evening_has_its_own_code(club):
    first = TournamentFactory(club=club)
    second = TournamentFactory(club=club)
    assert len(first.door_key) >= 16 and first.door_key != second.door_key


def test_a_director_makes_a_new_code_and_the_old_one_no_longer_checks_in(
    client, director, tournament
):
    old = tournament.door_key
    client.force_login(director)
    renewed = client.post(reverse("entries:director_renew_door", args=ARGS))
    assert renewed.status_code == 302
    tournament.refresh_from_db()
    assert tournament.door_key != old
    assert MatchEvent.objects.filter(tournament=tournament, detail="new door code").exists()
    client.logout()
    team = tournament.teams.get(seed=1)
    assert client.post(door_url(), {"entry": team.pk, "door": old}).status_code == 403
    assert (
        client.post(door_url(), {"entry": team.pk, "door": tournament.door_key}).status_code == 200
    )


def test_only_a_director_makes_a_new_code(client, member, tournament):
    url = reverse("entries:director_renew_door", args=ARGS)
    old = tournament.door_key
    assert client.post(url).status_code == 302  # to sign in
    client.force_login(member)
    assert client.post(url).status_code == 403
    tournament.refresh_from_db()
    assert tournament.door_key == old


@pytest.fixture
def door_rate(monkeypatch):  # type: ignore[no-untyped-def]
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "self_check_in": "3/min"}
    monkeypatch.setattr(api_settings, "DEFAULT_THROTTLE_RATES", rates)


def test_searches_and_check_ins_are_throttled_per_address(client, tournament, door_rate):
    door = {"door": tournament.door_key}
    answers = [
        client.get(door_url(), {"q": f"anne{n}", **door}, REMOTE_ADDR="203.0.113.7").status_code
        for n in range(1, 4)
    ]
    team = tournament.teams.get(seed=1)
    refused = client.post(door_url(), {"entry": team.pk, **door}, REMOTE_ADDR="203.0.113.7")
    assert answers == [200, 200, 200] and refused.status_code == 429
    team.refresh_from_db()
    assert not team.is_present
    other = client.post(door_url(), {"entry": team.pk, **door}, REMOTE_ADDR="203.0.113.8")
    assert other.status_code == 200


def test_the_door_rate_is_a_setting_a_club_wifi_survives():
    assert django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["self_check_in"] == "60/min"
