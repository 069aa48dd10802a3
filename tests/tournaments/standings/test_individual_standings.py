"""Standings of an individual tournament: a line per player, their partnership's result in
each round, both players across the table as opponents, sit-outs worth a win; the live
table, the stored rows, a withdrawal, the club's season table and who may see the players."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from club.models import Membership, YearRanking
from tests.factories import ClubFactory, UserFactory, make_staff
from tournaments.models import Entrant, Standing, Tournament
from tournaments.permissions import readable_players
from tournaments.selectors.results import table_of
from tournaments.selectors.standings import past_round_rows
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round
from tournaments.services.entrants import register_entrants, withdraw_entrant
from tournaments.services.ratings import final_placings, recompute_ratings
from tournaments.services.settings import create_tournament, update_tournament
from tournaments.services.standings import recompute_standings
from tournaments.standings.lines import MatchResult, TeamInfo
from tournaments.standings.names import LIVE_ROUND
from tournaments.standings.table import Tabulation, compute_standings

# Players 1-5; in round 1 the partnership 10 (players 1 and 2) beats 11 (3 and 4) 600 to
# 400 and player 5 sits out (side -1). In round 2 partnership 12 (1 and 3) loses 450 to
# 550 to 13 (4 and 5); player 2 sits out (side -2).
SIDES = {10: (1, 2), 11: (3, 4), -1: (5,), 12: (1, 3), 13: (4, 5), -2: (2,)}
RESULTS = [
    MatchResult(1, 1, 10, 11, True, 600, 400),
    MatchResult(0, 1, -1, None, False),
    MatchResult(2, 2, 12, 13, True, 450, 550),
    MatchResult(0, 2, -2, None, False),
]


def line_of(by_round: dict[int, Any], number: int) -> dict[int, tuple[Any, ...]]:
    return {
        line.team_id: (
            line.rank_label,
            line.played,
            line.won,
            line.match_points,
            line.points_for,
            line.points_against,
            line.buchholz,
        )
        for line in by_round[number]
    }


def test_each_player_gets_their_partnerships_result_and_meets_both_opponents():
    players = [TeamInfo(id=p, seed=p) for p in (1, 2, 3, 4, 5)]
    table = compute_standings(
        players,
        RESULTS,
        tie_breaks=["points_for", "wins", "point_difference"],
        bye_points=500,
        sides=SIDES,
    )
    # rank, played, won, match points, for, against, Buchholz (opponents' match points)
    assert line_of(table, 1) == {
        1: ("1=", 1, 1, 2, 600, 400, 0),
        2: ("1=", 1, 1, 2, 600, 400, 0),
        5: ("3", 1, 1, 2, 500, 0, 0),  # sat out: a win worth the bye points, no opponent
        3: ("4=", 1, 0, 0, 400, 600, 4),  # lost to players 1 and 2: 2 + 2
        4: ("4=", 1, 0, 0, 400, 600, 4),
    }
    # Match points after round 2: player 1: 2, 2: 4, 3: 0, 4: 2, 5: 4.
    assert line_of(table, 2) == {
        2: ("1", 2, 2, 4, 1100, 400, 2),  # 600, then sat out (500); met 3 (0) and 4 (2)
        5: ("2", 2, 2, 4, 1050, 450, 2),  # sat out, then beat 1 (2) and 3 (0)
        1: ("3", 2, 1, 2, 1050, 950, 8),  # level on points with 5, one win fewer; met 3, 4, 4, 5
        4: ("4", 2, 1, 2, 950, 1050, 8),  # met 1 and 2, then 1 and 3
        3: ("5", 2, 0, 0, 850, 1150, 12),  # met 1 and 2, then 4 and 5
    }


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory()


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def melee(club, director, max_deals: int = 1, players: int = 9) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Mêlée",
        starts_on=datetime.date(2027, 1, 9),
        format=Tournament.Format.INDIVIDUAL,
        round_count=2,
        rules={"target": None, "max_deals": max_deals},
        draw_seed=7,
    )
    names = ["Anne", "Bea", "Cleo", "Dana", "Emma", "Fleur", "Gina", "Hana", "Iris"][:players]
    register_entrants(tournament, "\n".join(f"{n} Martin" for n in names), by=director)
    return tournament


def ns_takes(match: Any, director: Any, cards: int = 100) -> None:
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": cards}}
    enter_deal(match, entry, by=director)


@pytest.mark.django_db
def test_the_live_table_counts_a_table_in_play_for_its_four_players(club, director):
    tournament = melee(club, director, max_deals=2)
    round_ = draw_next_round(tournament, by=director)
    first = round_.matches.order_by("table").first()
    ns_takes(first, director)
    by_round = table_of(tournament)
    assert list(by_round) == [LIVE_ROUND]  # nothing finished: the live table alone
    in_play = {line.team_id: line.in_play for line in by_round[LIVE_ROUND]}
    at_table = {
        Entrant.objects.get(tournament=tournament, player=p).pk
        for team in (first.ns_team, first.ew_team)
        for p in team.players
    }
    assert {e for e, n in in_play.items() if n} == at_table
    sitting = round_.sit_outs.get().entrant_id
    live = {line.team_id: line for line in by_round[LIVE_ROUND]}
    # The sit-out of the round in play counts, not as in play.
    assert (live[sitting].won, live[sitting].points_for, live[sitting].in_play) == (1, 80 * 2, 0)


@pytest.mark.django_db
def test_the_stored_lines_are_the_players_and_a_withdrawn_one_goes_last(club, director):
    tournament = melee(club, director, players=8)
    round_ = draw_next_round(tournament, by=director)
    for match in round_.matches.all():
        ns_takes(match, director)
    recompute_standings(tournament.pk, force=True)
    stored = Standing.objects.filter(tournament=tournament, round_number=1)
    assert stored.count() == 8 and not stored.filter(team__isnull=False).exists()
    loser = stored.order_by("rank").last()
    assert loser is not None and loser.entrant is not None
    winner = stored.order_by("rank").first()
    assert winner is not None and winner.entrant is not None
    withdraw_entrant(winner.entrant, by=director)
    draw_next_round(tournament, by=director)  # the round after their last match
    lines = table_of(tournament)
    assert lines[1][0].team_id == winner.entrant_id  # still first after round 1
    assert str(winner).startswith("1")
    assert winner.name == winner.entrant.player.full_name


@pytest.mark.django_db
def test_a_finished_melee_places_each_player_in_the_clubs_season(club, director):
    tournament = melee(club, director, players=8)
    round_ = draw_next_round(tournament, by=director)
    for match in round_.matches.order_by("table"):
        ns_takes(match, director, cards=90 + 10 * (match.table or 0))
    update_tournament(tournament, by=director, round_count=1)
    update_tournament(tournament, by=director, status=Tournament.Status.FINISHED)
    recompute_standings(tournament.pk, force=True)
    recompute_ratings(club.pk)
    places = {p.player_id: p.place for p in final_placings(club.pk)}
    assert sorted(places.values()) == [1, 1, 3, 3, 5, 5, 7, 7]
    assert YearRanking.objects.filter(club=club, year=2027).count() == 8


@pytest.mark.django_db
def test_a_public_melees_players_are_public_before_any_draw(club, director):
    public = melee(club, director, players=4)
    # Published (a draft is its directors' alone), no round drawn yet.
    Tournament.objects.filter(pk=public.pk).update(status=Tournament.Status.RUNNING)
    private = create_tournament(
        club,
        by=director,
        name="Privée",
        starts_on=datetime.date(2027, 1, 9),
        format=Tournament.Format.INDIVIDUAL,
        round_count=1,
        is_public=False,
    )
    register_entrants(private, "Secret Agent", by=director)
    outsider = UserFactory()
    visible = set(readable_players(outsider).values_list("first_name", flat=True))
    assert {e.player.first_name for e in public.entrants.select_related("player")} <= visible
    assert "Secret" not in visible
    assert "Secret" in set(readable_players(director).values_list("first_name", flat=True))


def test_who_a_side_stands_for_is_part_of_its_rounds_digest():
    players = [TeamInfo(id=p, seed=p) for p in (1, 2, 3, 4, 5)]
    before = Tabulation(players, RESULTS, bye_points=500, sides=SIDES).digests()
    # Round 2's partnership 12 standing for players 1 and 5 instead: round 2 changes alone.
    other = {**SIDES, 12: (1, 5)}
    after = Tabulation(players, RESULTS, bye_points=500, sides=other).digests()
    assert after[0] == before[0] and after[1] != before[1]


@pytest.mark.django_db
def test_a_recompute_after_a_new_round_ranks_that_round_and_equals_a_rebuild(club, director):
    tournament = melee(club, director, players=9)
    for _number in range(2):
        for match in draw_next_round(tournament, by=director).matches.all():
            ns_takes(match, director)
        recompute_standings(tournament.pk)
    stored = list(
        Standing.objects.filter(tournament=tournament)
        .order_by("round_number", "rank", "entrant__seed")
        .values_list("round_number", "entrant_id", "rank", "points_for", "won")
    )
    assert {number for number, *_rest in stored} == {2}  # round 1 is computed when asked
    tournament.refresh_from_db()
    first = past_round_rows(tournament, [1])[1]
    assert [(row[0], row[1]) for row in first] == [
        (line.team_id, line.seed) for line in table_of(tournament)[1]
    ]
    Standing.objects.filter(tournament=tournament).delete()
    recompute_standings(tournament.pk, force=True)
    rebuilt = list(
        Standing.objects.filter(tournament=tournament)
        .order_by("round_number", "rank", "entrant__seed")
        .values_list("round_number", "entrant_id", "rank", "points_for", "won")
    )
    assert rebuilt == stored
