"""The individual (mêlée) draw: partners never twice while avoidable, fair sit-outs, tables of four."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling import (
    DrawError,
    IndividualRound,
    IndividualTable,
    PlayerRecord,
    draw_individual_round,
)

from .pairing_world import IndividualTournament, perfect_matchings

few = settings(max_examples=40, deadline=None)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[PlayerRecord], int, int]:
    """4 to 12 players with a made-up past of partners, opponents, sit-outs and seats."""
    count = draw(st.integers(4, 12))
    players = draw(st.lists(st.integers(1, 500), min_size=count, max_size=count, unique=True))
    partners: dict[int, list[int]] = {p: [] for p in players}
    opponents: dict[int, list[int]] = {p: [] for p in players}
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            for history in (partners, opponents):
                times = draw(st.sampled_from([0, 0, 0, 1, 1, 2]))
                history[a] += [b] * times
                history[b] += [a] * times
    records = [
        PlayerRecord(
            player=p,
            partners=tuple(partners[p]),
            opponents=tuple(opponents[p]),
            sit_outs=draw(st.integers(0, 1)),
            ns=draw(st.integers(0, 3)),
            ew=draw(st.integers(0, 3)),
        )
        for p in players
    ]
    return records, draw(st.integers(1, 8)), draw(st.integers(0, 2**63))


def times(records: list[PlayerRecord], field: str, a: int, b: int) -> int:
    return Counter(getattr(next(r for r in records if r.player == a), field))[b]


@few
@given(fields())
def test_every_player_sits_once_at_one_table_or_sits_out(field):
    records, round_number, seed = field
    drawn = draw_individual_round(records, round_number=round_number, seed=seed)
    seated = [p for table in drawn.tables for p in table.players] + list(drawn.sit_outs)
    assert sorted(seated) == sorted(r.player for r in records)
    assert len(drawn.sit_outs) == len(records) % 4
    assert [t.table for t in drawn.tables] == list(range(1, len(records) // 4 + 1))


@few
@given(fields())
def test_partners_repeat_and_then_opponents_only_as_much_as_no_draw_avoids(field):
    records, round_number, seed = field
    drawn = draw_individual_round(records, round_number=round_number, seed=seed)
    playing = sorted(p for table in drawn.tables for p in table.players)
    partnerships = [pair for table in drawn.tables for pair in (table.ns, table.ew)]
    fewest_partners = min(
        sum(times(records, "partners", a, b) for a, b in m) for m in perfect_matchings(playing)
    )
    assert sum(times(records, "partners", a, b) for a, b in partnerships) == fewest_partners
    assert drawn.repeated_partners == sum(
        1 for a, b in partnerships if times(records, "partners", a, b)
    )

    # Given those partnerships, the tables face as few old opponents as can be.
    def faced(x: tuple[int, int], y: tuple[int, int]) -> int:
        return sum(times(records, "opponents", a, b) for a in x for b in y)

    numbered = dict(enumerate(partnerships))
    fewest_opponents = min(
        sum(faced(numbered[i], numbered[j]) for i, j in m)
        for m in perfect_matchings(list(numbered))
    )
    assert sum(faced(t.ns, t.ew) for t in drawn.tables) == fewest_opponents


def fewest_repeats(records: list[PlayerRecord], playing: list[int]) -> tuple[int, int]:
    """(partners, opponents) repeated by the best draw of ``playing``, by brute force."""

    def cost(four: tuple[int, ...]) -> tuple[int, int]:
        a, b, c, d = four
        return min(
            (
                times(records, "partners", *x) + times(records, "partners", *y),
                sum(times(records, "opponents", p, q) for p in x for q in y),
            )
            for x, y in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
        )

    def best(left: tuple[int, ...]) -> tuple[int, int]:
        if not left:
            return (0, 0)
        first, rest = left[0], left[1:]
        return min(
            tuple(
                map(
                    sum,
                    zip(
                        cost((first, *trio)),
                        best(tuple(p for p in rest if p not in trio)),
                        strict=True,
                    ),
                )
            )
            for trio in combinations(rest, 3)
        )  # type: ignore[return-value]

    return best(tuple(sorted(playing)))


def repeats(records: list[PlayerRecord], drawn: IndividualRound) -> tuple[int, int]:
    return (
        sum(times(records, "partners", *pair) for t in drawn.tables for pair in (t.ns, t.ew)),
        sum(times(records, "opponents", a, b) for t in drawn.tables for a in t.ns for b in t.ew),
    )


@few
@given(fields())
def test_no_draw_of_the_same_players_repeats_fewer_partners_then_fewer_opponents(field):
    records, round_number, seed = field
    drawn = draw_individual_round(records, round_number=round_number, seed=seed)
    playing = [p for table in drawn.tables for p in table.players]
    assert repeats(records, drawn) == fewest_repeats(records, playing)


def played(
    players: int, seed: int, rounds: list[tuple[list[tuple[int, int, int, int]], tuple[int, ...]]]
) -> IndividualTournament:
    """A mêlée whose rounds were (N, S, E, W) tables and sit-outs, as the old draw made them."""
    melee = IndividualTournament(list(range(1, players + 1)), seed=seed)
    for number, (tables, sit_outs) in enumerate(rounds, start=1):
        melee.play(
            IndividualRound(
                number,
                tuple(IndividualTable(t, (n, s), (e, w)) for t, (n, s, e, w) in enumerate(tables)),
                sit_outs,
                0,
                0,
            )
        )
    return melee


# Issue 27: four rounds in which the draw of 8 random partnership draws repeated opponents
# that a draw of the same players avoids; the rounds before are the old draw's.
ISSUE_27 = [
    pytest.param(
        13,
        2,
        [
            ([(2, 1, 6, 13), (10, 12, 5, 7), (8, 9, 3, 11)], (4,)),
            ([(7, 4, 11, 9), (3, 8, 2, 6), (13, 1, 5, 12)], (10,)),
            ([(9, 4, 1, 12), (5, 10, 8, 2), (11, 7, 6, 3)], (13,)),
        ],
        0,
        id="13-players-round-4-one-repeat-where-none-is-needed",
    ),
    pytest.param(
        13,
        4,
        [
            ([(6, 9, 8, 4), (11, 5, 1, 7), (10, 3, 12, 2)], (13,)),
            ([(12, 3, 9, 8), (10, 2, 11, 1), (7, 13, 4, 6)], (5,)),
            ([(1, 2, 13, 4), (6, 8, 10, 11), (7, 5, 3, 9)], (12,)),
            ([(1, 4, 11, 8), (10, 12, 3, 7), (5, 9, 13, 2)], (6,)),
        ],
        2,
        id="13-players-round-5-three-repeats-where-two-would-do",
    ),
    pytest.param(
        15,
        0,
        [
            ([(11, 14, 10, 1), (2, 6, 15, 4), (8, 12, 7, 5)], (3, 9, 13)),
            ([(8, 5, 11, 1), (3, 13, 9, 14), (2, 4, 12, 7)], (6, 10, 15)),
            ([(12, 4, 13, 8), (10, 14, 15, 6), (5, 1, 3, 9)], (2, 7, 11)),
            ([(15, 10, 13, 9), (7, 11, 14, 6), (1, 3, 2, 12)], (4, 5, 8)),
        ],
        0,
        id="15-players-round-5-one-repeat-where-none-is-needed",
    ),
    pytest.param(
        17,
        1,
        [
            ([(10, 11, 1, 15), (4, 5, 16, 9), (13, 3, 12, 2), (7, 17, 6, 8)], (14,)),
            ([(3, 12, 15, 11), (7, 8, 1, 10), (2, 13, 4, 9), (16, 14, 6, 17)], (5,)),
            ([(16, 6, 3, 2), (15, 12, 17, 14), (8, 1, 13, 4), (9, 5, 7, 10)], (11,)),
            ([(9, 10, 12, 14), (2, 6, 1, 11), (13, 8, 3, 16), (17, 15, 5, 7)], (4,)),
        ],
        0,
        id="17-players-round-5-one-repeat-where-none-is-needed",
    ),
]


def fewest_repeats_sitting_out_fairly(records: list[PlayerRecord]) -> tuple[int, int]:
    """The best draw's (partners, opponents) over every fair choice of who sits out."""
    out = len(records) % 4
    least = sorted(r.sit_outs for r in records)[out - 1] if out else 0
    sure = [r.player for r in records if r.sit_outs < least]
    pool = [r.player for r in records if r.sit_outs == least]
    everyone = [r.player for r in records]
    return min(
        fewest_repeats(records, [p for p in everyone if p not in {*sure, *chosen}])
        for chosen in combinations(pool, out - len(sure))
    )


