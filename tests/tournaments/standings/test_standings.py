"""Standings: hand-built tournaments with standings computed by hand, and the stored rows."""

from __future__ import annotations

import pytest

from bench.bigtournament import build_round_robin_tournament
from bench.deal_counts import deal_stats
from club.models import Membership
from tests.factories import (
    MatchFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.models import Deal, Match, Standing, Tournament
from tournaments.selectors import standings_after
from tournaments.services.deals import enter_deal
from tournaments.services.standings import recompute_standings
from tournaments.standings.lines import MatchResult, SideStats, TeamInfo
from tournaments.standings.table import compute_standings

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
NAMES = {A: "A", B: "B", C: "C", D: "D", E: "E", F: "F"}


def teams(*ids: int, withdrawn: tuple[int, ...] = ()) -> list[TeamInfo]:
    return [TeamInfo(id=i, seed=i, withdrawn=i in withdrawn) for i in ids]


def played(round_number: int, ns: int, ew: int | None, ns_total=0, ew_total=0, finished=True):
    played.counter += 1  # type: ignore[attr-defined]
    return MatchResult(
        id=played.counter,  # type: ignore[attr-defined]
        round_number=round_number,
        ns_team=ns,
        ew_team=ew,
        finished=finished,
        ns_total=ns_total,
        ew_total=ew_total,
    )


played.counter = 0  # type: ignore[attr-defined]


def order(lines) -> list[str]:
    return [f"{line.rank}{'=' if line.shared_rank else ''} {NAMES[line.team_id]}" for line in lines]


def test_head_to_head_breaks_a_tie_of_two_even_against_a_better_point_difference():
    result = compute_standings(
        teams(A, B, C),
        [
            played(1, A, B, 510, 500),  # A beats B by 10
            played(2, B, C, 900, 100),  # B wins big
            played(3, C, A, 500, 490),  # C beats A by 10
        ],
    )
    # A, B, C all 2 points; head-to-head among the three: 2 each, so point difference:
    # B +800 - 10 = +790, A +10 - 10 = 0, C -800 + 10 = -790.
    assert order(result[3]) == ["1 B", "2 A", "3 C"]

    result = compute_standings(
        teams(A, B, C),
        [
            played(1, A, B, 510, 500),  # A beats B
            played(2, B, C, 900, 100),  # B beats C
            played(3, C, A, 500, 500),  # draw
            played(3, C, B, 500, 500),  # draw
        ],
    )
    # A 3 points, B 3 points, C 2: A above B by head-to-head though B's difference is far better.
    assert order(result[3]) == ["1 A", "2 B", "3 C"]


def test_a_three_way_tie_is_split_by_head_to_head_then_again_among_the_teams_still_equal():
    result = compute_standings(
        teams(A, B, C, D, E, F),
        [
            played(1, A, B, 600, 500),  # A beats B
            played(1, C, D, 600, 400),  # C beats D
            played(2, B, C, 510, 500),  # B beats C, narrowly
            played(2, A, D, 500, 500),  # draw
            played(3, D, B, 600, 500),  # D beats B
            played(3, C, A, 400, 600),  # A beats C
            played(4, A, E, 500, 500),  # draw
            played(4, B, F, 600, 400),
            played(5, D, F, 500, 500),  # draw
            played(5, C, E, 900, 100),
            played(6, B, E, 600, 400),
            played(6, C, F, 900, 100),
            played(7, D, E, 600, 400),
        ],
    )
    final = result[7]
    # A, B, C, D have 6 points each. Head-to-head among the four: A 5, D 3, B 2, C 2.
    # B and C are still equal, so head-to-head again between them alone: B beat C. Point
    # difference would have put C (+1590) above B (+210). E and F have 1 point, never met:
    # point difference F -1000, E -1200.
    assert order(final) == ["1 A", "2 D", "3 B", "4 C", "5 F", "6 E"]
    assert [line.match_points for line in final] == [6, 6, 6, 6, 1, 1]
    by_team = {line.team_id: line for line in final}
    assert (by_team[B].point_difference, by_team[C].point_difference) == (210, 1590)


def test_a_cyclic_three_way_tie_falls_through_to_point_difference():
    result = compute_standings(
        teams(A, B, C, D),
        [
            played(1, A, B, 600, 500),  # +100 A
            played(1, C, D, 700, 300),  # +400 C
            played(2, B, C, 650, 500),  # +150 B
            played(2, D, A, 300, 500),  # +200 A
            played(3, C, A, 520, 500),  # +20 C
            played(3, B, D, 800, 200),  # +600 B
        ],
    )
    # A, B, C: 4 points, 2 each among themselves. Differences: B +650, A +280, C +270.
    assert order(result[3]) == ["1 B", "2 A", "3 C", "4 D"]
    # After round 1, A and C both 2 points, never met: C's difference (+400) is better.
    assert order(result[1]) == ["1 C", "2 A", "3 B", "4 D"]


def test_teams_equal_on_every_criterion_share_their_rank():
    result = compute_standings(
        teams(A, B, C, D),
        [played(1, A, C, 600, 400), played(1, B, D, 600, 400)],
    )
    assert order(result[1]) == ["1= A", "1= B", "3= C", "3= D"]


def test_a_bye_gives_nothing_and_counts_as_no_match():
    result = compute_standings(
        teams(A, B, C),
        [
            played(1, A, B, 600, 400),
            played(1, C, None),
            played(2, C, A, 600, 400),
            played(2, B, None),
        ],
    )
    lines = {line.team_id: line for line in result[2]}
    assert (lines[B].played, lines[B].match_points, lines[B].points_for) == (1, 0, 400)
    assert (lines[C].played, lines[C].won, lines[C].match_points) == (1, 1, 2)
    assert order(result[2]) == ["1 C", "2 A", "3 B"]


def test_a_match_still_being_played_counts_nothing_yet():
    result = compute_standings(
        teams(A, B, C, D),
        [played(1, A, B, 600, 400), played(1, C, D, 300, 0, finished=False)],
    )
    lines = {line.team_id: line for line in result[1]}
    assert (lines[C].played, lines[C].points_for, lines[D].points_against) == (0, 0, 0)


def test_a_withdrawn_team_keeps_its_results_and_is_listed_last_from_the_round_after_its_last():
    result = compute_standings(
        teams(A, B, C, D, withdrawn=(A,)),
        [
            played(1, A, B, 900, 100),  # A wins big, then withdraws
            played(1, C, D, 600, 400),
            played(2, B, None),  # A's remaining matches became byes for its opponents
            played(2, C, D, 500, 450),
        ],
    )
    assert order(result[1]) == ["1 A", "2 C", "3 D", "4 B"]
    assert not any(line.withdrawn for line in result[1])
    final = result[2]
    assert order(final) == ["1 C", "2 D", "3 B", "4 A"]
    assert [line.withdrawn for line in final] == [False, False, False, True]
    assert (final[3].played, final[3].match_points) == (1, 2)


def test_sonneborn_berger_and_custom_match_points():
    matches = [
        played(1, A, B, 600, 400),
        played(1, C, D, 600, 400),
        played(2, A, C, 400, 600),
        played(2, B, D, 600, 400),
        played(3, A, D, 600, 400),
        played(3, B, C, 600, 400),
    ]
    result = compute_standings(
        teams(A, B, C, D),
        matches,
        tie_breaks=["match_points", "sonneborn_berger", "wins"],
        points=(3, 1, 0),
    )
    # A, B, C: 6 points each, D 0. SB: A beat B (6) and D (0) = 3*6 = 18; B beat D and C
    # = 3*0 + 3*6 = 18; C beat D and A = 0 + 18 = 18. All equal, wins equal: shared.
    assert order(result[3]) == ["1= A", "1= B", "1= C", "4 D"]
    assert [line.sonneborn_berger for line in result[3]] == [18, 18, 18, 0]


def test_deal_counts_are_summed_for_the_team_and_differences_kept():
    match = played(1, A, B, 600, 400)._replace(
        ns_stats=SideStats(deals=5, contracts_taken=3, contracts_made=2, litiges=1),
        ew_stats=SideStats(deals=5, contracts_taken=2, contracts_dedans=2, capots=1),
    )
    lines = {line.team_id: line for line in compute_standings(teams(A, B), [match])[1]}
    assert (lines[A].deals, lines[A].contracts_taken, lines[A].contracts_made) == (5, 3, 2)
    assert (lines[B].contracts_dedans, lines[B].capots, lines[B].point_difference) == (2, 1, -200)


# -- stored rows, through the deal services -------------------------------------------------

NS_98_BELOTE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
EW_CAPOT = {"taker": "E", "trump": "S", "capot": "EW"}
NS_DEDANS = {"taker": "S", "trump": "D", "points": {"team": "NS", "cards": 70}}


@pytest.fixture
def one_deal_tournament(db):
    """Four teams, rounds of one deal each (house rules: no target, one deal)."""
    tournament = TournamentFactory(rules={"target": None, "max_deals": 1})
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "director")
    four = [TeamFactory(tournament=tournament, seed=i, name=f"T{i}") for i in range(1, 5)]
    return tournament, director, four


