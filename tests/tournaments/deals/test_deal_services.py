"""Entering, correcting and removing deals: numbers, replay, stored results, keys, audit, permissions."""

from __future__ import annotations

import pytest

from club.models import Membership
from scoring.engine import Team, codec, play_match
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.errors import (
    Conflict,
    DealRefused,
    MatchClosed,
    MatchOver,
    NotAllowed,
)
from tournaments.models import DealAudit, Match, MatchEvent, Submission
from tournaments.services.deals import (
    close_match,
    correct_deal,
    enter_deal,
    remove_last_deal,
    reopen_match,
    replay,
)

pytestmark = pytest.mark.django_db

# Worked examples of docs/rules.md §6.
MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
LITIGE = {"taker": "N", "trump": "S", "points": {"team": "NS", "cards": 81}}
AFTER_LITIGE = {"taker": "E", "trump": "D", "points": {"team": "EW", "cards": 100}}
DEDANS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 70}}
CAPOT = {
    "taker": "N",
    "trump": "H",
    "capot": "NS",
    "declarations": {"NS": [{"type": "sequence", "length": 4}]},
}
THROWN_IN = {"taker": None}


@pytest.fixture
def referee():
    return UserFactory(username="ref")


@pytest.fixture
def match(referee):
    tournament = TournamentFactory(rules={"target": 500})
    return MatchFactory(round__tournament=tournament, referee=referee)


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "boss")


def test_it_numbers_deals_and_stores_the_engines_result(match, referee):
    first = enter_deal(match, MADE, by=referee)
    second = enter_deal(match, DEDANS, by=referee)

    assert (first.number, second.number) == (1, 2)
    assert (first.outcome, first.taker_side, first.belote_side) == ("made", "NS", "NS")
    assert (first.ns_score, first.ew_score, first.dealer) == (118, 64, "N")
    assert (second.outcome, second.ns_score, second.ew_score, second.dealer) == (
        "dedans",
        162,
        0,
        "E",
    )
    match.refresh_from_db()
    assert (match.ns_total, match.ew_total, match.deal_count) == (280, 64, 2)
    assert match.status == Match.Status.PLAYING
    assert first.result == codec.result_to_json(
        play_match({"target": 500}, "N", [MADE]).deals[0].result
    )


def test_a_litige_opens_the_pot_and_the_next_deal_takes_it(match, referee):
    litige = enter_deal(match, LITIGE, by=referee)
    match.refresh_from_db()
    assert (litige.outcome, litige.pot_in, match.pot) == ("litige", 81, 81)

    taken = enter_deal(match, AFTER_LITIGE, by=referee)
    match.refresh_from_db()
    assert (taken.ew_score, taken.ns_score, match.pot) == (181, 62, 0)
    assert taken.result["pot_awarded"] == {"NS": 0, "EW": 81}


def test_capot_and_thrown_in_deals(match, referee):
    capot = enter_deal(match, CAPOT, by=referee)
    thrown = enter_deal(match, THROWN_IN, by=referee)
    assert (capot.capot_side, capot.ns_score, capot.ew_score) == ("NS", 302, 0)
    assert (thrown.outcome, thrown.ns_score, thrown.ew_score, thrown.taker_side) == (
        "thrown_in",
        0,
        0,
        "",
    )
    # The dealer moves on after a thrown-in deal as after any other.
    assert replay(match).next_dealer.value == "S"


def test_it_stores_the_entry_as_the_engine_reads_it(match, referee):
    deal = enter_deal(
        match, {"taker": "S", "trump": "H", "points": {"team": "EW", "cards": 60}}, by=referee
    )
    assert deal.entry["declarations"] == {"NS": [], "EW": []}
    assert deal.entry["capot"] is None


def test_it_refuses_a_bad_deal_with_every_problem_at_its_path(match, referee):
    with pytest.raises(DealRefused) as refused:
        enter_deal(match, {"taker": "N", "points": {"team": "NS", "cards": 161}}, by=referee)
    paths = {p.path for p in refused.value.problems}
    assert {"trump", "points.cards"} <= paths
    assert match.deals.count() == 0


