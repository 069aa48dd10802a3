"""A recompute ranks again only the rounds from the first whose inputs changed (their digests)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.db.models import F

from bench.bigtournament import build_round_robin_tournament
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory
from tests.tournaments.pages_world import MADE_BY_NS, build_world
from tournaments.models import Match, Standing, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.standings import (
    complete_past_standings,
    recompute_current_standings,
    recompute_standings,
)
from tournaments.standings.digests import (
    STALE,
    first_changed_round,
    stale_rounds,
    with_past_rounds_stale,
)
from tournaments.standings.names import LIVE_ROUND
from tournaments.standings.table import Line, MatchResult, Tabulation, TeamInfo, compute_standings

A, B, C, D = 1, 2, 3, 4
TEAMS = [TeamInfo(id=i, seed=i) for i in (A, B, C, D)]


def result(match_id: int, round_number: int, ns: int, ew: int, ns_total: int, ew_total: int):
    return MatchResult(match_id, round_number, ns, ew, True, ns_total, ew_total)


MATCHES = [
    result(1, 1, A, B, 1200, 800),
    result(2, 1, C, D, 700, 1100),
    result(3, 2, A, C, 900, 1000),
    result(4, 2, B, D, 1000, 1000),
    result(5, 3, A, D, 1300, 600),
    result(6, 3, B, C, 500, 1400),
]


def digests(matches=MATCHES, teams=TEAMS, **settings) -> list[str]:
    return Tabulation(teams, matches, **settings).digests()


def test_a_change_in_round_two_changes_the_digests_of_rounds_two_and_three_only():
    before = digests()
    changed = [*MATCHES[:2], result(3, 2, A, C, 900, 1100), *MATCHES[3:]]
    after = digests(changed)
    assert len(after) == 3
    assert after[0] == before[0]
    assert after[1] != before[1] and after[2] != before[2]
    assert first_changed_round(before, after) == 2


def test_the_digests_do_not_depend_on_the_order_the_matches_are_read_in():
    assert digests(list(reversed(MATCHES))) == digests()


def test_another_process_computes_the_same_digests():
    """They are stored and compared by other workers: nothing may depend on the process
    (hash seeds, object identities, reference counts)."""
    script = "from tests.tournaments.test_standings_digests import digests; print(digests())"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {script}"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    assert out.strip() == str(digests())


def test_tie_breaks_points_and_a_withdrawal_change_every_round():
    before = digests()
    withdrawn = [TeamInfo(id=i, seed=i, withdrawn=i == D) for i in (A, B, C, D)]
    for other in (
        digests(tie_breaks=["match_points", "points_for"]),
        digests(points=(3, 1, 0)),
        digests(teams=withdrawn),
    ):
        assert first_changed_round(before, other) == 1


def test_a_new_round_is_the_first_changed_and_a_round_gone_leaves_nothing_to_rank():
    two_rounds = digests(MATCHES[:4])
    three_rounds = digests()
    assert first_changed_round(two_rounds, three_rounds) == 3
    assert first_changed_round(three_rounds, two_rounds) == 3
    assert first_changed_round([], three_rounds) == 1
    assert first_changed_round(three_rounds, three_rounds) == 4


def test_the_lines_from_a_round_on_equal_those_of_a_whole_computation():
    whole = compute_standings(TEAMS, MATCHES)
    assert Tabulation(TEAMS, MATCHES).lines(from_round=3) == {3: whole[3]}
    assert Tabulation(TEAMS, MATCHES).lines(from_round=4) == {}
    assert Tabulation(TEAMS, MATCHES).lines(1, 2) == {1: whole[1], 2: whole[2]}
    assert Tabulation(TEAMS, MATCHES).lines(2, 2) == {2: whole[2]}


def test_the_past_rounds_a_change_reaches_are_stale_and_the_latest_keeps_its_digest():
    new = ["d1", "d2", "d3", "d4", "d5"]
    # A change in round 2 of 5: rounds 2-4 wait, round 5 is written with its digest.
    assert with_past_rounds_stale(new, 2, 5) == ["d1", STALE, STALE, STALE, "d5"]
    assert stale_rounds(with_past_rounds_stale(new, 2, 5)) == [2, 3, 4]
    assert stale_rounds(with_past_rounds_stale(new, 2, 5), 3) == [2, 3]
    # A change in the latest round, or a new round: nothing waits.
    assert with_past_rounds_stale(new, 5, 5) == new
    assert with_past_rounds_stale(new, 6, 5) == new
    assert with_past_rounds_stale([], 1, 0) == []
    # A stale round is a changed one for the next recompute.
    assert first_changed_round(["d1", STALE, "d3"], ["d1", "d2", "d3"]) == 2


def test_what_a_bye_scores_changes_every_round():
    with_bye = [*MATCHES, result(7, 3, A, None, 0, 0)]
    counting_nothing = digests(with_bye)
    for other in (digests(with_bye, bye_points=500), digests(with_bye, bye_points=400)):
        assert first_changed_round(counting_nothing, other) == 1
    assert digests(with_bye, bye_points=500) != digests(with_bye, bye_points=400)


def in_play(ns_total: int, ew_total: int) -> MatchResult:
    return MatchResult(7, 3, A, B, False, ns_total, ew_total, "", playing=True)


def test_a_deal_of_a_match_in_play_changes_no_digest_and_its_last_deal_changes_its_round():
    before = digests([*MATCHES, in_play(240, 180)])
    assert digests([*MATCHES, in_play(400, 180)]) == before
    finished = result(7, 3, A, B, 400, 180)
    assert first_changed_round(before, digests([*MATCHES, finished])) == 3


def test_the_lines_from_a_round_on_equal_a_whole_computation_with_byes_and_a_live_table():
    matches = [*MATCHES, result(7, 4, A, None, 0, 0), in_play(240, 180)._replace(round_number=4)]
    settings = {"tie_breaks": ["match_points", "buchholz"], "bye_points": 500}
    whole = compute_standings(TEAMS, matches, live=True, **settings)
    assert set(whole) == {1, 2, 3, LIVE_ROUND}
    tabulation = Tabulation(TEAMS, matches, **settings)
    assert tabulation.lines(3, live=True) == {3: whole[3], LIVE_ROUND: whole[LIVE_ROUND]}
    assert tabulation.lines(4, live=True) == {LIVE_ROUND: whole[LIVE_ROUND]}
    assert tabulation.lines(4) == {}


# --- the store -------------------------------------------------------------------------------


def _change_a_match(tournament: Tournament, round_number: int, points: int) -> None:
    """What a corrected deal does: the match's totals move and the change is recorded."""
    match = Match.objects.filter(
        tournament=tournament, round__number=round_number, ew_team__isnull=False
    ).first()
    assert match is not None
    Match.objects.filter(pk=match.pk).update(ns_total=F("ns_total") + points)
    Tournament.objects.filter(pk=tournament.pk).update(change_seq=F("change_seq") + 1)