def _match(tournament, round_number, ns, ew, table=1):
    round_ = tournament.rounds.filter(number=round_number).first() or RoundFactory(
        tournament=tournament, number=round_number
    )
    return MatchFactory(round=round_, tournament=tournament, table=table, ns_team=ns, ew_team=ew)


def test_it_stores_a_row_per_team_per_round_from_deals_entered_through_the_service(
    one_deal_tournament,
):
    tournament, director, (t1, t2, t3, t4) = one_deal_tournament
    enter_deal(_match(tournament, 1, t1, t2, 1), NS_98_BELOTE, by=director)  # 118 - 64
    enter_deal(_match(tournament, 1, t3, t4, 2), EW_CAPOT, by=director)  # 0 - 252
    playing = _match(tournament, 2, t1, t3, 1)  # not played yet
    tournament.refresh_from_db()

    assert recompute_standings(tournament.pk) is True

    tournament.refresh_from_db()
    assert tournament.standings_seq == tournament.change_seq == 2
    assert tournament.standings_computed_at is not None
    rows = list(Standing.objects.filter(tournament=tournament).order_by("rank", "team__seed"))
    assert [(r.round_number, r.team.name, r.rank_label) for r in rows] == [
        (1, "T4", "1"),
        (1, "T1", "2"),
        (1, "T2", "3"),
        (1, "T3", "4"),
    ]
    t4_row, t1_row, t2_row, t3_row = rows
    assert (t1_row.won, t1_row.match_points, t1_row.points_for, t1_row.points_against) == (
        1,
        2,
        118,
        64,
    )
    assert (t1_row.deals, t1_row.contracts_taken, t1_row.contracts_made, t1_row.belotes) == (
        1,
        1,
        1,
        1,
    )
    assert (t2_row.contracts_taken, t2_row.belotes, t2_row.point_difference) == (0, 0, -54)
    assert (t4_row.capots, t4_row.contracts_made, t4_row.points_for) == (1, 1, 252)
    assert (t3_row.lost, t3_row.points_for) == (1, 0)
    assert playing.status == Match.Status.SCHEDULED


