"""The score pad's limits (issue 41 item 6): one address stored 50 games of 999 deals in 1.8 s
and games never expired. New games are throttled per client address, a game nobody opened for
`PAD_EXPIRY_DAYS` is gone (404) and deleted by the beat's clean-up, and its pages say until
when it is kept."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings as django_settings
from django.utils import timezone
from django.utils.formats import date_format
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from pad.models import Pad
from pad.tasks import delete_expired_pads
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

TWO = {"players": ["Anna", "Bram"], "rules": {}}


@pytest.fixture
def pad_rate(monkeypatch):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "pad": "3/hour"}
    monkeypatch.setattr(api_settings, "DEFAULT_THROTTLE_RATES", rates)


def start(api: APIClient, address: str = "203.0.113.7"):  # type: ignore[no-untyped-def]
    return api.post("/api/v1/pads/", TWO, format="json", REMOTE_ADDR=address)


def test_new_games_are_throttled_per_address(pad_rate):
    api = APIClient()
    assert [start(api).status_code for _ in range(4)] == [201, 201, 201, 429]
    assert start(api, "203.0.113.8").status_code == 201  # another address still starts one
    assert Pad.objects.count() == 4


def test_a_forwarded_address_does_not_lift_the_limit_without_a_proxy(pad_rate):
    api = APIClient()
    answers = [
        api.post(
            "/api/v1/pads/",
            TWO,
            format="json",
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        ).status_code
        for n in range(4)
    ]
    assert answers == [201, 201, 201, 429]


def test_the_default_limit_is_a_setting_of_thirty_an_hour():
    assert django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["pad"] == "30/hour"
    assert django_settings.PAD_EXPIRY_DAYS == 180


def test_playing_on_a_game_is_not_counted_as_new_games(pad_rate):
    api = APIClient()
    key = start(api).json()["key"]
    deal = {"taker": "N", "trump": "H", "points": {"cards": {"N": 90, "S": 72}}}
    for _ in range(5):
        assert api.post(f"/api/v1/pads/{key}/deals/", deal, format="json").status_code == 201


def aged(pad: Pad, days: int) -> None:
    Pad.objects.filter(pk=pad.pk).update(
        last_opened_at=timezone.now() - datetime.timedelta(days=days)
    )


def test_a_game_nobody_opened_for_the_expiry_is_gone_from_every_address(client):
    pad = Pad.objects.create(players=["Anna", "Bram"], rules={"players": 2})
    aged(pad, 181)
    api = APIClient()
    assert api.get(f"/api/v1/pads/{pad.key}/").status_code == 404
    assert client.get(f"/pad/{pad.key}/").status_code == 404
    assert client.get(f"/pad/view/{pad.view_key}/").status_code == 404


def test_opening_a_game_moves_its_expiry(client):
    pad = Pad.objects.create(players=["Anna", "Bram"], rules={"players": 2})
    aged(pad, 179)
    assert client.get(f"/pad/view/{pad.view_key}/").status_code == 200
    pad.refresh_from_db()
    assert pad.last_opened_at > timezone.now() - datetime.timedelta(minutes=1)
    assert pad.expires_at.date() == (timezone.now() + datetime.timedelta(days=180)).date()


def test_the_clean_up_deletes_expired_games_and_keeps_the_rest():
    old = Pad.objects.create(players=["Anna", "Bram"], rules={"players": 2})
    fresh = Pad.objects.create(players=["Cato", "Dirk"], rules={"players": 2})
    filed = Pad.objects.create(players=["Eva", "Femke"], rules={"players": 2}, club=ClubFactory())
    aged(old, 200)
    aged(fresh, 10)
    aged(filed, 400)
    assert delete_expired_pads.delay().get() == 1
    assert set(Pad.objects.values_list("pk", flat=True)) == {fresh.pk, filed.pk}


def test_the_clean_up_is_on_the_beat():
    schedule = django_settings.CELERY_BEAT_SCHEDULE
    assert any(e["task"] == "pad.tasks.delete_expired_pads" for e in schedule.values())


def test_the_pages_and_the_api_say_until_when_a_game_is_kept(client):
    pad = Pad.objects.create(players=["Anna", "Bram"], rules={"players": 2})
    aged(pad, 30)
    # Opening it is what the expiry counts from: 180 days from today.
    until = date_format(timezone.localdate() + datetime.timedelta(days=180), "DATE_FORMAT")
    for url in (f"/pad/{pad.key}/", f"/pad/view/{pad.view_key}/"):
        page = client.get(url).content.decode()
        assert f"Kept until {until}: a game nobody opens for 180 days is deleted." in page, url
    body = APIClient().get(f"/api/v1/pads/{pad.key}/").json()
    expires = datetime.datetime.fromisoformat(body["expires_at"])
    assert expires.date() == (timezone.now() + datetime.timedelta(days=180)).date()
    Pad.objects.filter(pk=pad.pk).update(club=ClubFactory())
    assert "Kept until" not in client.get(f"/pad/view/{pad.view_key}/").content.decode()
