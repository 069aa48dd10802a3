"""The series table's arithmetic (seasons.arithmetic): tables computed by hand, and properties."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from seasons.arithmetic import (
    Evening,
    Result,
    Rules,
    handicap_points,
    rules_problems,
    series_table,
)

A, B, C, D, E = 1, 2, 3, 4, 5


def places(tournament_id, *order, ratings=None):
    """An evening where the players finished in `order` (a tuple: sharing that place)."""
    results = []
    place = 1
    for entry in order:
        shared = entry if isinstance(entry, tuple) else (entry,)
        results.extend(Result(player_id=p, place=place) for p in shared)
        place += len(shared)
    return Evening(tournament_id, tuple(results), ratings=ratings or {})


def scores(tournament_id, ratings=None, **by_player):
    return Evening(
        tournament_id,
        tuple(Result(player_id=int(p[1:]), score=s) for p, s in by_player.items()),
        ratings=ratings or {},
    )


def by_player(lines):
    return {line.player_id: line for line in lines}


# --- tables computed by hand ---------------------------------------------------------------

PLACE_RULES = Rules(points="place", place_points=(10, 7, 5), participation_points=2, best_of=2)
PLACE_EVENINGS = [places(11, A, B, C, D), places(12, B, A, D), places(13, C, D, B)]


def test_a_place_series_counts_the_best_two_evenings_a_missed_one_among_them():
    # A 10 7 (0) = 17, B 7 10 5 = 17, C 5 (0) 10 = 15, D 2 5 7 = 12.
    lines = series_table(PLACE_EVENINGS, PLACE_RULES)
    assert [(line.player_id, line.rank, line.total) for line in lines] == [
        (B, 1, 17),  # level with A on points, one more evening played
        (A, 2, 17),
        (C, 3, 15),
        (D, 4, 12),
    ]
    table = by_player(lines)
    assert [(c.points, c.played, c.counted) for c in table[B].cells] == [
        (7, True, True),
        (10, True, True),
        (5, True, False),
    ]
    assert [(c.points, c.played, c.counted) for c in table[A].cells] == [
        (10, True, True),
        (7, True, True),
        (0, False, False),
    ]
    assert [c.points for c in table[D].cells] == [2, 5, 7]  # fourth: participation points
    assert [c.counted for c in table[D].cells] == [False, True, True]


def test_needs_in_a_place_series_is_the_least_points_of_the_place_table_that_lift_a_player():
    # Averages: A 17/2, B 22/3, C 15/2, D 14/3. With their average at a fourth evening the
    # others make A 10 + 8.5 = 18.5, B 10 + 22/3 ≈ 17.33, C 10 + 7.5 = 17.5, D 7 + 5 = 12.
    table = by_player(series_table(PLACE_EVENINGS, PLACE_RULES))
    assert table[B].needs is None  # the leader
    assert table[A].needs == 10  # 7 keeps 17 (< 17.33, third); 10 makes 20, first
    assert table[C].needs == 10  # 7 makes 17, still third; 10 makes 20
    assert table[D].needs is None  # even a win makes 17, behind all three


def test_players_sharing_a_place_each_get_the_points_of_that_place():
    lines = by_player(series_table([places(1, (A, B), C)], PLACE_RULES))
    assert [lines[p].total for p in (A, B, C)] == [10, 10, 5]
    assert (lines[A].rank, lines[A].shared_rank) == (1, True)
    assert (lines[C].rank, lines[C].shared_rank) == (3, False)


SCORE_RULES = Rules(points="score", min_evenings=2)
SCORE_EVENINGS = [
    scores(1, p1=100, p2=80, p3=100, p4=60),
    scores(2, p1=80, p2=100, p5=50),
    scores(3, p1=90, p2=90, p4=70),
]


def test_players_equal_on_every_tie_break_share_the_rank_and_the_few_evenings_come_last():
    lines = series_table(SCORE_EVENINGS, SCORE_RULES)
    assert [(line.player_id, line.rank, line.shared_rank, line.total) for line in lines] == [
        (A, 1, True, 270),  # 3 evenings, best 100, last 90: equal with B
        (B, 1, True, 270),
        (D, 3, False, 130),
        (C, None, False, 100),  # one evening of the two needed
        (E, None, False, 50),
    ]


def test_needs_in_a_score_series_is_the_least_whole_number_that_lifts_a_player():
    table = by_player(series_table(SCORE_EVENINGS, SCORE_RULES))
    assert table[A].needs is None and table[B].needs is None  # sharing the lead
    # A and B project to 360 over four evenings; D, with three, must pass 360: 130 + 231.
    assert table[D].needs == 231
    # One more evening ranks C and E at all: better than no rank, whatever they score.
    assert table[C].needs == 0 and table[E].needs == 0


def test_the_tie_order_is_evenings_then_best_evening_then_the_latest_evening():
    rules = Rules(points="score")
    more_evenings = by_player(series_table([scores(1, p1=50, p2=100), scores(2, p1=50)], rules))
    assert more_evenings[A].rank == 1 and more_evenings[B].rank == 2
    best_evening = by_player(
        series_table(
            [scores(1, p1=60, p2=90), scores(2, p1=90, p2=60), scores(3, p1=50, p2=50)], rules
        )
    )
    assert best_evening[A].shared_rank and best_evening[B].shared_rank
    best_single = by_player(
        series_table([scores(1, p1=100, p2=70), scores(2, p1=40, p2=70)], rules)
    )
    assert best_single[A].rank == 1 and best_single[B].rank == 2
    latest = by_player(series_table([scores(1, p1=70, p2=50), scores(2, p1=50, p2=70)], rules))
    assert latest[B].rank == 1 and latest[A].rank == 2


MATCH_RULES = Rules(points="match_points", best_of=2, absent_points=1)


def test_a_missed_evening_worth_absent_points_competes_for_the_best_evenings():
    evenings = [
        Evening(1, (Result(A, match_points=4), Result(B, match_points=2))),
        Evening(2, (Result(A, match_points=0),)),
        Evening(3, (Result(B, match_points=2),)),
    ]
    table = by_player(series_table(evenings, MATCH_RULES))
    # A: 4, 0, (1) → 4 + 1; B: 2, (1), 2 → 2 + 2.
    assert (table[A].total, table[A].rank) == (5, 1)
    assert [c.counted for c in table[A].cells] == [True, False, True]
    assert (table[B].total, table[B].rank) == (4, 2)
    # A projects to 4, 0, 1, 2 → 6. B with 4: 2, 1, 2, 4 → 6, three evenings each, best 4
    # each, and 4 at the latest evening against A's 2. With 3 B makes 5.
    assert table[B].needs == 4


def test_the_rank_after_each_evening_is_kept_for_the_chart():
    table = by_player(series_table(PLACE_EVENINGS, PLACE_RULES))
    assert table[A].ranks == (1, 2, 2)  # level with B after two, B 10 at the latest
    assert table[C].ranks == (3, 4, 3)


# --- the handicap --------------------------------------------------------------------------


def test_the_handicap_grows_with_the_gap_to_the_best_rated_player_up_to_a_quarter():
    assert handicap_points(30.0, 30.0, 100) == 0
    assert handicap_points(20.0, 30.0, 100) == 12  # 100 × 10 / 80, rounded down
    assert handicap_points(0.0, 30.0, 100) == 25  # the cap: a quarter of the best points
    assert handicap_points(None, 30.0, 100) == 0  # no rating before the evening


def test_the_handicap_table_adds_each_played_evening_handicap():
    rules = Rules(points="score", handicap="rating")
    evenings = [
        scores(1, ratings={A: 30.0, B: 10.0}, p1=100, p2=80),
        scores(2, ratings={A: 30.0, B: 20.0}, p1=100, p2=90),
    ]
    table = by_player(series_table(evenings, rules))
    assert (table[A].total, table[A].rank) == (200, 1)
    # B: 80 + 100 × 20 // 80 = 105; 90 + 100 × 10 // 80 = 102.
    assert [c.handicap_points for c in table[B].cells] == [105, 102]
    assert (table[B].handicap_total, table[B].handicap_rank) == (207, 1)
    assert table[A].handicap_rank == 2


def test_without_a_handicap_the_handicap_table_is_the_scratch_table():
    """docs/seasons.md: without a handicap, `handicap_total` and `handicap_rank` are the
    scratch figures, a player under `min_evenings` unranked in both."""
    rules = Rules(points="score", min_evenings=2)
    evenings = [scores(1, p1=100, p2=80, p3=80), scores(2, p1=90, p2=110)]
    lines = series_table(evenings, rules)
    # B 190 and A 190 level on two evenings: B's best evening (110) beats A's (100);
    # C 80 over one evening, under the minimum.
    assert [(t.player_id, t.rank, t.total) for t in lines] == [
        (B, 1, 190),
        (A, 2, 190),
        (C, None, 80),
    ]
    assert [(t.handicap_total, t.handicap_rank) for t in lines] == [(190, 1), (190, 2), (80, None)]


# --- bad rules -----------------------------------------------------------------------------


def rules(**changes):
    base = dict(
        points="place",
        place_points=[25, 20, 16],
        participation_points=0,
        best_of=None,
        min_evenings=0,
        handicap="none",
    )
    return rules_problems(**{**base, **changes})


def test_good_rules_have_no_problems():
    assert rules() == {}


def test_best_of_zero_is_refused_by_name():
    assert rules(best_of=0) == {"best_of": "below_one"}


def test_a_place_table_that_does_not_decrease_is_refused_by_name():
    assert rules(place_points=[25, 20, 20]) == {"place_points": "not_decreasing"}
    assert rules(place_points=[10, 12]) == {"place_points": "not_decreasing"}
    assert rules(place_points=[]) == {"place_points": "missing"}
    assert rules(points="score", place_points=[]) == {}


# --- properties ----------------------------------------------------------------------------


@st.composite
def series(draw):
    players = draw(st.integers(1, 6))
    count = draw(st.integers(1, 5))
    evenings = []
    for number in range(count):
        present = draw(st.lists(st.integers(1, players), min_size=1, unique=True))
        evenings.append(
            Evening(
                number + 1,
                tuple(
                    Result(player_id=p, score=draw(st.integers(0, 30)), place=i + 1)
                    for i, p in enumerate(present)
                ),
            )
        )
    rules = Rules(
        points=draw(st.sampled_from(["score", "place"])),
        place_points=(10, 6, 3, 1),
        participation_points=draw(st.integers(0, 1)),
        best_of=draw(st.none() | st.integers(1, 4)),
        absent_points=draw(st.integers(0, 2)),
        min_evenings=draw(st.integers(0, 3)),
    )
    return evenings, rules


def naive_rank(lines_values, rules, player, extra=None, averages=None):
    """A player's rank, recomputed the long way: every key built and compared in full."""

    def key(values, played):
        counted = sorted(values, reverse=True)[: rules.best_of or len(values)]
        best = max(v for v, p in zip(values, played, strict=True) if p)
        return (-sum(counted), -sum(played), -best, -values[-1])

    keys = {}
    for pid, (values, played) in lines_values.items():
        if extra is not None:
            value = extra if pid == player else averages[pid]
            values, played = [*values, value], [*played, True]
        if sum(played) >= rules.min_evenings:
            keys[pid] = key(values, played)
    if player not in keys:
        return None
    return 1 + sum(1 for other in keys.values() if other < keys[player])


