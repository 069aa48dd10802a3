"""Registration opens in one step: a tournament created (or a draft changed) with online
registration open is published "open for registration", so its public page takes entries at
once; the page that explains a draft links to the status control."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from club.models import Membership
from entries.models import Registration
from tests.factories import ClubFactory, TournamentFactory, make_staff
from tournaments.models import Tournament
from tournaments.services.settings import create_tournament, update_tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 10, 1)


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def new_tournament(client, club, **values):  # type: ignore[no-untyped-def]
    """POST the New tournament form as the page fills it in, with `values` typed."""
    url = f"/direct/{club.slug}/new/"
    form = client.get(url).context["form"]
    data = {}
    for name, field in form.fields.items():
        initial = form.get_initial_for_field(field, name)
        if initial not in (None, ""):
            data[name] = initial
    data.update(values)
    return client.post(url, data)


def test_ticking_open_on_the_new_tournament_form_lets_anyone_register_at_once(
    client, club, director
):
    client.force_login(director)
    answer = new_tournament(
        client,
        club,
        name="Jeudi",
        slug="jeudi",
        starts_on="2026-10-01",
        format="round_robin",
        registration="open",
    )
    assert answer.status_code == 302, answer.context["form"].errors
    tournament = Tournament.objects.get(slug="jeudi")
    assert tournament.status == Tournament.Status.OPEN
    client.logout()
    url = f"/clubs/{club.slug}/jeudi/register/"
    assert client.get(url).status_code == 200
    client.post(url, {"player": "Marie Dupont", "partner": "Luc Martin"})
    assert Registration.objects.filter(tournament=tournament).count() == 1


def test_a_tournament_created_with_registration_closed_stays_a_draft(club, director):
    tournament = create_tournament(club, by=director, name="Jeudi", starts_on=DAY)
    assert tournament.status == Tournament.Status.DRAFT


def test_a_status_given_with_open_registration_is_kept(club, director):
    tournament = create_tournament(
        club, by=director, name="Jeudi", starts_on=DAY, registration="open", status="draft"
    )
    assert tournament.status == Tournament.Status.DRAFT


def test_opening_registration_on_a_draft_publishes_it_and_a_running_one_keeps_its_status(
    club, director
):
    draft = TournamentFactory(club=club, slug="a", status=Tournament.Status.DRAFT)
    update_tournament(draft, by=director, registration="open")
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.OPEN
    running = TournamentFactory(club=club, slug="b", status=Tournament.Status.RUNNING)
    update_tournament(running, by=director, registration="open")
    running.refresh_from_db()
    assert running.status == Tournament.Status.RUNNING


def test_the_page_explaining_a_draft_links_to_the_status_control(client, club, director):
    draft = TournamentFactory(
        club=club, slug="jeudi", status=Tournament.Status.DRAFT, registration="open"
    )
    client.force_login(director)
    html = client.get(f"/direct/{club.slug}/{draft.slug}/registrations/").content.decode()
    assert "seen by its directors only" in html
    assert f'href="/direct/{club.slug}/jeudi/#status-select" data-publish-link' in html
    dashboard = client.get(f"/direct/{club.slug}/jeudi/").content.decode()
    assert 'id="status-select"' in dashboard


def test_the_api_creates_a_tournament_open_for_registration_in_one_request(club, director):
    api = APIClient()
    api.force_authenticate(director)
    answer = api.post(
        "/api/v1/tournaments/",
        {"club": club.pk, "name": "Jeudi", "starts_on": "2026-10-01", "registration": "open"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["status"], answer.json()["registration"]) == ("open", "open")
    anyone = APIClient().post(
        f"/api/v1/tournaments/{answer.json()['id']}/registrations/",
        {"players": ["Marie Dupont", "Luc Martin"]},
        format="json",
    )
    assert anyone.status_code == 201
