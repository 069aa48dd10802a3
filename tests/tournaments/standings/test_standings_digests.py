"""Round digests: the store ranks the latest round again only when they moved, and a past
round's lines, computed when asked, are kept under its digest."""

from __future__ import annotations

import os
import subprocess
import sys
from unittest import mock

import pytest
from django.db.models import F

from bench.bigtournament import build_round_robin_tournament
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory
from tests.tournaments.pages.pages_world import MADE_BY_NS, build_world
from tournaments.models import Match, Standing, Tournament
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.results import table_of
from tournaments.selectors.standings import past_round_rows
from tournaments.services.deals import enter_deal
from tournaments.services.standings import recompute_standings
from tournaments.standings.lines import Line, MatchResult, TeamInfo
from tournaments.standings.names import LIVE_ROUND, ROW_FIELDS
from tournaments.standings.table import Tabulation, compute_standings

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


def test_the_digests_do_not_depend_on_the_order_the_matches_are_read_in():
    assert digests(list(reversed(MATCHES))) == digests()


def test_another_process_computes_the_same_digests():
    """They are stored and compared by other workers: nothing may depend on the process
    (hash seeds, object identities, reference counts)."""
    script = (
        "from tests.tournaments.standings.test_standings_digests import digests; print(digests())"
    )
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
        assert all(old != new for old, new in zip(before, other, strict=True))


def test_a_new_round_adds_a_digest_and_keeps_the_others():
    two_rounds = digests(MATCHES[:4])
    three_rounds = digests()
    assert three_rounds[:2] == two_rounds and len(three_rounds) == 3


def test_the_lines_from_a_round_on_equal_those_of_a_whole_computation():
    whole = compute_standings(TEAMS, MATCHES)
    assert Tabulation(TEAMS, MATCHES).lines(from_round=3) == {3: whole[3]}
    assert Tabulation(TEAMS, MATCHES).lines(from_round=4) == {}
    assert Tabulation(TEAMS, MATCHES).lines(1, 2) == {1: whole[1], 2: whole[2]}
    assert Tabulation(TEAMS, MATCHES).lines(2, 2) == {2: whole[2]}


def test_what_a_bye_scores_changes_every_round():
    with_bye = [*MATCHES, result(7, 3, A, None, 0, 0)]
    counting_nothing = digests(with_bye)
    for other in (digests(with_bye, bye_points=500), digests(with_bye, bye_points=400)):
        assert all(old != new for old, new in zip(counting_nothing, other, strict=True))
    assert digests(with_bye, bye_points=500) != digests(with_bye, bye_points=400)


def in_play(ns_total: int, ew_total: int) -> MatchResult:
    return MatchResult(7, 3, A, B, False, ns_total, ew_total, "", playing=True)


def test_a_deal_of_a_match_in_play_changes_no_digest_and_its_last_deal_changes_its_round():
    before = digests([*MATCHES, in_play(240, 180)])
    assert digests([*MATCHES, in_play(400, 180)]) == before
    finished = digests([*MATCHES, result(7, 3, A, B, 400, 180)])
    assert finished[:2] == before[:2] and finished[2] != before[2]


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


def _every_round(tournament: Tournament) -> dict[int, list[tuple]]:
    """Every round's lines as the readers get them: stored (the latest), else computed."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    latest = len(tournament.standings_digests)
    past = past_round_rows(tournament, range(1, latest))
    lines = {n: [tuple(row) for row in rows] for n, rows in past.items()}
    stored = (
        Standing.objects.filter(tournament=tournament)
        .exclude(round_number=LIVE_ROUND)
        .order_by("round_number", "rank", "team__seed", "pk")
        .values_list("round_number", "team_id", "team__seed", *ROW_FIELDS)
    )
    for number, *row in stored:
        lines.setdefault(number, []).append(tuple(row))
    return lines


def _from_scratch(tournament: Tournament) -> dict[int, list[tuple]]:
    """The same, every round computed afresh from the results."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    whole = table_of(tournament)
    return {
        n: [(line.team_id, line.seed, *line.stored()) for line in lines]
        for n, lines in whole.items()
        if n != LIVE_ROUND
    }


@pytest.fixture(autouse=True)
def _nothing_kept_in_this_process():
    """Past rounds kept by an earlier test (same ids, another database) are not this one's."""
    standings_selectors._kept.clear()


@pytest.mark.django_db
def test_only_the_latest_round_is_stored_and_rows_of_other_rounds_go():
    tournament = build_round_robin_tournament(6, 2, seed=3)
    assert recompute_standings(tournament.pk) is True
    rows = Standing.objects.filter(tournament=tournament)
    assert set(rows.values_list("round_number", flat=True)) == {5}
    # A past round's rows (as the store before kept them, or made by hand) are deleted.
    line = rows.first()
    assert line is not None
    line.pk, line.round_number = None, 2
    line.save()
    _change_a_match(tournament, 5, 40)

    assert recompute_standings(tournament.pk) is True

    assert set(rows.values_list("round_number", flat=True)) == {5}


@pytest.mark.django_db
def test_a_change_of_the_latest_round_ranks_it_and_one_of_an_early_round_too():
    tournament = build_round_robin_tournament(6, 2, seed=5)
    recompute_standings(tournament.pk)
    rows = Standing.objects.filter(tournament=tournament, round_number=5)
    rows.update(rank=0)  # spoiled by hand: a recompute that ranks round 5 mends them
    _change_a_match(tournament, 2, 500)

    assert recompute_standings(tournament.pk) is True

    assert 0 not in set(rows.values_list("rank", flat=True))