def test_it_refuses_a_deal_once_the_match_is_over_and_marks_the_winner(match, referee):
    for _ in range(3):
        enter_deal(match, CAPOT, by=referee)  # 302 a deal: NS pass 500 on the second
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
    assert (match.deal_count, match.winner) == (2, "NS")
    assert match.finished_at is not None
    with pytest.raises(MatchOver):
        enter_deal(match, MADE, by=referee)


def test_a_knockout_match_level_after_its_deals_takes_an_extra_deal(referee):
    rules = {"target": None, "max_deals": 2, "draws": "play_on"}
    knockout = MatchFactory(round__tournament=TournamentFactory(rules=rules), referee=referee)
    enter_deal(knockout, {**MADE, "belote": None}, by=referee)  # NS 98, EW 64
    enter_deal(knockout, {**DEDANS, "points": {"team": "EW", "cards": 98}}, by=referee)
    knockout.refresh_from_db()
    assert (knockout.ns_total, knockout.ew_total) == (162, 162)
    assert (knockout.status, knockout.winner) == (Match.Status.PLAYING, "")
    enter_deal(knockout, AFTER_LITIGE, by=referee)  # EW 100, NS 62
    knockout.refresh_from_db()
    assert (knockout.ns_total, knockout.ew_total) == (224, 262)
    assert (knockout.status, knockout.winner, knockout.deal_count) == (
        Match.Status.FINISHED,
        "EW",
        3,
    )


def test_a_correction_that_changes_the_winner_of_a_finished_match_replays_everything(
    match, referee
):
    enter_deal(match, CAPOT, by=referee)
    enter_deal(match, CAPOT, by=referee)
    match.refresh_from_db()
    assert match.winner == "NS"

    ew_capot = {"taker": "E", "trump": "S", "capot": "EW"}
    correct_deal(match, 1, ew_capot, by=referee)
    correct_deal(match, 2, ew_capot, by=referee)
    match.refresh_from_db()
    assert (match.winner, match.ew_total, match.ns_total) == ("EW", 504, 0)
    assert list(match.deals.values_list("ew_score", flat=True)) == [252, 252]


def test_a_correction_of_an_earlier_deal_moves_the_pot_that_follows(match, referee):
    enter_deal(match, MADE, by=referee)
    enter_deal(match, AFTER_LITIGE, by=referee)
    correct_deal(match, 1, LITIGE, by=referee)
    second = match.deals.get(number=2)
    assert (second.ew_score, second.result["pot_awarded"]["EW"]) == (181, 81)


def test_a_correction_that_leaves_deals_after_the_end_is_refused(match, referee):
    enter_deal(match, MADE, by=referee)
    enter_deal(match, CAPOT, by=referee)
    enter_deal(match, MADE, by=referee)
    with pytest.raises(DealRefused) as refused:
        correct_deal(match, 1, CAPOT, by=referee)
    assert any(p.code == "deal_after_end" for p in refused.value.problems)
    assert match.deals.get(number=1).entry["capot"] is None


def test_removing_the_last_deal_reopens_a_finished_match(match, referee):
    enter_deal(match, CAPOT, by=referee)
    enter_deal(match, CAPOT, by=referee)
    assert remove_last_deal(match, by=referee) == 2
    match.refresh_from_db()
    assert (match.status, match.winner, match.deal_count, match.ns_total) == (
        Match.Status.PLAYING,
        "",
        1,
        302,
    )
    assert remove_last_deal(match, by=referee) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    with pytest.raises(Conflict):
        remove_last_deal(match, by=referee)


def test_two_removals_of_the_same_deal_take_away_one_deal_only(match, referee):
    """The second of two removals sent at once for deal 2 finds deal 1 last: refused, kept."""
    enter_deal(match, MADE, by=referee)
    enter_deal(match, MADE, by=referee)
    assert remove_last_deal(match, by=referee, submission_key="a", expected_number=2) == 2
    with pytest.raises(Conflict) as refused:
        remove_last_deal(match, by=referee, submission_key="b", expected_number=2)
    assert refused.value.field == "number"
    assert list(match.deals.values_list("number", flat=True)) == [1]


