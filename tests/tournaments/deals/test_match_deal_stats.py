"""Each match's stored per-side deal counts equal a fresh count over its deals, whatever happened."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from bench.bigtournament import build_round_robin_tournament
from bench.deal_counts import deal_stats
from club.models import Membership
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Deal, Match
from tournaments.selectors.results import read_results, table_of
from tournaments.services.deals import correct_deal, enter_deal, remove_last_deal
from tournaments.standings.lines import NO_STATS
from tournaments.standings.names import LIVE_ROUND
from tournaments.standings.table import compute_standings

pytestmark = pytest.mark.django_db

MADE_BELOTE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}, "belote": "NS"}
LITIGE = {"taker": "N", "trump": "S", "points": {"team": "NS", "cards": 81}}
DEDANS = {"taker": "E", "trump": "C", "points": {"team": "EW", "cards": 70}}
EW_CAPOT = {"taker": "E", "trump": "S", "capot": "EW", "belote": "EW"}
NS_CAPOT_AGAINST = {"taker": "W", "trump": "D", "capot": "NS"}
THROWN_IN = {"taker": None}


def counted_by_hand(match: Match) -> dict[str, int]:
    """The counts read one deal at a time, written out apart from Match.deal_stats."""
    counts = dict.fromkeys(Match.DEAL_STAT_FIELDS, 0)
    for deal in Deal.objects.filter(match=match):
        counts["deals_played"] += deal.outcome != "thrown_in"
        for side in ("NS", "EW"):
            p = side.lower() + "_"
            took = deal.taker_side == side
            counts[p + "taken"] += took
            counts[p + "made"] += took and deal.outcome == "made"
            counts[p + "dedans"] += took and deal.outcome == "dedans"
            counts[p + "litiges"] += took and deal.outcome == "litige"
            counts[p + "capots"] += deal.capot_side == side
            counts[p + "belotes"] += deal.belote_side == side
    return counts


def stored(match: Match) -> dict[str, int]:
    match.refresh_from_db()
    return {name: getattr(match, name) for name in Match.DEAL_STAT_FIELDS}


def assert_stored_equals_the_deals(tournament) -> None:
    fresh = deal_stats(tournament.pk)  # the one SQL aggregate over the deals
    for match in Match.objects.filter(tournament=tournament):
        assert stored(match) == counted_by_hand(match), match
        if match.status == Match.Status.FINISHED and not match.is_bye and match.deals.exists():
            for side in ("NS", "EW"):
                p = side.lower() + "_"
                assert tuple(fresh[(match.id, side)]) == (
                    match.deals_played,
                    getattr(match, p + "taken"),
                    getattr(match, p + "made"),
                    getattr(match, p + "dedans"),
                    getattr(match, p + "capots"),
                    getattr(match, p + "belotes"),
                    getattr(match, p + "litiges"),
                )
    # And the standings read from the stored counts are the standings read from the deals.
    teams, matches = read_results(tournament)
    counted_afresh = [
        m._replace(
            ns_stats=fresh.get((m.id, "NS"), NO_STATS), ew_stats=fresh.get((m.id, "EW"), NO_STATS)
        )
        for m in matches
    ]
    from_deals = compute_standings(
        teams,
        counted_afresh,
        tie_breaks=tournament.tie_breaks or None,
        points=tournament.match_points,
    )
    after_rounds = {n: lines for n, lines in table_of(tournament).items() if n != LIVE_ROUND}
    assert after_rounds == from_deals


@pytest.fixture
def table():
    tournament = TournamentFactory(rules={"target": 2000})
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "director")
    ns, ew = TeamFactory(tournament=tournament), TeamFactory(tournament=tournament)
    round_ = RoundFactory(tournament=tournament, number=1)
    match = MatchFactory(round=round_, tournament=tournament, table=1, ns_team=ns, ew_team=ew)
    return tournament, director, match


def test_the_counts_follow_every_entry_correction_and_removal_through_the_services(table):
    tournament, director, match = table
    for entry in (MADE_BELOTE, LITIGE, DEDANS, THROWN_IN, EW_CAPOT, NS_CAPOT_AGAINST):
        enter_deal(match, entry, by=director)
        assert_stored_equals_the_deals(tournament)
    assert stored(match) == {
        **dict.fromkeys(Match.DEAL_STAT_FIELDS, 0),
        "deals_played": 5,
        "ns_taken": 2,
        "ns_made": 1,
        "ns_litiges": 1,
        "ns_belotes": 1,
        "ns_capots": 1,
        "ew_taken": 3,
        "ew_made": 1,
        "ew_dedans": 2,
        "ew_capots": 1,
        "ew_belotes": 1,
    }
    # The litige becomes a made contract for EW; the thrown-in deal a dedans of NS.
    correct_deal(
        match, 2, {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}, by=director
    )
    correct_deal(
        match, 4, {"taker": "S", "trump": "H", "points": {"team": "NS", "cards": 60}}, by=director
    )
    assert_stored_equals_the_deals(tournament)
    assert (stored(match)["ns_litiges"], stored(match)["deals_played"]) == (0, 6)
    while match.deals.exists():
        remove_last_deal(match, by=director)
        assert_stored_equals_the_deals(tournament)
    assert stored(match) == dict.fromkeys(Match.DEAL_STAT_FIELDS, 0)


def test_a_match_played_to_its_end_counts_in_the_standings_from_its_stored_counts(table):
    tournament, director, match = table
    while match.status != Match.Status.FINISHED:
        enter_deal(match, EW_CAPOT, by=director)
    assert_stored_equals_the_deals(tournament)
    last = table_of(tournament)[1]
    ew_line = next(line for line in last if line.team_id == match.ew_team_id)
    assert (ew_line.capots, ew_line.belotes, ew_line.contracts_made) == (
        match.deal_count,
        match.deal_count,
        match.deal_count,
    )


def test_the_benchmark_tournament_stores_the_counts_of_its_deals():
    tournament = build_round_robin_tournament(6, 12, seed=3)
    assert_stored_equals_the_deals(tournament)
    assert Match.objects.filter(tournament=tournament, ns_litiges__gt=0).exists()


def test_the_migration_fills_the_counts_of_matches_played_before_it():
    tournament = build_round_robin_tournament(4, 8, seed=5)
    expected = {m.pk: stored(m) for m in Match.objects.filter(tournament=tournament)}
    Match.objects.filter(tournament=tournament).update(**dict.fromkeys(Match.DEAL_STAT_FIELDS, 0))
    migration = importlib.import_module("tournaments.migrations.0003_match_deal_stats")
    migration.count_stored_deals(apps, None)
    assert {m.pk: stored(m) for m in Match.objects.filter(tournament=tournament)} == expected