def test_it_does_nothing_when_the_standings_are_current_and_rebuilds_when_forced(
    one_deal_tournament,
):
    tournament, director, (t1, t2, *_rest) = one_deal_tournament
    enter_deal(_match(tournament, 1, t1, t2), NS_DEDANS, by=director)
    assert recompute_standings(tournament.pk) is True
    first = list(Standing.objects.filter(tournament=tournament).values_list("team_id", "rank"))
    assert recompute_standings(tournament.pk) is False
    assert recompute_standings(tournament.pk, force=True) is True
    again = list(Standing.objects.filter(tournament=tournament).values_list("team_id", "rank"))
    assert first == again
    row = Standing.objects.get(tournament=tournament, team=t1)
    assert (row.contracts_taken, row.contracts_dedans, row.points_against) == (1, 1, 162)


def test_it_answers_false_for_a_tournament_that_no_longer_exists(db):
    assert recompute_standings(987654) is False


def test_the_number_of_queries_does_not_grow_with_the_tournament(db, django_assert_max_num_queries):
    small = build_round_robin_tournament(4, 2)
    large = build_round_robin_tournament(12, 3)
    counts = []
    for tournament in (small, large):
        with django_assert_max_num_queries(12) as captured:
            assert recompute_standings(tournament.pk) is True
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert Standing.objects.filter(tournament=large).count() == 12  # the latest round's


