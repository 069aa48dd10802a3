"""Standings of the round-by-round formats: byes worth a win, Buchholz, knockout rounds left out."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory
from tournaments.models import Match, Round, Tournament
from tournaments.selectors.results import table_of
from tournaments.standings.lines import MatchResult, TeamInfo
from tournaments.standings.names import LIVE_ROUND
from tournaments.standings.table import compute_standings

A, B, C, D, E = 1, 2, 3, 4, 5
NAMES = {A: "A", B: "B", C: "C", D: "D", E: "E"}


def result(number: int, round_number: int, ns: int, ew: int | None, ns_total=0, ew_total=0):
    return MatchResult(number, round_number, ns, ew, ew is not None, ns_total, ew_total)


# Round 1: A beats B, C beats D, E sits out. Round 2: A beats C, D beats E, B sits out.
FIELD = [
    result(1, 1, A, B, 600, 400),
    result(2, 1, C, D, 550, 450),
    result(3, 1, E, None),
    result(4, 2, A, C, 520, 480),
    result(5, 2, D, E, 700, 300),
    result(6, 2, B, None),
]


def lines(by_round, number: int) -> list[tuple[str, ...]]:
    return [
        (line.rank_label, NAMES[line.team_id], line.played, line.won, line.match_points,
         line.points_for, line.points_against, line.buchholz)
        for line in by_round[number]
    ]  # fmt: skip


def teams() -> list[TeamInfo]:
    return [TeamInfo(id=t, seed=t) for t in (A, B, C, D, E)]


def test_in_a_round_by_round_format_a_bye_is_a_won_match_worth_the_bye_points():
    table = compute_standings(
        teams(), FIELD, tie_breaks=["match_points", "buchholz", "points_for"], bye_points=500
    )
    # rank, team, played, won, match points, for, against, Buchholz
    assert lines(table, 1) == [
        ("1", "A", 1, 1, 2, 600, 400, 0),
        ("2", "C", 1, 1, 2, 550, 450, 0),
        ("3", "E", 1, 1, 2, 500, 0, 0),  # the bye: no opponent, no Buchholz
        ("4", "D", 1, 0, 0, 450, 550, 2),
        ("5", "B", 1, 0, 0, 400, 600, 2),
    ]
    assert lines(table, 2) == [
        ("1", "A", 2, 2, 4, 1120, 880, 4),  # met B (2 with his bye) and C (2)
        ("2", "C", 2, 1, 2, 1030, 970, 6),  # met D (2) and A (4)
        ("3", "D", 2, 1, 2, 1150, 850, 4),  # met C (2) and E (2)
        ("4", "B", 2, 1, 2, 900, 600, 4),  # met A (4); his bye is no opponent
        ("5", "E", 2, 1, 2, 800, 700, 2),  # met D (2)
    ]


def test_in_a_round_robin_a_bye_counts_nothing_and_buchholz_is_still_shown():
    table = compute_standings(teams(), FIELD, tie_breaks=["match_points", "points_for"])
    assert lines(table, 2)[-1] == ("5", "E", 1, 0, 0, 300, 700, 2)
    assert {row[1]: row[2] for row in lines(table, 2)}["B"] == 1


def test_a_bye_waits_for_a_match_of_its_round_to_count():
    drawn = [*FIELD, result(7, 3, C, None), result(8, 3, A, B, 0, 0)._replace(finished=False)]
    table = compute_standings(teams(), drawn, bye_points=500)
    assert list(table) == [1, 2]  # round 3 is drawn, nothing in it counts yet
    finished = [*drawn[:-1], result(8, 3, A, B, 300, 200)]
    assert (
        dict(
            (row[1], row[4])
            for row in lines(compute_standings(teams(), finished, bye_points=500), 3)
        )["C"]
        == 4
    )


@pytest.mark.django_db
def test_the_stored_standings_leave_the_knockout_rounds_out():
    tournament = TournamentFactory(
        format=Tournament.Format.SWISS, round_count=1, rules={"target": None, "max_deals": 1}
    )
    ana, bob = TeamFactory(tournament=tournament), TeamFactory(tournament=tournament)
    qualifying = RoundFactory(tournament=tournament, number=1)
    final = RoundFactory(tournament=tournament, number=2, stage=Round.Stage.FINAL)
    for round_, winner in ((qualifying, "NS"), (final, "EW")):
        MatchFactory(
            round=round_,
            ns_team=ana,
            ew_team=bob,
            status=Match.Status.FINISHED,
            ns_total=100 if winner == "NS" else 62,
            ew_total=62 if winner == "NS" else 100,
            winner=winner,
        )
    by_round = table_of(tournament)
    assert list(by_round) == [1]
    assert [(line.team_id, line.match_points) for line in by_round[1]] == [(ana.pk, 2), (bob.pk, 0)]


def test_the_live_table_counts_the_bye_of_the_round_in_play_but_not_as_in_play():
    playing = result(7, 3, A, D, 300, 200)._replace(finished=False, playing=True)
    live = compute_standings(
        teams(), [*FIELD, playing, result(8, 3, C, None)], bye_points=500, live=True
    )
    assert list(live) == [1, 2, LIVE_ROUND]
    by_team = {NAMES[line.team_id]: line for line in live[LIVE_ROUND]}
    assert (by_team["C"].played, by_team["C"].match_points, by_team["C"].in_play) == (3, 4, 0)
    assert (by_team["A"].match_points, by_team["A"].in_play) == (6, 1)
