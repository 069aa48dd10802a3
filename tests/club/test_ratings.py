"""Club ratings and the season table: the pure functions, and the stored values."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bench.bigtournament import build_round_robin_tournament
from club.models import Membership, Rating, RatingChange, YearRanking
from club.ratings import (
    MatchRecord,
    Placing,
    TwoTeamRater,
    compute_ratings,
    compute_year_ranking,
)
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Standing, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.ratings import recompute_ratings
from tournaments.services.standings import recompute_standings
from tournaments.services.status import set_status

T0 = datetime.datetime(2026, 3, 1, 14, 0, tzinfo=datetime.UTC)


def record(match_id, ns, ew, winner, minutes=0, year=2026, tournament_id=1):
    return MatchRecord(
        match_id=match_id,
        played_at=T0 + datetime.timedelta(minutes=minutes),
        year=year,
        tournament_id=tournament_id,
        ns_players=ns,
        ew_players=ew,
        winner=winner,
    )


def test_the_winners_gain_and_the_losers_lose_and_the_rating_is_mean_minus_three_sigma():
    ratings, steps = compute_ratings([record(1, (1, 2), (3, 4), "NS")])
    assert ratings[1].mu > 25 > ratings[3].mu
    assert ratings[1].mu == ratings[2].mu
    for r in ratings.values():
        assert r.sigma < 25 / 3
        assert r.rating == pytest.approx(r.mu - 3 * r.sigma)
        assert r.matches_played == 1
    assert (ratings[1].matches_won, ratings[3].matches_won) == (1, 0)
    assert [(s.player_id, s.won) for s in steps] == [(1, True), (2, True), (3, False), (4, False)]


def test_a_draw_between_equal_teams_moves_no_mean_but_narrows_the_deviation():
    ratings, steps = compute_ratings([record(1, (1, 2), (3, 4), "draw")])
    for r in ratings.values():
        assert r.mu == pytest.approx(25)
        assert r.sigma < 25 / 3
        assert r.matches_won == 0
    assert {s.won for s in steps} == {None}


def test_matches_are_rated_in_chronological_order_whatever_order_they_come_in():
    records = [
        record(i, (1 + i % 3, 4), (5 + i % 2, 7), "NS" if i % 3 else "EW", minutes=i // 2)
        for i in range(1, 12)
    ]
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    assert compute_ratings(records) == compute_ratings(shuffled)
    _, steps = compute_ratings(shuffled)
    assert [s.match_id for s in steps[::4]] == list(range(1, 12))


def test_each_players_history_ends_at_the_current_rating():
    records = [
        record(1, (1, 2), (3, 4), "NS"),
        record(2, (1, 3), (2, 4), "EW", minutes=30),
        record(3, (1, 4), (2, 3), "draw", minutes=60),
    ]
    ratings, steps = compute_ratings(records)
    last = {s.player_id: s for s in steps}
    for player, r in ratings.items():
        assert (last[player].mu, last[player].sigma, last[player].rating) == (
            r.mu,
            r.sigma,
            r.rating,
        )
        assert r.matches_played == 3


def test_the_year_ranking_counts_tournaments_wins_and_the_average_place():
    records = [
        record(1, (1, 2), (3, 4), "NS", tournament_id=10),
        record(2, (1, 2), (3, 4), "EW", tournament_id=11),
        record(3, (1, 2), (3, 4), "NS", year=2025, tournament_id=9),
    ]
    placings = [
        Placing(2026, 10, 1, 1),
        Placing(2026, 11, 1, 4),
        Placing(2026, 12, 1, 2),  # a tournament with a place but no rated match (byes only)
        Placing(2026, 10, 3, 2),
    ]
    table = {(line.year, line.player_id): line for line in compute_year_ranking(records, placings)}
    one = table[(2026, 1)]
    assert (one.tournaments_played, one.matches_played, one.matches_won) == (3, 2, 1)
    assert one.average_place == pytest.approx((1 + 4 + 2) / 3)
    assert table[(2026, 3)].average_place == 2
    assert table[(2026, 4)].average_place is None
    assert (table[(2025, 1)].matches_won, table[(2025, 3)].matches_won) == (1, 0)


# -- stored values -----------------------------------------------------------------------------

NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
EW_WINS = {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 110}}


def _stored(club_id):
    ratings = sorted(
        Rating.objects.filter(club_id=club_id).values_list(
            "player_id", "mu", "sigma", "rating", "matches_played", "matches_won"
        )
    )
    history = sorted(
        RatingChange.objects.filter(club_id=club_id).values_list(
            "player_id", "match_id", "played_at", "mu", "sigma", "rating", "won"
        )
    )
    season = sorted(
        YearRanking.objects.filter(club_id=club_id).values_list(
            "year", "player_id", "tournaments_played", "matches_won", "average_place"
        )
    )
    return ratings, history, season


@pytest.mark.django_db
def test_ratings_kept_after_every_deal_equal_a_rebuild_from_scratch(
    django_capture_on_commit_callbacks,
):
    tournament = TournamentFactory(rules={"target": None, "max_deals": 1})
    club = tournament.club
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    teams = [TeamFactory(tournament=tournament, seed=i) for i in range(1, 5)]
    pairings = [[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
    for number, boards in enumerate(pairings, start=1):
        round_ = RoundFactory(tournament=tournament, number=number)
        for table, (ns, ew) in enumerate(boards, start=1):
            match = MatchFactory(
                round=round_,
                tournament=tournament,
                table=table,
                ns_team=teams[ns],
                ew_team=teams[ew],
            )
            # Every deal commits and its after-commit recompute runs in process (eager).
            with django_capture_on_commit_callbacks(execute=True):
                enter_deal(match, NS_WINS if (number + table) % 2 else EW_WINS, by=director)
        kept_so_far = _stored(club.pk)
        assert len(kept_so_far[1]) == 8 * number  # the history grew with every match
    with django_capture_on_commit_callbacks(execute=True):
        set_status(tournament, Tournament.Status.FINISHED, by=director)
    kept = _stored(club.pk)
    assert len(kept[0]) == 8 and len(kept[1]) == 8 * 3 and len(kept[2]) == 8

    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    YearRanking.objects.all().delete()
    recompute_ratings(club.pk)

    assert _stored(club.pk) == kept


@pytest.mark.django_db
def test_the_year_ranking_takes_the_place_from_the_final_standings():
    tournament = build_round_robin_tournament(4, 2)
    recompute_standings(tournament.pk)
    recompute_ratings(tournament.club_id)
    final = Standing.objects.filter(tournament=tournament, round_number=3).select_related("team")
    for row in final:
        for player in row.team.players:
            entry = YearRanking.objects.get(club=tournament.club, player=player)
            assert entry.tournaments_played == 1
            assert entry.matches_played == 3
            assert entry.average_place == row.rank
            assert entry.year == tournament.starts_on.year
    assert Rating.objects.filter(club=tournament.club).count() == 8
    assert RatingChange.objects.filter(club=tournament.club).count() == 6 * 4


@pytest.mark.django_db
def test_a_recompute_that_changes_nothing_writes_nothing():
    tournament = build_round_robin_tournament(4, 2)
    recompute_standings(tournament.pk)
    assert recompute_ratings(tournament.club_id) is True
    ids = set(RatingChange.objects.values_list("id", flat=True))
    assert recompute_ratings(tournament.club_id) is False
    assert set(RatingChange.objects.values_list("id", flat=True)) == ids
    assert recompute_ratings(tournament.club_id, force=True) is True


# --- the two-team update, against OpenSkill's own ----------------------------------------


def _library_ratings(records):
    """compute_ratings' ratings as OpenSkill's `rate` gives them, match by match."""
    model = PlackettLuce()
    current = {}
    for r in sorted(records, key=lambda r: (r.played_at, r.match_id)):
        sides = (r.ns_players, r.ew_players)
        teams = [[current.setdefault(p, model.rating()) for p in side] for side in sides]
        ranks = {"NS": [1, 2], "EW": [2, 1]}.get(r.winner, [1, 1])
        for side, rated in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for player, new in zip(side, rated, strict=True):
                current[player] = new
    return {player: (new.mu, new.sigma) for player, new in current.items()}


skills = st.tuples(
    st.floats(min_value=-20, max_value=70), st.floats(min_value=0.5, max_value=25 / 3)
)


@settings(max_examples=300, deadline=None)
@given(
    teams=st.lists(st.lists(skills, min_size=2, max_size=2), min_size=2, max_size=2),
    winner=st.sampled_from(["NS", "EW", "draw"]),
)
def test_the_two_team_update_gives_the_librarys_ratings_bit_for_bit(teams, winner):
    model = PlackettLuce()
    ranks = {"NS": [1, 2], "EW": [2, 1]}.get(winner, [1, 1])
    library = model.rate([[model.rating(mu, sigma) for mu, sigma in t] for t in teams], ranks=ranks)
    ours = TwoTeamRater(model)(teams, ranks)
    assert ours == [[(p.mu, p.sigma) for p in t] for t in library]


def test_a_club_season_rated_by_the_library_and_by_us_is_the_same_to_the_last_bit():
    rng = random.Random(5)
    records = [
        record(
            i,
            tuple(rng.sample(range(1, 41), 2)),
            tuple(rng.sample(range(41, 81), 2)),
            rng.choice(["NS", "EW", "draw"]),
            minutes=i,
        )
        for i in range(1, 1501)
    ]
    ratings, _steps = compute_ratings(records)
    assert {p: (r.mu, r.sigma) for p, r in ratings.items()} == _library_ratings(records)
