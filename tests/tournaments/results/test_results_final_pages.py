"""Final results on the pages and in the admin: the tournament's pages say "provisional until"
(a <time> the reader's browser says in its own zone), the table page refuses clearly (and tells
the phone's outbox to stop sending), the director reopens with a reason, and the Django admin
refuses to move final results out of `finished` (issue 28 item 6, issue 22 item 8)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from club.models import Membership
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import MatchEvent, Tournament
from tournaments.services.deals import enter_deal

pytestmark = pytest.mark.django_db

NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
POSTED = {"taker": "N", "trump": "H", "points_team": "NS", "cards": "98"}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(club__slug="les-atouts", slug="winter-cup")
    return MatchFactory(round__tournament=tournament, tournament=tournament, referee=referee)


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "dora")


def finish(tournament: Tournament, *, minutes_ago: int) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )
    tournament.refresh_from_db()


def test_the_tournament_page_says_provisional_until_a_time_then_final(client, match):
    tournament = match.tournament
    finish(tournament, minutes_ago=10)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-results="provisional"' in page
    assert f'<time datetime="{timezone.localtime(tournament.final_at).isoformat()}"' in page
    assert "data-local-time" in page
    finish(tournament, minutes_ago=31)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-results="final"' in page and "<time" not in page


def test_the_table_page_refuses_after_the_window_and_tells_the_outbox(client, match, referee):
    enter_deal(match, NS_MAKES, by=referee)
    finish(match.tournament, minutes_ago=31)
    client.force_login(referee)
    shown = client.get(reverse("tournaments:table", args=[match.pk]))
    page = shown.content.decode()
    assert shown.context["form"] is None and not shown.context["writable"]
    assert "final" in page and 'data-refusal="results_final"' in page
    sent = client.post(
        reverse("tournaments:table", args=[match.pk]),
        {**POSTED, "number": "2", "submission_key": "late"},
    )
    assert sent.status_code == 409
    assert 'data-refusal="results_final"' in sent.content.decode()
    removed = client.post(reverse("tournaments:remove_last_deal", args=[match.pk]), {"number": "1"})
    assert removed.status_code == 409
    corrected = client.post(
        reverse("tournaments:correct_deal", args=[match.pk, 1]),
        {**POSTED, "cards": "120", "number": "1", "submission_key": "fix"},
    )
    assert corrected.status_code == 409
    assert match.deals.count() == 1 and match.deals.get().entry["points"]["cards"] == 98


def test_inside_the_window_the_referee_still_has_the_form(client, match, referee):
    finish(match.tournament, minutes_ago=5)
    client.force_login(referee)
    shown = client.get(reverse("tournaments:table", args=[match.pk]))
    assert shown.context["form"] is not None


def test_the_director_reopens_from_the_dashboard_with_a_reason(client, match, director):
    tournament = match.tournament
    finish(tournament, minutes_ago=31)
    client.force_login(director)
    dashboard = reverse("tournaments:director", args=["les-atouts", "winter-cup"])
    page = client.get(dashboard).content.decode()
    reopen = reverse("tournaments:director_reopen", args=["les-atouts", "winter-cup"])
    assert f'action="{reopen}"' in page and 'name="reason"' in page
    refused = client.post(reopen, {"reason": ""}, follow=True)
    assert "Say why" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.results_are_final()
    client.post(reopen, {"reason": "Table 1 miscounted"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert MatchEvent.objects.get(action="reopen_results").detail == "Table 1 miscounted"


def test_a_referee_cannot_reopen_from_the_page(client, match, referee):
    finish(match.tournament, minutes_ago=31)
    client.force_login(referee)
    reopen = reverse("tournaments:director_reopen", args=["les-atouts", "winter-cup"])
    assert client.post(reopen, {"reason": "please"}).status_code == 403
    match.tournament.refresh_from_db()
    assert match.tournament.results_are_final()


def test_the_admin_refuses_to_move_final_results_out_of_finished(match):
    tournament = match.tournament
    finish(tournament, minutes_ago=31)
    site_admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    request = RequestFactory().get("/admin/")
    request.user = site_admin
    model_admin = admin.site._registry[Tournament]
    form_class = model_admin.get_form(request, tournament, change=True)
    data = {name: form_class(instance=tournament)[name].value() for name in form_class.base_fields}
    for change in ({"status": "running"}, {"correction_minutes": 9999}):
        form = form_class({**data, **change}, instance=Tournament.objects.get(pk=tournament.pk))
        assert not form.is_valid()
        assert next(iter(change)) in form.errors
    tournament.refresh_from_db()
    assert tournament.results_are_final()


def test_the_admin_offers_no_way_to_write_a_deal():
    from tournaments.models import Deal

    deal_admin = admin.site._registry[Deal]
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(username="root", is_superuser=True, is_staff=True)
    assert not deal_admin.has_add_permission(request)
    assert not deal_admin.has_change_permission(request)
    assert not deal_admin.has_delete_permission(request)