def _stored(tournament: Tournament) -> list[tuple]:
    return sorted(
        Standing.objects.filter(tournament=tournament).values_list(
            "round_number", "team_id", "rank", "shared_rank", "points_for", "points_against"
        )
    )


@pytest.mark.django_db
def test_a_change_in_the_last_round_leaves_the_rows_of_the_rounds_before_untouched():
    tournament = build_round_robin_tournament(6, 2, seed=3)
    recompute_standings(tournament.pk)
    rows = Standing.objects.filter(tournament=tournament)
    # Rows of rounds 1-4 spoiled by hand: a recompute that ranks only round 5 leaves them.
    rows.filter(round_number__lt=5).update(rank=0)
    _change_a_match(tournament, 5, 40)

    assert recompute_standings(tournament.pk) is True

    assert set(rows.filter(round_number__lt=5).values_list("rank", flat=True)) == {0}
    assert 0 not in set(rows.filter(round_number=5).values_list("rank", flat=True))


@pytest.mark.django_db
def test_after_changes_in_any_round_the_rows_equal_a_rebuild_from_scratch():
    tournament = build_round_robin_tournament(6, 2, seed=5)
    recompute_standings(tournament.pk)
    for round_number, points in ((5, 300), (2, 500), (2, -500), (4, 900)):
        _change_a_match(tournament, round_number, points)
        assert recompute_standings(tournament.pk) is True
    kept = _stored(tournament)

    Standing.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(standings_digests=[])
    assert recompute_standings(tournament.pk, force=True) is True

    assert _stored(tournament) == kept


