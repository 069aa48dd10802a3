"""The teams confirm the finished sheet (or dispute it); a change of the deals forgets their
answers, audited; a round waits for its sheets unless the director insists."""

from __future__ import annotations

import pytest

from club.models import Membership
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.errors import Conflict, NotAllowed, RoundNotReady, ServiceError
from tournaments.models import MatchConfirmation, MatchEvent
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import close_match, correct_deal, enter_deal, remove_last_deal
from tournaments.services.round_closing import close_round, round_gaps

pytestmark = pytest.mark.django_db

NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_MAKES = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}


@pytest.fixture
def referee():
    return UserFactory(username="referee")


@pytest.fixture
def tournament():
    return TournamentFactory(rules={"target": None, "max_deals": 2})


@pytest.fixture
def director(tournament):
    return make_staff(tournament.club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def finished(tournament, referee):
    """A two-deal match, played out: NS 98 + 42 = 140, EW 64 + 120 = 184."""
    match = MatchFactory(round__tournament=tournament, referee=referee, table=1)
    enter_deal(match, NS_MAKES, by=referee)
    enter_deal(match, EW_MAKES, by=referee)
    match.refresh_from_db()
    return match


def answers(match):
    return dict(MatchConfirmation.objects.filter(match=match).values_list("side", "agree"))


def events(match):
    return list(MatchEvent.objects.filter(match=match).values_list("action", flat=True))


def test_both_teams_confirm_on_the_referees_phone(finished, referee):
    confirm_sheet(finished, side="NS", agree=True, by=referee)
    assert answers(finished) == {"NS": True}
    confirm_sheet(finished, side="EW", agree=True, by=referee)
    finished.refresh_from_db()
    assert finished.confirmed_by == ["NS", "EW"]
    assert finished.is_confirmed and finished.disputed_by == []
    assert events(finished) == ["confirm", "confirm"]


def test_a_dispute_is_recorded_with_its_remark(finished, referee):
    answer = confirm_sheet(finished, side="EW", agree=False, by=referee, remark=" deal 2: 110 ")
    assert (answer.agree, answer.remark, answer.by_director) == (False, "deal 2: 110", False)
    assert finished.disputed_by == ["EW"] and not finished.is_confirmed
    assert MatchEvent.objects.get(match=finished).detail == "EW: deal 2: 110"


def test_a_team_answering_again_replaces_its_answer(finished, referee):
    confirm_sheet(finished, side="NS", agree=False, by=referee)
    confirm_sheet(finished, side="NS", agree=True, by=referee)
    assert answers(finished) == {"NS": True}


def test_a_director_confirms_on_the_teams_behalf(finished, director):
    answer = confirm_sheet(finished, side="NS", agree=True, by=director)
    assert answer.by_director and answer.by == director


def test_the_sheet_is_confirmed_only_once_the_match_is_over(tournament, referee):
    match = MatchFactory(round__tournament=tournament, referee=referee)
    enter_deal(match, NS_MAKES, by=referee)
    with pytest.raises(Conflict, match="not over"):
        confirm_sheet(match, side="NS", agree=True, by=referee)
    assert answers(match) == {}


def test_a_team_is_ns_or_ew(finished, referee):
    with pytest.raises(ServiceError) as refused:
        confirm_sheet(finished, side="N", agree=True, by=referee)
    assert refused.value.field == "team"


def test_another_tables_referee_may_not_answer_for_a_team(finished):
    with pytest.raises(NotAllowed):
        confirm_sheet(finished, side="NS", agree=True, by=UserFactory(username="stranger"))


def test_once_a_director_closed_the_match_only_a_director_answers(finished, referee, director):
    close_match(finished, by=director)
    with pytest.raises(NotAllowed):
        confirm_sheet(finished, side="NS", agree=True, by=referee)
    confirm_sheet(finished, side="NS", agree=True, by=director)
    assert answers(finished) == {"NS": True}


def test_a_correction_after_confirmation_forgets_the_answers_and_says_so(
    finished, referee, director
):
    confirm_sheet(finished, side="NS", agree=True, by=referee)
    confirm_sheet(finished, side="EW", agree=False, by=referee, remark="110, not 120")
    correct_deal(finished, 2, {**EW_MAKES, "points": {"team": "EW", "cards": 110}}, by=director)
    assert answers(finished) == {}
    forgotten = MatchEvent.objects.filter(match=finished, action="unconfirmed").get()
    assert forgotten.detail == "deal 2 corrected: EW ✗, NS ✓"
    assert forgotten.by == director


def test_removing_the_last_deal_forgets_the_answers_too(finished, referee):
    confirm_sheet(finished, side="NS", agree=True, by=referee)
    remove_last_deal(finished, by=referee)
    assert answers(finished) == {}
    assert events(finished)[-1] == "unconfirmed"


def test_a_change_without_answers_records_nothing_more(tournament, referee):
    match = MatchFactory(round__tournament=tournament, referee=referee)
    enter_deal(match, NS_MAKES, by=referee)
    assert events(match) == []


# --- closing a round ---------------------------------------------------------------------


def test_a_round_waits_for_its_unfinished_tables_and_unconfirmed_sheets(
    finished, referee, director
):
    MatchFactory(round=finished.round, tournament=finished.tournament, table=2)  # not played
    assert round_gaps(finished.round) == ([2], [1])
    with pytest.raises(RoundNotReady) as refused:
        close_round(finished.round, by=director)
    assert refused.value.unfinished == [2] and refused.value.unconfirmed == [1]
    assert "table 2" in refused.value.message and "table 1" in refused.value.message
    finished.round.refresh_from_db()
    assert not finished.round.is_closed


def test_a_round_closes_at_once_when_every_sheet_is_confirmed(finished, referee, director):
    for side in ("NS", "EW"):
        confirm_sheet(finished, side=side, agree=True, by=referee)
    close_round(finished.round, by=director)
    finished.round.refresh_from_db()
    assert finished.round.is_closed


def test_a_disputed_sheet_keeps_the_round_waiting(finished, referee, director):
    confirm_sheet(finished, side="NS", agree=True, by=referee)
    confirm_sheet(finished, side="EW", agree=False, by=referee)
    with pytest.raises(RoundNotReady):
        close_round(finished.round, by=director)


def test_a_director_closes_a_round_anyway_and_the_audit_says_what_was_left(finished, director):
    close_round(finished.round, by=director, force=True)
    finished.round.refresh_from_db()
    assert finished.round.is_closed
    event = MatchEvent.objects.get(action="close_round")
    assert "1 sheet is not confirmed by both teams (table 1)" in event.detail
