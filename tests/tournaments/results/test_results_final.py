"""Results become final (issue 28 item 6, issue 22 item 8): provisional for the correction
window after the finish, then no deal is added, changed or removed by anyone, on any path,
until a director reopens them with a reason (audited), which opens a new window."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import Membership
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.errors import NotAllowed, ResultsFinal, ResultsNotFinished, ServiceError
from tournaments.models import Deal, MatchEvent, Tournament
from tournaments.services.deals import correct_deal, enter_deal, remove_last_deal
from tournaments.services.results import reopen_results
from tournaments.services.settings import SettingsRefused, update_tournament
from tournaments.services.status import set_status

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
DEDANS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 70}}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(rules={"target": 2000})
    return MatchFactory(round__tournament=tournament, tournament=tournament, referee=referee)


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "boss")


def finish(tournament, director, *, minutes_ago: int = 0) -> Tournament:
    set_status(tournament, Tournament.Status.FINISHED, by=director)
    if minutes_ago:
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=timezone.now() - datetime.timedelta(minutes=minutes_ago)
        )
    tournament.refresh_from_db()
    return tournament


def test_a_running_tournament_has_provisional_results_and_no_final_time(match):
    tournament = match.tournament
    assert tournament.correction_minutes == 30
    assert tournament.results_state() == Tournament.Results.PROVISIONAL
    assert tournament.final_at is None


def test_finishing_opens_a_window_of_correction_minutes(match, director):
    tournament = finish(match.tournament, director)
    assert tournament.finished_at is not None
    assert tournament.final_at == tournament.finished_at + datetime.timedelta(minutes=30)
    assert tournament.results_state() == Tournament.Results.PROVISIONAL
    later = tournament.final_at + datetime.timedelta(seconds=1)
    assert tournament.results_state(later) == Tournament.Results.FINAL


def test_the_referee_still_corrects_inside_the_window(match, referee, director):
    enter_deal(match, MADE, by=referee)
    finish(match.tournament, director, minutes_ago=29)
    match.refresh_from_db()
    correct_deal(match, 1, DEDANS, by=referee)
    assert Deal.objects.get(match=match, number=1).entry["taker"] == "E"


@pytest.mark.parametrize("who", ["referee", "director"])
def test_after_the_window_nobody_adds_changes_or_removes_a_deal(match, referee, director, who):
    enter_deal(match, MADE, by=referee)
    finish(match.tournament, director, minutes_ago=31)
    match.refresh_from_db()
    by = referee if who == "referee" else director
    for action in (
        lambda: enter_deal(match, DEDANS, by=by),
        lambda: correct_deal(match, 1, DEDANS, by=by),
        lambda: remove_last_deal(match, by=by),
    ):
        with pytest.raises(ResultsFinal) as refused:
            action()
        assert refused.value.status == 409 and refused.value.code == "results_final"
    assert [d.entry["taker"] for d in Deal.objects.filter(match=match)] == ["N"]


def test_a_stranger_is_refused_as_a_stranger_not_told_the_results_are_final(match, director):
    finish(match.tournament, director, minutes_ago=31)
    match.refresh_from_db()
    with pytest.raises(NotAllowed):
        enter_deal(match, MADE, by=UserFactory())


def test_a_window_of_zero_minutes_makes_results_final_at_the_finish(match, referee, director):
    update_tournament(match.tournament, by=director, correction_minutes=0)
    finish(match.tournament, director)
    match.refresh_from_db()
    with pytest.raises(ResultsFinal):
        enter_deal(match, MADE, by=referee)


def test_final_results_cannot_be_reopened_through_the_status_or_the_settings(match, director):
    tournament = finish(match.tournament, director, minutes_ago=31)
    for change in (
        {"status": Tournament.Status.RUNNING},
        {"correction_minutes": 10_000},
        {"points_win": 3},
        {"rules": {"target": 1000}},
    ):
        with pytest.raises(SettingsRefused) as refused:
            update_tournament(tournament, by=director, **change)
        assert refused.value.code == "results_final" and refused.value.status == 409
        assert refused.value.field == next(iter(change))
    tournament.refresh_from_db()
    assert tournament.results_are_final()
    # What cannot change a result still can.
    update_tournament(tournament, by=director, name="Winter Cup (final)")


def test_a_director_reopens_with_a_reason_audited_and_a_new_window_follows(
    match, referee, director
):
    tournament = finish(match.tournament, director, minutes_ago=31)
    reopen_results(tournament, by=director, reason="Table 3's deal 4 was scored for the wrong team")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.finished_at is None
    assert tournament.results_state() == Tournament.Results.PROVISIONAL
    event = MatchEvent.objects.get(tournament=tournament, action="reopen_results")
    assert event.by == director and "wrong team" in event.detail
    match.refresh_from_db()
    enter_deal(match, MADE, by=referee)
    tournament = finish(tournament, director)
    assert tournament.results_state() == Tournament.Results.PROVISIONAL
    assert tournament.final_at > timezone.now() + datetime.timedelta(minutes=29)


def test_reopening_needs_a_director_a_reason_and_a_finished_tournament(match, referee, director):
    tournament = match.tournament
    with pytest.raises(ResultsNotFinished):
        reopen_results(tournament, by=director, reason="why not")
    tournament = finish(tournament, director, minutes_ago=31)
    with pytest.raises(NotAllowed):
        reopen_results(tournament, by=referee, reason="I want to")
    for reason, field in (("  ", "reason"), ("x" * 201, "reason"), ("ok\u202eko", "reason")):
        with pytest.raises(ServiceError) as refused:
            reopen_results(tournament, by=director, reason=reason)
        assert refused.value.field == field
    tournament.refresh_from_db()
    assert tournament.results_are_final()
    assert not MatchEvent.objects.filter(action="reopen_results").exists()