@pytest.mark.parametrize(("players", "seed", "rounds", "fewest"), ISSUE_27)
def test_the_issue_27_rounds_repeat_no_more_opponents_than_needed(players, seed, rounds, fewest):
    melee = played(players, seed, rounds)
    drawn = melee.draw()
    assert drawn.repeated_partners == 0
    # `fewest` was the least for the sit-outs the lot chose; another fair choice may do better.
    assert drawn.repeated_opponents <= fewest
    if players < 16:
        assert repeats(melee.records(), drawn) == fewest_repeats_sitting_out_fairly(melee.records())


def test_who_sits_out_is_the_fair_choice_that_repeats_least():
    # 13 players, seed 4, round 5: the lot's sit-out left three repeated opponents at best;
    # another player who had not sat out yet sitting out leaves one.
    melee = played(13, 4, ISSUE_27[1].values[2])
    drawn = melee.draw()
    assert repeats(melee.records(), drawn) == (0, 1)
    assert all(melee.sit_outs[p] == 0 for p in drawn.sit_outs)


@few
@given(fields())
def test_no_fair_draw_repeats_fewer_partners_then_fewer_opponents(field):
    records, round_number, seed = field
    drawn = draw_individual_round(records, round_number=round_number, seed=seed)
    assert repeats(records, drawn) == fewest_repeats_sitting_out_fairly(records)


