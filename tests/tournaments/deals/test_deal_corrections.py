"""Corrections after the round (issue 22 item 6) and stale pages (issue 28 items 4 and 9): a
director removes any deal of any match, the later deals move up and the match replays; the
pages' removal says which deal it removes; an edit says which version it was based on."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from scoring.engine import Team
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.errors import Conflict, DealChanged
from tournaments.models import DealAudit, Match, Tournament
from tournaments.services.deals import (
    close_match,
    correct_deal,
    enter_deal,
    remove_deal,
    replay,
)

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
DEDANS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 70}}
CAPOT = {"taker": "N", "trump": "H", "capot": "NS"}
MADE_POST = {"taker": "N", "trump": "H", "points_team": "NS", "cards": "98", "belote": "NS"}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(rules={"target": 3000})
    match = MatchFactory(round__tournament=tournament, referee=referee)
    for entry in (MADE, DEDANS, MADE):
        enter_deal(match, entry, by=referee)
    return match


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "boss")


def takers(match: Match) -> list[tuple[int, str]]:
    return [(d.number, d.entry["taker"]) for d in match.deals.order_by("number")]


def table_url(match: Match) -> str:
    return reverse("tournaments:table", kwargs={"pk": match.pk})


def remove_last_url(match: Match) -> str:
    return reverse("tournaments:remove_last_deal", kwargs={"pk": match.pk})


# --- the service ----------------------------------------------------------------------------


def test_a_director_removes_a_middle_deal_the_later_ones_move_up_and_the_match_replays(
    match, director
):
    seq = match.tournament.change_seq
    assert remove_deal(match, 2, by=director) == 2
    assert takers(match) == [(1, "N"), (2, "N")]
    match.refresh_from_db()
    played = replay(match)
    assert (match.deal_count, match.ns_total, match.ew_total) == (
        2,
        played.totals[Team.NS],
        played.totals[Team.EW],
    )
    audit = DealAudit.objects.get(match=match, action="removed")
    assert (audit.deal_number, audit.before["taker"], audit.by) == (2, "E", director)
    # The change record (standings, ratings and season tables follow it) moved on.
    match.tournament.refresh_from_db()
    assert match.tournament.change_seq > seq


def test_a_director_corrects_and_removes_deals_of_a_closed_match_of_a_finished_tournament(
    referee, director
):
    tournament = TournamentFactory(rules={"target": 500})
    finished = MatchFactory(round__tournament=tournament, referee=referee)
    chief = make_staff(tournament.club, Membership.Role.DIRECTOR, "chief")
    enter_deal(finished, CAPOT, by=referee)
    enter_deal(finished, CAPOT, by=referee)
    finished.refresh_from_db()
    assert finished.status == Match.Status.FINISHED
    close_match(finished, by=chief)
    finished.round.is_closed = True
    finished.round.save()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    correct_deal(finished, 2, MADE, by=chief)
    assert remove_deal(finished, 1, by=chief) == 1
    assert takers(finished) == [(1, "N")]
    finished.refresh_from_db()
    assert (finished.status, finished.deal_count) == (Match.Status.PLAYING, 1)


def test_the_referee_removes_the_last_deal_only(match, referee):
    with pytest.raises(Conflict) as refused:
        remove_deal(match, 1, by=referee)
    assert refused.value.field == "number"
    assert len(takers(match)) == 3
    assert remove_deal(match, 3, by=referee) == 3


def test_an_edit_based_on_a_replaced_version_is_refused_with_the_deal_as_it_stands(
    match, referee, director
):
    seen = match.deals.get(number=2).version
    correct_deal(match, 2, MADE, by=director, expected_version=seen)
    with pytest.raises(DealChanged) as refused:
        correct_deal(match, 2, CAPOT, by=referee, expected_version=seen)
    assert refused.value.status == 412
    assert refused.value.current.entry["taker"] == "N"
    assert match.deals.get(number=2).entry["capot"] is None


def test_a_deal_moved_up_is_another_version_of_its_number(match, director):
    seen = match.deals.get(number=2).version
    remove_deal(match, 2, by=director)
    # Deal 2 now is the former deal 3, with the same entry as deal 1 but its own row.
    with pytest.raises(DealChanged):
        correct_deal(match, 2, DEDANS, by=director, expected_version=seen)


# --- the pages ------------------------------------------------------------------------------


def test_the_remove_form_says_which_deal_it_removes(client, match, referee):
    client.force_login(referee)
    page = client.get(table_url(match)).content.decode()
    assert 'name="number" value="3"' in page
    assert f'name="version" value="{match.deals.get(number=3).version}"' in page


def test_two_pages_removing_the_same_deal_remove_one_deal(client, match, referee):
    client.force_login(referee)
    first = client.post(remove_last_url(match), {"number": "3", "submission_key": "page-a"})
    second = client.post(remove_last_url(match), {"number": "3", "submission_key": "page-b"})
    assert first.status_code == 302
    assert second.status_code == 409
    assert "no deal 3" in second.content.decode()
    assert takers(match) == [(1, "N"), (2, "E")]


def test_a_page_left_open_cannot_remove_a_deal_nobody_saw(client, match, referee):
    client.force_login(referee)
    # The page showed deal 3 last; meanwhile deal 3 was removed and another deal 3 entered.
    version = match.deals.get(number=3).version
    remove_deal(match, 3, by=referee)
    enter_deal(match, CAPOT, by=referee)
    stale = client.post(
        remove_last_url(match), {"number": "3", "version": version, "submission_key": "old"}
    )
    assert stale.status_code == 412
    assert "changed meanwhile" in stale.content.decode()
    assert len(takers(match)) == 3
    # A page that says nothing of the deal it saw removes nothing.
    assert client.post(remove_last_url(match), {"submission_key": "bare"}).status_code == 400
    assert len(takers(match)) == 3


def test_a_director_removes_any_deal_from_the_table_page(client, match, director, referee):
    url = reverse("tournaments:remove_deal", kwargs={"pk": match.pk, "number": 1})
    client.force_login(referee)
    assert client.post(url, {"submission_key": "r"}).status_code == 409
    client.force_login(director)
    page = client.get(table_url(match)).content.decode()
    assert 'data-remove-deal="1"' in page
    correct = reverse("tournaments:correct_deal", kwargs={"pk": match.pk, "number": 1})
    form = client.get(correct).content.decode()
    assert f'action="{url}"' in form
    assert f'name="version" value="{match.deals.get(number=1).version}"' in form
    assert client.post(url, {"submission_key": "d"}).status_code == 302
    assert takers(match) == [(1, "E"), (2, "N")]


def test_a_stale_correction_page_shows_the_deal_as_it_stands(client, match, referee, director):
    url = reverse("tournaments:correct_deal", kwargs={"pk": match.pk, "number": 2})
    client.force_login(referee)
    form = client.get(url).content.decode()
    version = match.deals.get(number=2).version
    assert f'name="version" value="{version}"' in form
    correct_deal(match, 2, MADE, by=director)
    response = client.post(
        url, {**MADE_POST, "cards": "120", "version": version, "submission_key": "late"}
    )
    assert response.status_code == 412
    page = response.content.decode()
    assert "data-deal-changed" in page
    assert f'name="version" value="{match.deals.get(number=2).version}"' in page
    assert match.deals.get(number=2).entry["points"]["cards"] == 98


def test_every_match_is_linked_from_the_directors_tables_even_closed_and_finished(
    client, match, director
):
    close_match(match, by=director)
    match.round.is_closed = True
    match.round.save()
    tournament = match.tournament
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(director)
    dashboard = reverse("tournaments:director", args=[tournament.club.slug, tournament.slug])
    page = client.get(dashboard).content.decode()
    assert f'href="{table_url(match)}"' in page
    assert client.get(table_url(match)).status_code == 200