@pytest.mark.django_db
def test_forcing_compares_every_round_and_mends_rows_edited_by_hand():
    tournament = build_round_robin_tournament(6, 2, seed=7)
    recompute_standings(tournament.pk)
    fresh = _stored(tournament)
    Standing.objects.filter(tournament=tournament, round_number=1).update(rank=0)

    assert recompute_standings(tournament.pk, force=True) is True

    assert _stored(tournament) == fresh


@pytest.mark.django_db
def test_rows_stored_by_another_recompute_meanwhile_are_ranked_again(monkeypatch):
    """Digests read before the lock may be older than the rows: the lock reads them again."""
    tournament = build_round_robin_tournament(6, 2, seed=9)
    recompute_standings(tournament.pk)
    fresh = _stored(tournament)
    real = Tabulation.digests
    calls = []

    def another_recompute_stored_round_two_meanwhile(self):
        ours = real(self)
        calls.append(1)
        if len(calls) > 1:
            return ours  # the past rounds' step, after
        # As if another recompute had just stored rows of other results from round 2 on.
        Standing.objects.filter(tournament=tournament, round_number__gte=2).update(rank=0)
        Tournament.objects.filter(pk=tournament.pk).update(
            standings_digests=[ours[0], "another", *ours[2:]]
        )
        return ours

    monkeypatch.setattr(Tabulation, "digests", another_recompute_stored_round_two_meanwhile)
    Tournament.objects.filter(pk=tournament.pk).update(change_seq=F("change_seq") + 1)

    assert recompute_standings(tournament.pk) is True

    assert _stored(tournament) == fresh


@pytest.mark.django_db
def test_a_tie_break_change_ranks_the_latest_round_first_and_the_past_rounds_after():
    tournament = build_round_robin_tournament(6, 2, seed=11)
    recompute_standings(tournament.pk)
    before = _stored(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        tie_breaks=["match_points", "sonneborn_berger", "points_for"],
        change_seq=F("change_seq") + 1,
    )

    assert recompute_current_standings(tournament.pk) is True

    stored = Tournament.objects.get(pk=tournament.pk)
    assert stale_rounds(stored.standings_digests) == [1, 2, 3, 4]
    assert stored.standings_current  # what the pages show is up to date
    version = stored.standings_computed_at
    past = [row for row in _stored(tournament) if row[0] < 5]
    assert past == [row for row in before if row[0] < 5]  # not yet ranked again

    assert complete_past_standings(tournament.pk) is True

    stored = Tournament.objects.get(pk=tournament.pk)
    assert stale_rounds(stored.standings_digests) == []
    assert stored.standings_computed_at > version  # a new version: pinned pages fetch it
    kept = _stored(tournament)
    assert [r for r in kept if r[0] < 5] != past  # the new order moved some past ranks
    Standing.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(standings_digests=[])
    assert recompute_standings(tournament.pk, force=True) is True
    assert _stored(tournament) == kept
    assert complete_past_standings(tournament.pk) is False  # nothing left


