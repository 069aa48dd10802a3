"""The table page beyond entering a deal: an entry whose number was taken, the teams' answers to
the finished sheet and the director seeing a dispute, every word in Dutch and French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import MatchConfirmation
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import enter_deal

pytestmark = pytest.mark.django_db

NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_MAKES = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}
POSTED = {"taker": "N", "trump": "H", "points_team": "NS", "cards": "98"}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(
        club__slug="les-atouts", slug="winter-cup", rules={"target": None, "max_deals": 2}
    )
    return MatchFactory(round__tournament=tournament, referee=referee, table=4)


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "dora")


def table_url(match):
    return reverse("tournaments:table", args=[match.pk])


def confirm_url(match):
    return reverse("tournaments:confirm_sheet", args=[match.pk])


def test_an_entry_meant_as_a_deal_taken_meanwhile_is_refused_and_kept(
    client, match, referee, director
):
    enter_deal(match, NS_MAKES, by=director)  # deal 1, entered by the director
    client.force_login(referee)
    response = client.post(table_url(match), {**POSTED, "number": "1", "submission_key": "k1"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "meant as deal 1, but the match has 1 deal now (entered meanwhile by dora)" in page
    assert 'data-refusal="deal_number_taken"' in page
    form = response.context["form"]
    assert form["cards"].value() == "98" and form["number"].value() == "2"
    assert match.deals.count() == 1
    # Saved again as it stands, it is deal 2.
    again = client.post(table_url(match), {**POSTED, "number": "2", "submission_key": "k1"})
    assert again.status_code == 302 and match.deals.count() == 2


def test_a_repeated_key_is_stored_once_whatever_the_number_says(client, match, referee):
    client.force_login(referee)
    client.post(table_url(match), {**POSTED, "number": "1", "submission_key": "k1"})
    again = client.post(table_url(match), {**POSTED, "number": "1", "submission_key": "k1"})
    assert again.status_code == 302 and match.deals.count() == 1


def test_the_next_dealers_are_named_ahead_for_entries_kept_offline(client, match, referee):
    client.force_login(referee)
    page = client.get(table_url(match)).content.decode()
    upcoming = page.split("data-upcoming-dealers")[1].split("</ol>")[0]
    seats = [item.split("·")[0].strip().split(">")[-1] for item in upcoming.split("<li>")[1:]]
    assert seats[:5] == ["N", "E", "S", "W", "N"]


def test_the_finished_sheet_asks_each_team_and_records_one_tap(client, match, referee):
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    client.force_login(referee)
    page = client.get(table_url(match)).content.decode()
    assert "data-confirm" in page and 'id="deal-form"' not in page
    assert page.count('name="agree" value="1"') == 2
    response = client.post(confirm_url(match), {"team": "NS", "agree": "1"})
    assert response.status_code == 302
    client.post(confirm_url(match), {"team": "EW", "agree": "1"})
    page = client.get(table_url(match)).content.decode()
    assert "data-confirmed" in page
    sheet = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert "Sheet confirmed by both teams." in sheet


def test_a_dispute_alerts_the_director_on_the_tables_page(client, match, referee, director):
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    client.force_login(referee)
    client.post(confirm_url(match), {"team": "EW", "agree": "0", "remark": "we had 130"})
    client.force_login(director)
    tables = reverse("tournaments:director_tables", args=["les-atouts", "winter-cup"])
    page = client.get(tables).content.decode()
    assert "data-disputes" in page and "we had 130" in page
    assert 'data-sheet="disputed"' in page
    # The director settles it by confirming on the team's behalf.
    client.post(confirm_url(match), {"team": "EW", "agree": "1"})
    answer = MatchConfirmation.objects.get(match=match, side="EW")
    assert answer.agree and answer.by_director


def test_confirming_before_the_end_is_refused_with_a_message(client, match, referee):
    enter_deal(match, NS_MAKES, by=referee)
    client.force_login(referee)
    response = client.post(confirm_url(match), {"team": "NS", "agree": "1"})
    assert response.status_code == 409
    assert "This match is not over" in response.content.decode()


def test_another_tables_referee_and_anonymous_may_not_answer(client, match, referee):
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    assert client.post(confirm_url(match), {"team": "NS", "agree": "1"}).status_code == 302
    client.force_login(UserFactory(username="other"))
    assert client.post(confirm_url(match), {"team": "NS", "agree": "1"}).status_code == 403
    assert not MatchConfirmation.objects.exists()


def test_the_director_sees_what_happened_to_the_sheet(client, match, referee, director):
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    confirm_sheet(match, side="NS", agree=True, by=referee)
    client.force_login(director)
    page = client.get(table_url(match)).content.decode()
    assert 'data-event="confirm"' in page and "sheet confirmed" in page


@pytest.mark.parametrize(
    ("language", "letters", "hint"),
    [
        (
            "fr",
            ["4×V", "4×D", "4×R", "4×A"],
            "Les points de l'autre équipe valent 162 moins ceux-ci.",
        ),
        ("nl", ["4×B", "4×V", "4×H", "4×A"], "De punten van het andere team zijn 162 min deze."),
        ("en", ["4×J", "4×Q", "4×K", "4×A"], "The other team's points are 162 minus these."),
    ],
)
def test_the_table_speaks_the_referees_language_card_letters_included(
    client, compiled_catalogues, referee, language, letters, hint
):
    tournament = TournamentFactory(rules={"target": 500})
    match = MatchFactory(round__tournament=tournament, referee=referee)
    client.force_login(referee)
    page = client.get(table_url(match), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    quick = [chunk.split("<")[0].strip() for chunk in page.split("+ ")[1:]]
    for letter in letters:
        assert letter in quick, (letter, quick)
    assert hint.replace("'", "&#x27;") in page


def test_the_page_reads_the_stored_state_and_replays_nothing(client, match, referee, director):
    """The deal services replay on every write and store the totals, status and deal count;
    a GET only reads them."""
    from unittest import mock

    from tournaments.services import deals

    enter_deal(match, NS_MAKES, by=director)
    client.force_login(referee)
    with mock.patch.object(deals, "play_match", side_effect=AssertionError("replayed")):
        response = client.get(table_url(match))
    assert response.status_code == 200
    # The second deal is dealt by East, after North (the first dealer) dealt the first.
    assert response.context["next_dealer_seat"] == "E"
    assert response.context["over"] is False
    enter_deal(match, EW_MAKES, by=director)
    with mock.patch.object(deals, "play_match", side_effect=AssertionError("replayed")):
        finished = client.get(table_url(match))
    assert finished.context["over"] is True and finished.context["next_dealer_seat"] is None
