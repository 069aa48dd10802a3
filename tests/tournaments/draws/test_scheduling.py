"""The pure Berger module against the tables FIDE publishes (Handbook C.05, Annex 1)."""

from __future__ import annotations

import pytest

from tournaments.scheduling import Pairing, berger_rounds, round_robin

# Copied from the FIDE Handbook, C.05 Annex 1 "Berger Tables for Round-Robin Tournaments":
# one line per round, boards in order, the first number sits NS (White), the second EW.
# For an odd number of teams FIDE uses the table of the next even size, the highest
# number being the bye.
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def published(size: int) -> list[list[tuple[int, int]]]:
    return [
        [tuple(map(int, board.split("-"))) for board in line.split()]  # type: ignore[misc]
        for line in PUBLISHED[size].strip().splitlines()
    ]


def expected_rounds(teams: int) -> list[list[str]]:
    """The published table for `teams`, the bye (highest number) moved last, as text."""
    table = published(teams + teams % 2)
    rounds = []
    for boards in table:
        played = [f"{ns}-{ew}" for ns, ew in boards if ns <= teams and ew <= teams]
        byes = [f"{min(ns, ew)}-bye" for ns, ew in boards if ns > teams or ew > teams]
        rounds.append(played + byes)
    return rounds


def as_text(schedule) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[str(pairing) for pairing in matches] for matches in schedule]


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_the_berger_construction_equals_the_published_table(size):
    assert berger_rounds(size) == published(size)


@pytest.mark.parametrize("teams", range(3, 17))
def test_the_schedule_equals_the_published_table_board_order_and_sides_included(teams):
    assert as_text(round_robin(teams)) == expected_rounds(teams)


def test_six_teams_reads_as_the_spec_says():
    text = " / ".join(" ".join(matches) for matches in as_text(round_robin(6)))
    assert text == "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1"


@pytest.mark.parametrize("teams", range(2, 21))
def test_each_pair_of_teams_meets_exactly_once(teams):
    schedule = round_robin(teams)
    meetings = schedule.meetings()
    assert len(meetings) == teams * (teams - 1) // 2
    assert set(meetings.values()) == {1}


@pytest.mark.parametrize("teams", range(2, 21))
def test_each_team_plays_at_most_once_a_round_and_an_odd_field_has_one_bye_a_round(teams):
    schedule = round_robin(teams)
    assert len(schedule) == (teams if teams % 2 else teams - 1)
    byes = []
    for matches in schedule:
        seated = [p.ns for p in matches] + [p.ew for p in matches if p.ew is not None]
        assert sorted(seated) == list(range(1, teams + 1))
        byes += [p.ns for p in matches if p.is_bye]
    if teams % 2:
        assert sorted(byes) == list(range(1, teams + 1))
    else:
        assert byes == []


@pytest.mark.parametrize("teams", range(2, 21))
def test_tables_are_numbered_from_one_and_a_bye_gets_no_table(teams):
    for matches in round_robin(teams):
        tables = [p.table for p in matches if not p.is_bye]
        assert tables == list(range(1, teams // 2 + 1))
        assert all(p.table is None for p in matches if p.is_bye)


@pytest.mark.parametrize("teams", range(2, 41))
@pytest.mark.parametrize("double", [False, True])
def test_each_team_has_balanced_seats(teams, double):
    counts = round_robin(teams, double=double).seat_counts()
    assert all(abs(ns - ew) <= 1 for ns, ew in counts.values())
    if teams % 2 or double:
        # An odd field (the bye is no seat) and a double cycle balance exactly.
        assert all(ns == ew for ns, ew in counts.values())


@pytest.mark.parametrize("teams", range(3, 17))
def test_a_double_round_robin_swaps_the_last_two_rounds_then_repeats_with_sides_swapped(teams):
    single = as_text(round_robin(teams))
    double = round_robin(teams, double=True)
    first = [*single[:-2], single[-1], single[-2]]

    def swapped(matches: list[str]) -> list[str]:
        return [m if m.endswith("bye") else "-".join(reversed(m.split("-"))) for m in matches]

    assert as_text(double) == first + [swapped(matches) for matches in first]
    assert [p.round for p in double.pairings()] == sorted(p.round for p in double.pairings())
    assert set(double.meetings().values()) == {2}


def sides_run_of_three(teams: int, double: bool) -> list[tuple[int, int]]:
    """(team, round) where a team starts three rounds running on the same side; a bye breaks a run."""
    schedule = round_robin(teams, double=double)
    found = []
    for team in range(1, teams + 1):
        seq = []
        for matches in schedule:
            side = None
            for p in matches:
                if p.ew is not None and team in (p.ns, p.ew):
                    side = "NS" if p.ns == team else "EW"
            seq.append(side)
        found += [
            (team, i + 1)
            for i in range(len(seq) - 2)
            if seq[i] and seq[i] == seq[i + 1] == seq[i + 2]
        ]
    return found


@pytest.mark.parametrize("teams", [3, *range(5, 17)])
@pytest.mark.parametrize("double", [False, True])
def test_no_team_sits_the_same_side_three_rounds_running(teams, double):
    assert sides_run_of_three(teams, double) == []


def test_with_four_teams_fides_swap_cannot_avoid_a_run_of_three_across_the_two_cycles():
    # Documented limit: 4 teams, double: teams 2 and 4 sit the same side in rounds 3, 4, 5.
    assert sides_run_of_three(4, double=False) == []
    assert sides_run_of_three(4, double=True) == [(2, 3), (4, 3)]


def test_pairings_are_immutable_values():
    pairing = round_robin(4).rounds[0][0]
    assert pairing == Pairing(round=1, table=1, ns=1, ew=4)
    with pytest.raises(AttributeError):
        pairing.ns = 2  # type: ignore[misc]


@pytest.mark.parametrize("bad", [0, 1, -3, "8", 2.0, True])
def test_it_refuses_fewer_than_two_teams_or_a_number_that_is_not_one(bad):
    with pytest.raises(ValueError):
        round_robin(bad)


def test_two_teams_play_one_match():
    assert as_text(round_robin(2)) == [["1-2"]]
    assert as_text(round_robin(2, double=True)) == [["1-2"], ["2-1"]]
