"""The knockout final: the standard bracket, winners going through, third place, final ranking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling import (
    DrawError,
    KnockoutPlace,
    bracket_order,
    first_knockout_round,
    knockout_ranking,
    next_knockout_round,
)

# Team ids far from seed numbers, so a test cannot mix them up: seed s is team 100 + s.
QUALIFIERS = [100 + seed for seed in range(1, 21)]


def seeds(teams) -> list[int]:
    return [team - 100 for team in teams]


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, (1, 2)),
        (4, (1, 4, 2, 3)),
        (8, (1, 8, 4, 5, 2, 7, 3, 6)),
        (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
    ],
)
def test_the_bracket_follows_the_standard_order(size, order):
    assert bracket_order(size) == order


def test_round_one_of_eight_is_1v8_4v5_2v7_3v6_with_the_better_seed_ns():
    first = first_knockout_round(QUALIFIERS, size=8)
    assert [(m.table, *seeds((m.ns, m.ew))) for m in first.matches] == [
        (1, 1, 8),
        (2, 4, 5),
        (3, 2, 7),
        (4, 3, 6),
    ]
    assert first.rounds == 3
    assert not first.is_final


@given(st.sampled_from([4, 8, 16]), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_seeds_one_and_two_can_meet_only_in_the_final(size, rng):
    played = first_knockout_round(QUALIFIERS, size=size)
    while True:
        meetings = {frozenset(seeds((m.ns, m.ew))) for m in played.matches}
        if frozenset((1, 2)) in meetings:
            assert played.is_final
        if played.is_final:
            break
        played = next_knockout_round(played, {rng.choice((m.ns, m.ew)) for m in played.matches})


def test_the_winners_go_through_in_bracket_order():
    first = first_knockout_round(QUALIFIERS, size=8)
    # Upsets at tables 2 and 4: seed 5 beats 4, seed 6 beats 3.
    second = next_knockout_round(first, {101, 105, 102, 106})
    assert [(m.table, *seeds((m.ns, m.ew))) for m in second.matches] == [(1, 1, 5), (2, 2, 6)]
    assert seeds(second.eliminated[0]) == [8, 4, 7, 3]
    final = next_knockout_round(second, {105, 102})
    assert [seeds((m.ns, m.ew)) for m in final.matches] == [[2, 5]]
    assert final.is_final


def test_the_final_round_adds_the_third_place_match_when_asked():
    first = first_knockout_round(QUALIFIERS, size=4, third_place=True)
    final = next_knockout_round(first, {101, 103})
    assert [(m.table, *seeds((m.ns, m.ew)), m.third_place) for m in final.matches] == [
        (1, 1, 3, False),
        (2, 2, 4, True),
    ]


def test_a_final_with_a_third_place_match_ranks_one_to_four_then_the_quarter_finalists():
    # docs/formats.md: the quarter-finals' losers share 5th place (5=), listed in
    # qualifying order; no match decides places 5 to 8.
    first = first_knockout_round(QUALIFIERS, size=8, third_place=True)
    semis = next_knockout_round(first, {101, 104, 102, 106})
    final = next_knockout_round(semis, {104, 102})
    # 2 beats 4 in the final; 6 beats 1 for third place.
    ranking = knockout_ranking(QUALIFIERS, final, {102, 106})
    assert [(p.place, p.team - 100) for p in ranking[:8]] == [
        (1, 2),
        (2, 4),
        (3, 6),
        (4, 1),
        (5, 3),
        (5, 5),
        (5, 7),
        (5, 8),
    ]
    assert [(p.place, p.team - 100) for p in ranking[8:]] == [(n, n) for n in range(9, 21)]


def test_without_a_third_place_match_both_semi_final_losers_are_third():
    first = first_knockout_round(QUALIFIERS, size=4)
    final = next_knockout_round(first, {104, 102})
    ranking = knockout_ranking(QUALIFIERS, final, {104})
    assert ranking[:4] == (
        KnockoutPlace(1, 104),
        KnockoutPlace(2, 102),
        KnockoutPlace(3, 101),
        KnockoutPlace(3, 103),
    )
    assert ranking[4] == KnockoutPlace(5, 105)
    assert len(ranking) == len(QUALIFIERS)


def test_a_bracket_of_sixteen_shares_ninth_place_among_the_first_round_losers():
    played = first_knockout_round(QUALIFIERS, size=16)
    while not played.is_final:
        # The better seed always wins.
        played = next_knockout_round(played, {m.ns for m in played.matches})
    ranking = knockout_ranking(QUALIFIERS, played, {101})
    assert [p.place for p in ranking] == [1, 2, 3, 3, *[5] * 4, *[9] * 8, 17, 18, 19, 20]
    assert [p.team - 100 for p in ranking] == list(range(1, 21))


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: first_knockout_round(QUALIFIERS, size=6), "size"),
        (lambda: first_knockout_round(QUALIFIERS[:5], size=8), "size"),
        (lambda: first_knockout_round(QUALIFIERS, size=2, third_place=True), "third_place"),
        (lambda: first_knockout_round([1, 2, 2, 3], size=4), "qualifiers"),
        # Both teams of table 1 won, nobody at table 2.
        (
            lambda: next_knockout_round(first_knockout_round(QUALIFIERS, size=4), {101, 104}),
            "winners",
        ),
        (
            lambda: next_knockout_round(first_knockout_round(QUALIFIERS, size=4), {101, 199}),
            "winners",
        ),
        (lambda: next_knockout_round(first_knockout_round(QUALIFIERS, size=2), {101}), "previous"),
        (
            lambda: knockout_ranking(
                QUALIFIERS, first_knockout_round(QUALIFIERS, size=4), {101, 102}
            ),
            "final",
        ),
    ],
)
def test_a_wrong_call_names_the_field(call, field):
    with pytest.raises(DrawError) as raised:
        call()
    assert raised.value.field == field