@settings(max_examples=150, deadline=None)
@given(series())
def test_totals_ranks_and_needs_agree_with_the_rules_applied_the_long_way(drawn):
    evenings, rules = drawn
    lines = series_table(evenings, rules)
    values = {
        line.player_id: ([c.points for c in line.cells], [c.played for c in line.cells])
        for line in lines
    }
    averages = {
        pid: Fraction(sum(v for v, p in zip(vs, ps, strict=True) if p), sum(ps))
        for pid, (vs, ps) in values.items()
    }
    for line in lines:
        counted = [c.points for c in line.cells if c.counted]
        assert sum(counted) == line.total
        assert len(counted) == min(rules.best_of or len(evenings), len(evenings))
        assert line.rank == naive_rank(values, rules, line.player_id)
        if line.needs is None:
            continue
        assert line.rank != 1
        projected = naive_rank(values, rules, line.player_id, line.needs, averages)
        assert projected is not None and (line.rank is None or projected < line.rank)
        if rules.points == "score" and line.needs > 0:
            less = naive_rank(values, rules, line.player_id, line.needs - 1, averages)
            assert line.rank is not None and less is not None and less >= line.rank
    ranked = [line.rank for line in lines if line.rank is not None]
    assert ranked == sorted(ranked)
    assert all(line.rank is None for line in lines[len(ranked) :])


@settings(max_examples=100, deadline=None)
@given(series())
def test_a_player_without_needs_cannot_climb_even_with_a_huge_score(drawn):
    evenings, rules = drawn
    rules = Rules(**{**{f: getattr(rules, f) for f in rules.__slots__}, "points": "score"})
    lines = series_table(evenings, rules)
    for line in lines:
        if line.needs is None and line.rank not in (None, 1):
            raise AssertionError(f"a score series can always be climbed: {line}")