def test_the_same_submission_key_stores_one_deal(match, referee):
    first = enter_deal(match, MADE, by=referee, submission_key="k1")
    again = enter_deal(match, MADE, by=referee, submission_key="k1")
    assert first.pk == again.pk
    assert match.deals.count() == 1
    assert Submission.objects.get(key="k1").deal_number == 1
    assert remove_last_deal(match, by=referee, submission_key="r1") == 1
    assert remove_last_deal(match, by=referee, submission_key="r1") == 1
    with pytest.raises(Conflict):
        enter_deal(match, MADE, by=referee, submission_key="r1")


def test_a_refused_deal_does_not_use_up_its_key(match, referee):
    with pytest.raises(DealRefused):
        enter_deal(match, {"taker": "N"}, by=referee, submission_key="k2")
    assert enter_deal(match, MADE, by=referee, submission_key="k2").number == 1


def test_every_change_is_audited_with_the_entry_before_and_after(match, referee, director):
    deal = enter_deal(match, MADE, by=referee)
    correct_deal(match, 1, DEDANS, by=director)
    remove_last_deal(match, by=referee)
    rows = list(
        DealAudit.objects.filter(match=match).values_list("action", "before", "after", "by")
    )
    assert [r[0] for r in rows] == ["entered", "corrected", "removed"]
    assert rows[0][1] is None and rows[0][2] == deal.entry
    assert rows[1][1] == deal.entry and rows[1][2]["taker"] == "E"
    assert rows[2][2] is None and rows[1][3] == director.pk


def test_every_change_bumps_the_tournaments_change_number(match, referee):
    before = match.tournament.change_seq
    enter_deal(match, MADE, by=referee)
    match.tournament.refresh_from_db()
    assert match.tournament.change_seq == before + 1


def test_it_rejects_a_deal_from_another_tables_referee(match):
    other = UserFactory(username="other")
    MatchFactory(round=match.round, tournament=match.tournament, referee=other)
    with pytest.raises(NotAllowed):
        enter_deal(match, MADE, by=other)


def test_it_rejects_an_anonymous_deal(match):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        enter_deal(match, MADE, by=AnonymousUser())
    with pytest.raises(NotAllowed):
        enter_deal(match, MADE, by=None)


def test_a_closed_match_is_read_only_for_its_referee_but_not_for_a_director(
    match, referee, director
):
    close_match(match, by=director)
    with pytest.raises(MatchClosed):
        enter_deal(match, MADE, by=referee)
    assert enter_deal(match, MADE, by=director).number == 1
    reopen_match(match, by=director)
    assert enter_deal(match, DEDANS, by=referee).number == 2
    assert list(MatchEvent.objects.values_list("action", flat=True)) == [
        "close_match",
        "reopen_match",
    ]


def test_only_a_director_closes_a_match(match, referee):
    with pytest.raises(NotAllowed):
        close_match(match, by=referee)


def test_replay_equals_the_stored_totals(match, referee):
    for entry in (MADE, LITIGE, THROWN_IN, AFTER_LITIGE, DEDANS):
        enter_deal(match, entry, by=referee)
    played = replay(match)
    match.refresh_from_db()
    assert (played.totals[Team.NS], played.totals[Team.EW]) == (match.ns_total, match.ew_total)
    assert played.pot == match.pot


def test_entering_a_deal_costs_a_fixed_number_of_queries(referee, django_assert_max_num_queries):
    long_match = MatchFactory(
        round__tournament=TournamentFactory(rules={"target": 100_000}), referee=referee
    )
    for _ in range(10):
        enter_deal(long_match, MADE, by=referee)
    # Whatever the number of deals before it: no query per earlier deal.
    with django_assert_max_num_queries(16):
        enter_deal(long_match, LITIGE, by=referee, submission_key="q")
