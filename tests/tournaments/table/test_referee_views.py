"""Referee pages: my tables, the table page, entering, correcting, removing, closing; four personas."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import MatchFactory, RoundFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import Match, Tournament
from tournaments.services.deals import close_match, enter_deal

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
MADE_POST = {
    "taker": "N",
    "trump": "H",
    "points_team": "NS",
    "cards": "98",
    "belote": "NS",
    "submission_key": "key-1",
}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(rules={"target": 500})
    return MatchFactory(round__tournament=tournament, referee=referee, table=1)


@pytest.fixture
def other_referee(match):
    user = UserFactory(username="other")
    MatchFactory(round=match.round, tournament=match.tournament, referee=user, table=2)
    return user


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "boss")


def table_url(match):
    return reverse("tournaments:table", kwargs={"pk": match.pk})


# --- My tables ------------------------------------------------------------------------------


def test_my_tables_lists_the_referees_matches_of_the_running_round(client, match, referee):
    later = RoundFactory(tournament=match.tournament, number=match.round.number + 1)
    MatchFactory(round=later, tournament=match.tournament, referee=referee, table=1)
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    MatchFactory(round__tournament=draft, referee=referee)
    client.force_login(referee)
    response = client.get(reverse("tournaments:my_tables"))
    assert response.status_code == 200
    assert list(response.context["matches"]) == [match]
    assert table_url(match) in response.content.decode()


def test_my_tables_moves_on_when_the_round_is_finished(client, match, referee):
    match.status = Match.Status.FINISHED
    match.save()
    later = RoundFactory(tournament=match.tournament, number=match.round.number + 1)
    nxt = MatchFactory(round=later, tournament=match.tournament, referee=referee, table=1)
    client.force_login(referee)
    assert list(client.get(reverse("tournaments:my_tables")).context["matches"]) == [nxt]


def test_my_tables_shows_a_director_every_table_of_the_club(client, match, other_referee, director):
    client.force_login(director)
    matches = client.get(reverse("tournaments:my_tables")).context["matches"]
    assert len(matches) == 2


def test_my_tables_sends_anonymous_to_sign_in(client):
    response = client.get(reverse("tournaments:my_tables"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_sign_in_page_uses_the_site_layout(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b"site-header" in response.content


# --- the table page -------------------------------------------------------------------------


def test_the_table_page_shows_seats_rules_dealer_and_the_form(client, match, referee):
    client.force_login(referee)
    response = client.get(table_url(match))
    body = response.content.decode()
    assert response.status_code == 200
    assert str(match.ns_team.first_player) in body
    assert str(match.ew_team.second_player) in body
    assert 'data-rule="target">Target: <strong>500</strong>' in body
    assert 'data-next-dealer="N"' in body
    assert 'name="submission_key"' in body


def test_the_table_page_shows_the_house_rules_label_and_value(client, referee):
    tournament = TournamentFactory(rules={"target": 501, "litige": "made", "declarations": False})
    match = MatchFactory(round__tournament=tournament, referee=referee, table=1)
    client.force_login(referee)
    body = client.get(table_url(match)).content.decode()
    assert 'data-rule="target">Target: <strong>501</strong>' in body
    assert 'data-rule="litige">Litige: <strong>counted as made</strong>' in body
    assert 'data-rule="declarations">Declarations: <strong>no</strong>' in body


def test_the_table_page_is_forbidden_to_another_tables_referee(client, match, other_referee):
    client.force_login(other_referee)
    assert client.get(table_url(match)).status_code == 403
    assert client.post(table_url(match), MADE_POST).status_code == 403
    assert match.deals.count() == 0


def test_the_table_page_sends_anonymous_to_sign_in(client, match):
    response = client.post(table_url(match), MADE_POST)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert match.deals.count() == 0


def test_the_referee_enters_a_deal_and_is_sent_back_to_the_top_of_the_table(client, match, referee):
    client.force_login(referee)
    response = client.post(table_url(match), MADE_POST)
    assert response.status_code == 302
    # No #anchor: the page opens at the top, the next deal's form in view.
    assert response["Location"] == table_url(match)
    match.refresh_from_db()
    assert (match.ns_total, match.ew_total) == (118, 64)
    page = client.get(table_url(match)).content.decode()
    assert 'data-deal="1"' in page
    assert "118 – 64" in page


def test_a_double_submission_stores_one_deal(client, match, referee):
    client.force_login(referee)
    client.post(table_url(match), MADE_POST)
    again = client.post(table_url(match), MADE_POST)
    assert again.status_code == 302
    assert match.deals.count() == 1


def test_a_bad_deal_is_shown_at_its_field_and_kept(client, match, referee):
    client.force_login(referee)
    response = client.post(table_url(match), {**MADE_POST, "trump": "", "cards": "161"})
    assert response.status_code == 400
    form = response.context["form"]
    assert "trump" in form.errors and "cards" in form.errors
    assert 'value="161"' in response.content.decode()
    assert match.deals.count() == 0


def test_garbage_is_a_field_error_not_a_server_error(client, match, referee):
    client.force_login(referee)
    response = client.post(
        table_url(match), {"taker": "X", "trump": "Z", "cards": "ten", "decl_NS_0_kind": "bogus"}
    )
    assert response.status_code == 400
    assert {"taker", "trump", "cards", "decl_NS_0_kind"} <= set(response.context["form"].errors)


def test_a_director_enters_and_sees_the_audit_trail(client, match, director):
    client.force_login(director)
    assert client.post(table_url(match), MADE_POST).status_code == 302
    page = client.get(table_url(match)).content.decode()
    assert "Audit trail" in page
    assert "boss" in page


def test_the_referee_does_not_see_the_audit_trail(client, match, referee):
    client.force_login(referee)
    assert "Audit trail" not in client.get(table_url(match)).content.decode()


def test_a_finished_match_refuses_another_deal(client, match, referee):
    capot = {
        "taker": "N",
        "trump": "H",
        "capot": "NS",
        "declarations": {"NS": [{"type": "sequence", "length": 4}]},
    }
    enter_deal(match, capot, by=referee)
    enter_deal(match, capot, by=referee)
    client.force_login(referee)
    page = client.get(table_url(match))
    assert page.context["form"] is None
    assert b"Match over" in page.content
    response = client.post(table_url(match), {**MADE_POST, "submission_key": "late"})
    assert response.status_code == 409
    assert match.deals.count() == 2


# --- corrections and removal ----------------------------------------------------------------


def correct_url(match, number):
    return reverse("tournaments:correct_deal", kwargs={"pk": match.pk, "number": number})


def test_the_correction_form_starts_from_the_stored_deal(client, match, referee):
    enter_deal(match, MADE, by=referee)
    client.force_login(referee)
    response = client.get(correct_url(match, 1))
    assert response.status_code == 200
    assert response.context["form"]["cards"].value() == 98


def test_the_referee_corrects_a_deal(client, match, referee):
    enter_deal(match, MADE, by=referee)
    client.force_login(referee)
    post = {"taker": "E", "trump": "C", "points_team": "EW", "cards": "70", "submission_key": "c1"}
    assert client.post(correct_url(match, 1), post).status_code == 302
    match.refresh_from_db()
    assert (match.ns_total, match.ew_total) == (162, 0)


def test_corrections_are_forbidden_to_others(client, match, referee, other_referee):
    enter_deal(match, MADE, by=referee)
    client.force_login(other_referee)
    assert client.get(correct_url(match, 1)).status_code == 403
    assert client.post(correct_url(match, 1), MADE_POST).status_code == 403
    client.logout()
    assert client.get(correct_url(match, 1)).status_code == 302


def test_removing_the_last_deal(client, match, referee, other_referee):
    enter_deal(match, MADE, by=referee)
    url = reverse("tournaments:remove_last_deal", kwargs={"pk": match.pk})
    assert client.post(url, {"number": "1"}).status_code == 302
    client.force_login(other_referee)
    assert client.post(url, {"number": "1"}).status_code == 403
    client.force_login(referee)
    assert client.get(url).status_code == 405
    assert client.post(url, {"number": "1", "submission_key": "r"}).status_code == 302
    assert client.post(url, {"number": "1", "submission_key": "r"}).status_code == 302
    assert match.deals.count() == 0


# --- close and reopen -----------------------------------------------------------------------


def test_a_director_closes_and_reopens_a_match(client, match, director, referee):
    client.force_login(director)
    assert (
        client.post(reverse("tournaments:close_match", kwargs={"pk": match.pk})).status_code == 302
    )
    match.refresh_from_db()
    assert match.is_closed
    client.force_login(referee)
    page = client.get(table_url(match))
    assert page.status_code == 200 and page.context["form"] is None
    assert client.post(table_url(match), MADE_POST).status_code == 409
    assert match.deals.count() == 0
    client.force_login(director)
    client.post(reverse("tournaments:reopen_match", kwargs={"pk": match.pk}))
    match.refresh_from_db()
    assert not match.is_closed


def test_only_a_director_closes_a_match(client, match, referee, other_referee):
    url = reverse("tournaments:close_match", kwargs={"pk": match.pk})
    assert client.post(url).status_code == 302  # anonymous: sign in
    client.force_login(other_referee)
    assert client.post(url).status_code == 403
    client.force_login(referee)
    assert client.post(url).status_code == 403
    match.refresh_from_db()
    assert not match.is_closed


def test_a_closed_match_shows_its_deals_read_only(client, match, referee, director):
    enter_deal(match, MADE, by=referee)
    close_match(match, by=director)
    client.force_login(referee)
    body = client.get(table_url(match)).content.decode()
    assert "read-only" in body
    assert correct_url(match, 1) not in body


def test_my_tables_shows_another_referee_only_their_own_table(client, match, other_referee):
    client.force_login(other_referee)
    matches = client.get(reverse("tournaments:my_tables")).context["matches"]
    assert [m.referee for m in matches] == [other_referee]


def test_my_tables_keeps_a_playing_match_of_an_earlier_round(client, match, referee):
    match.round.is_closed = True
    match.round.save()
    match.status = Match.Status.PLAYING
    match.save()
    client.force_login(referee)
    assert list(client.get(reverse("tournaments:my_tables")).context["matches"]) == [match]