def test_a_full_round_robin_ranks_every_team_in_every_round(db):
    tournament = build_round_robin_tournament(6, 2)
    recompute_standings(tournament.pk)
    tournament.refresh_from_db()
    for round_number in range(1, 6):
        rows = standings_after(tournament, round_number).lines()
        assert len(rows) == 6
        assert {r.played for r in rows} == {round_number}
        assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)
    final = list(Standing.objects.filter(tournament=tournament, round_number=5))
    assert [r.match_points for r in final] == sorted((r.match_points for r in final), reverse=True)
    assert Tournament.objects.get(pk=tournament.pk).standings_computed_at is not None


def test_the_deal_aggregate_equals_counting_the_deals_one_by_one(db):
    tournament = build_round_robin_tournament(6, 12, seed=7)
    match = Match.objects.filter(tournament=tournament).first()
    # A thrown-in deal (no taker) and a litige, so every outcome is counted.
    Deal.objects.create(match=match, number=99, entry={}, outcome="thrown_in")
    stats = deal_stats(tournament.pk)
    expected: dict = {}
    for deal in Deal.objects.filter(match__tournament=tournament):
        for side in ("NS", "EW"):
            counts = expected.setdefault((deal.match_id, side), [0] * 7)
            counts[0] += deal.outcome != "thrown_in"
            took = deal.taker_side == side
            counts[1] += took
            counts[2] += took and deal.outcome == "made"
            counts[3] += took and deal.outcome == "dedans"
            counts[4] += deal.capot_side == side
            counts[5] += deal.belote_side == side
            counts[6] += took and deal.outcome == "litige"
    assert {key: [getattr(value, f) for f in FIELDS] for key, value in stats.items()} == expected
    assert any(value[6] for value in expected.values())  # litiges were there to count
    assert stats[(match.id, "NS")].deals == expected[(match.id, "NS")][0]
    recompute_standings(tournament.pk)
    for row in Standing.objects.filter(tournament=tournament):
        assert row.contracts_taken == row.contracts_made + row.contracts_dedans + row.litiges


FIELDS = (
    "deals",
    "contracts_taken",
    "contracts_made",
    "contracts_dedans",
    "capots",
    "belotes",
    "litiges",
)


def test_an_unknown_tie_break_is_skipped_rather_than_failing_the_recompute():
    result = compute_standings(
        teams(A, B),
        [played(1, A, B, 400, 600)],
        tie_breaks=["match_points", "coin_toss", "points_for"],
    )
    assert order(result[1]) == ["1 B", "2 A"]


def test_two_recomputes_in_one_transaction_see_the_change_between_them(one_deal_tournament):
    tournament, director, (t1, t2, t3, t4) = one_deal_tournament
    enter_deal(_match(tournament, 1, t1, t2, 1), NS_98_BELOTE, by=director)
    recompute_standings(tournament.pk)
    enter_deal(_match(tournament, 1, t3, t4, 2), EW_CAPOT, by=director)
    recompute_standings(tournament.pk)
    ranks = dict(Standing.objects.filter(tournament=tournament).values_list("team__name", "rank"))
    assert ranks == {"T4": 1, "T1": 2, "T2": 3, "T3": 4}
    assert Standing.objects.filter(tournament=tournament).count() == 4


def test_a_recompute_mends_changed_missing_and_stray_rows_and_leaves_the_others(db):
    tournament = build_round_robin_tournament(6, 2, seed=11)
    recompute_standings(tournament.pk)
    rows = Standing.objects.filter(tournament=tournament)
    fresh = sorted(rows.values_list(*STORED))
    untouched = dict(rows.filter(rank__gt=2).values_list("pk", "rank"))
    rows.filter(round_number=5, rank=2).update(rank=0, points_for=-1, shared_rank=True)
    rows.filter(round_number=5, rank=1).delete()
    stray = rows.filter(round_number=5).first()
    Standing.objects.create(tournament=tournament, team=stray.team, round_number=9, rank=1)
    Standing.objects.create(tournament=tournament, team=stray.team, round_number=3, rank=1)

    assert recompute_standings(tournament.pk, force=True) is True

    assert sorted(rows.values_list(*STORED)) == fresh
    assert dict(rows.filter(rank__gt=2).values_list("pk", "rank")) == untouched


STORED = (
    "round_number",
    "team_id",
    "rank",
    "shared_rank",
    "withdrawn",
    "played",
    "match_points",
    "points_for",
    "points_against",
    "sonneborn_berger",
    "deals",
    "contracts_taken",
    "belotes",
)