@few
@given(fields())
def test_the_partnership_that_sat_ns_more_often_sits_ew(field):
    records, round_number, seed = field
    balance = {r.player: r.ns - r.ew for r in records}
    drawn = draw_individual_round(records, round_number=round_number, seed=seed)
    for table in drawn.tables:
        assert sum(balance[p] for p in table.ns) <= sum(balance[p] for p in table.ew)


@few
@given(fields(), st.randoms(use_true_random=False))
def test_the_same_inputs_give_the_same_round_in_any_order(field, shuffler):
    records, round_number, seed = field
    first = draw_individual_round(records, round_number=round_number, seed=seed)
    shuffled = list(records)
    shuffler.shuffle(shuffled)
    assert draw_individual_round(shuffled, round_number=round_number, seed=seed) == first


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sixteen_players_have_a_new_partner_in_each_of_five_rounds(seed):
    melee = IndividualTournament(list(range(1, 17)), seed=seed)
    melee.play_rounds(5)
    for player in melee.players:
        assert len(set(melee.partners[player])) == 5
    assert [r.repeated_partners for r in melee.rounds] == [0] * 5


def test_sixteen_players_meet_new_opponents_while_they_can():
    melee = IndividualTournament(list(range(1, 17)), seed=5)
    melee.play_rounds(3)
    # Three rounds make 6 opponents each out of 15 others, all of them different.
    assert [r.repeated_opponents for r in melee.rounds] == [0, 0, 0]
    for player in melee.players:
        assert len(set(melee.opponents[player])) == 6


@pytest.mark.parametrize("seed", range(6))
def test_partnerships_face_the_only_ones_they_never_faced(seed):
    # Each of 1..8 has partnered everyone but one, so the partnerships are 1-2, 3-4, 5-6
    # and 7-8; player 1 faced 3 and 5, so 1-2 must play 7-8, and 3-4 plays 5-6.
    partner_of = {1: 2, 2: 1, 3: 4, 4: 3, 5: 6, 6: 5, 7: 8, 8: 7}
    faced = {1: (3, 5), 3: (1,), 5: (1,)}
    players = [
        PlayerRecord(
            p,
            partners=tuple(q for q in range(1, 9) if q not in (p, partner_of[p])),
            opponents=faced.get(p, ()),
        )
        for p in range(1, 9)
    ]
    drawn = draw_individual_round(players, round_number=8, seed=seed)
    assert {frozenset(t.ns + t.ew) for t in drawn.tables} == {
        frozenset((1, 2, 7, 8)),
        frozenset((3, 4, 5, 6)),
    }
    assert (drawn.repeated_partners, drawn.repeated_opponents) == (0, 0)


@pytest.mark.parametrize(("players", "rounds"), [(13, 26), (14, 14), (15, 10)])
def test_nobody_sits_out_twice_before_everyone_sat_out_once(players, rounds):
    melee = IndividualTournament(list(range(1, players + 1)), seed=players)
    for _ in range(rounds):
        drawn = melee.draw()
        assert len(drawn.sit_outs) == players % 4
        fewest = min(melee.sit_outs[p] for p in melee.players)
        assert all(melee.sit_outs[p] <= fewest for p in drawn.sit_outs)
        melee.play(drawn)
        counts = [melee.sit_outs[p] for p in melee.players]
        assert max(counts) - min(counts) <= 1
    assert set(melee.sit_outs.values()) == {rounds * (players % 4) // players}


def test_sit_outs_are_drawn_by_lot():
    players = [PlayerRecord(p) for p in range(1, 14)]
    sitting = {draw_individual_round(players, round_number=1, seed=s).sit_outs for s in range(10)}
    assert len(sitting) >= 5


def test_seats_stay_balanced_over_a_melee():
    # Eight rounds of 32: nobody more than two seats off, at least half exactly even (seats
    # drawn at random would leave about a quarter even and some four off).
    melee = IndividualTournament(list(range(1, 33)), seed=9)
    melee.play_rounds(8)
    imbalance = [abs(melee.ns[p] - melee.ew[p]) for p in melee.players]
    assert max(imbalance) <= 2
    assert imbalance.count(0) >= 16


def test_another_seed_gives_another_draw():
    players = [PlayerRecord(p) for p in range(1, 21)]
    tables = {draw_individual_round(players, round_number=1, seed=s).tables[0] for s in range(8)}
    assert len(tables) == 8


@pytest.mark.parametrize(
    ("players", "round_number", "field"),
    [
        ([PlayerRecord(p) for p in (1, 2, 3)], 1, "players"),
        ([PlayerRecord(p) for p in (1, 2, 3, 3)], 1, "players[3].player"),
        (
            [PlayerRecord(1, sit_outs=-1), *(PlayerRecord(p) for p in (2, 3, 4))],
            1,
            "players[0].sit_outs",
        ),
        (
            [PlayerRecord(1, partners=(1,)), *(PlayerRecord(p) for p in (2, 3, 4))],
            1,
            "players[0].partners",
        ),
        ([PlayerRecord(p) for p in (1, 2, 3, 4)], 0, "round_number"),
    ],
)
def test_a_wrong_field_is_named(players, round_number, field):
    with pytest.raises(DrawError) as raised:
        draw_individual_round(players, round_number=round_number, seed=1)
    assert raised.value.field == field