@pytest.mark.django_db
def test_after_changes_in_any_round_every_round_read_equals_a_rebuild_from_scratch():
    tournament = build_round_robin_tournament(6, 2, seed=5)
    recompute_standings(tournament.pk)
    assert _every_round(tournament) == _from_scratch(tournament)
    for round_number, points in ((5, 300), (2, 500), (2, -500), (4, 900)):
        _change_a_match(tournament, round_number, points)
        assert recompute_standings(tournament.pk) is True
        assert _every_round(tournament) == _from_scratch(tournament)


@pytest.mark.django_db
def test_forcing_ranks_the_latest_round_and_mends_rows_edited_by_hand():
    tournament = build_round_robin_tournament(6, 2, seed=7)
    recompute_standings(tournament.pk)
    fresh = _stored(tournament)
    Standing.objects.filter(tournament=tournament).update(rank=0)
    assert recompute_standings(tournament.pk) is False  # nothing changed: nothing ranked

    assert recompute_standings(tournament.pk, force=True) is True

    assert _stored(tournament) == fresh


@pytest.mark.django_db
def test_rows_stored_by_another_recompute_meanwhile_are_ranked_again(monkeypatch):
    """Digests read before the lock may be older than the rows: the lock reads them again."""
    tournament = build_round_robin_tournament(6, 2, seed=9)
    recompute_standings(tournament.pk)
    fresh = _stored(tournament)
    real = Tabulation.digests

    def another_recompute_stored_other_rows_meanwhile(self):
        ours = real(self)
        # As if another recompute had just stored rows of other results.
        Standing.objects.filter(tournament=tournament).update(rank=0)
        Tournament.objects.filter(pk=tournament.pk).update(
            standings_digests=[*ours[:-1], "another"]
        )
        return ours

    monkeypatch.setattr(Tabulation, "digests", another_recompute_stored_other_rows_meanwhile)
    # A deal of a match in play: these digests are the stored ones, until the lock.
    Tournament.objects.filter(pk=tournament.pk).update(change_seq=F("change_seq") + 1)

    assert recompute_standings(tournament.pk) is True

    assert _stored(tournament) == fresh


@pytest.mark.django_db
def test_a_tie_break_change_writes_the_latest_round_and_a_past_round_is_ranked_when_asked(
    django_assert_max_num_queries,
):
    tournament = build_round_robin_tournament(6, 2, seed=11)
    recompute_standings(tournament.pk)
    before = _every_round(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        tie_breaks=["match_points", "sonneborn_berger", "points_for"],
        change_seq=F("change_seq") + 1,
    )

    # The tournament, its teams and matches; the lock, the digests, the rows read and
    # written (updates in one statement on PostgreSQL, one by one elsewhere).
    with django_assert_max_num_queries(6 + 6):
        assert recompute_standings(tournament.pk) is True

    after = _every_round(tournament)
    assert after == _from_scratch(tournament)
    assert after != before  # the new order moved some ranks
    assert next(n for n in after if after[n] != before[n]) < 5  # past rounds' too


@pytest.mark.django_db
def test_a_past_round_is_kept_under_its_digest(django_assert_num_queries):
    tournament = build_round_robin_tournament(6, 2, seed=13)
    recompute_standings(tournament.pk)
    tournament = Tournament.objects.get(pk=tournament.pk)
    with django_assert_num_queries(2):  # computed: the teams and the matches
        first = past_round_rows(tournament, [2, 3])
    with django_assert_num_queries(0):  # kept in this process
        assert past_round_rows(tournament, [2, 3]) == first
    standings_selectors._kept.clear()
    with django_assert_num_queries(0):  # kept in the shared cache, for every process
        assert past_round_rows(tournament, [3, 2]) == first
    # Round 4 changes: round 3 keeps its digest and its lines, round 4 is computed again.
    _change_a_match(tournament, 4, 600)
    recompute_standings(tournament.pk)
    tournament = Tournament.objects.get(pk=tournament.pk)
    with django_assert_num_queries(2):
        rows = past_round_rows(tournament, [3, 4])
    assert rows[3] == first[3]
    assert [tuple(r) for r in rows[4]] == _from_scratch(tournament)[4]
    assert past_round_rows(tournament, [0, 6]) == {}  # no such round: nothing


@pytest.mark.django_db
def test_a_past_round_is_computed_while_the_cache_is_down():
    tournament = build_round_robin_tournament(4, 2, seed=17)
    recompute_standings(tournament.pk)
    tournament = Tournament.objects.get(pk=tournament.pk)
    with (
        mock.patch.object(standings_selectors.cache, "get_many", side_effect=ConnectionError),
        mock.patch.object(standings_selectors.cache, "set_many", side_effect=ConnectionError),
    ):
        rows = past_round_rows(tournament, [1])
    assert [tuple(r) for r in rows[1]] == _from_scratch(tournament)[1]


@pytest.mark.django_db
def test_a_deal_of_a_match_in_play_rewrites_the_live_table_and_no_round():
    world = build_world()
    tournament = world.tournament
    recompute_standings(tournament.pk)
    rounds = Standing.objects.filter(tournament=tournament).exclude(round_number=LIVE_ROUND)
    # Spoiled by hand: a recompute that ranks no round leaves them as they are.
    assert rounds.exists()
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
