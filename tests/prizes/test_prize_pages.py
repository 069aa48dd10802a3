"""The prize list's pages: the tournament's page, the big screen and the printed sheet, for
the director, a referee of the club and a visitor."""

from __future__ import annotations

import pytest
from django.test import Client

from prizes.services import recompute_prize_list
from tests.prizes.world import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    return world


def client_for(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(world, name: str = "") -> str:  # type: ignore[no-untyped-def]
    return f"/clubs/les-atouts/concours/{name}"


def test_a_visitor_sees_the_prize_list_on_the_tournaments_page(world):
    html = client_for(None).get(page(world)).content.decode()
    assert 'id="prizes-title"' in html
    assert "25.00 EUR" in html and "Ham" in html
    assert "Provisional" in html
    assert "/print/prizes/" not in html


def test_the_director_is_offered_the_printed_sheet(world):
    html = client_for(world.director).get(page(world)).content.decode()
    assert "/direct/les-atouts/concours/print/prizes/" in html


def test_no_prize_list_shows_before_the_last_round_is_finished():
    world = build_world(play=False)
    recompute_prize_list(world.tournament.pk)
    html = client_for(world.director).get(page(world)).content.decode()
    assert 'id="prizes-title"' not in html


def test_the_big_screen_has_a_prizes_slide_after_the_standings(world):
    html = client_for(None).get(page(world, "screen/")).content.decode()
    assert html.index("slide-standings") < html.index("slide-prizes")
    assert "25.00 EUR" in html


def test_the_printed_sheet_has_a_signature_for_each_cash_prize(world):
    response = client_for(world.director).get("/direct/les-atouts/concours/print/prizes/")
    assert response.status_code == 200
    html = response.content.decode()
    # Team A 25.00, Team B 15.00: two signatures; the ham needs none.
    assert html.count('class="signature-line"') == 2


def test_a_referee_may_not_print_the_prize_list(world):
    response = client_for(world.referee).get("/direct/les-atouts/concours/print/prizes/")
    assert response.status_code == 403


def test_a_visitor_is_sent_to_sign_in_for_the_printed_sheet(world):
    response = client_for(None).get("/direct/les-atouts/concours/print/prizes/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