@pytest.mark.django_db
def test_past_rounds_left_stale_by_a_step_that_died_are_ranked_by_the_next_recompute():
    tournament = build_round_robin_tournament(6, 2, seed=13)
    recompute_standings(tournament.pk)
    _change_a_match(tournament, 2, 600)
    assert recompute_current_standings(tournament.pk) is True  # the worker dies here
    _change_a_match(tournament, 5, 40)

    assert recompute_standings(tournament.pk) is True

    kept = _stored(tournament)
    Standing.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(standings_digests=[])
    recompute_standings(tournament.pk, force=True)
    assert _stored(tournament) == kept


@pytest.mark.django_db
def test_the_past_rounds_step_leaves_rows_to_a_newer_recompute(django_assert_num_queries):
    tournament = build_round_robin_tournament(6, 2, seed=15)
    recompute_standings(tournament.pk)
    with django_assert_num_queries(1):
        assert complete_past_standings(tournament.pk) is False  # nothing stale: one read
    _change_a_match(tournament, 2, 600)
    recompute_current_standings(tournament.pk)
    # A newer change's recompute stored its rows after this step read the results.
    Tournament.objects.filter(pk=tournament.pk).update(standings_seq=F("standings_seq") + 5)

    assert complete_past_standings(tournament.pk) is False

    stored = Tournament.objects.get(pk=tournament.pk)
    assert stale_rounds(stored.standings_digests) == [2, 3, 4]


@pytest.mark.django_db
def test_a_deal_of_a_match_in_play_rewrites_the_live_table_and_no_round():
    world = build_world()
    tournament = world.tournament
    recompute_standings(tournament.pk)
    rounds = Standing.objects.filter(tournament=tournament).exclude(round_number=LIVE_ROUND)
    # Spoiled by hand: a recompute that ranks no round leaves them as they are.
    rounds.update(rank=0)

    enter_deal(world.other_match, MADE_BY_NS, by=world.director)
    recompute_standings(tournament.pk)

    assert set(rounds.values_list("rank", flat=True)) == {0}
    live = Standing.objects.filter(tournament=tournament, round_number=LIVE_ROUND)
    assert sorted(live.values_list("in_play", flat=True)) == [0, 0, 1, 1]
    assert 0 not in set(live.values_list("rank", flat=True))


@pytest.mark.django_db
def test_the_tournaments_bye_points_reach_the_rows_of_every_round():
    tournament = TournamentFactory(
        format=Tournament.Format.SWISS, round_count=2, rules={"target": None, "max_deals": 1}
    )
    ana, bob, cyd = (TeamFactory(tournament=tournament, seed=seed) for seed in (1, 2, 3))
    first = RoundFactory(tournament=tournament, number=1)
    MatchFactory(
        round=first, ns_team=ana, ew_team=bob, status=Match.Status.FINISHED,
        ns_total=100, ew_total=62, winner="NS",
    )  # fmt: skip
    MatchFactory(round=first, ns_team=cyd, ew_team=None)
    recompute_standings(tournament.pk)
    cyd_line = Standing.objects.filter(tournament=tournament, team=cyd, round_number=1)
    assert cyd_line.get().points_for == tournament.bye_points_in_use

    Tournament.objects.filter(pk=tournament.pk).update(
        bye_points=77, change_seq=F("change_seq") + 1
    )
    assert recompute_standings(tournament.pk) is True

    assert cyd_line.get().points_for == 77


def test_a_row_is_a_lines_fields_in_order_and_the_store_writes_its_figures():
    """The store writes `row[2:]` of `Tabulation.rows`: a Line's stored values exactly."""
    tabulation = Tabulation(TEAMS, MATCHES)
    rows = tabulation.rows(1, live=True)
    lines = tabulation.lines(1, live=True)
    assert rows.keys() == lines.keys()
    for number, round_rows in rows.items():
        for row, line in zip(round_rows, lines[number], strict=True):
            assert Line(*row) == line
            assert row[0] == line.team_id and row[2:] == line.stored()
