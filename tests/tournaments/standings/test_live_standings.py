"""Live standings: matches in play counted on their current totals, stored apart from the
after-round tables (round key LIVE_ROUND), read by the pages and the API."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.pages.pages_world import MADE_BY_EW, MADE_BY_NS, build_world
from tournaments.models import Standing
from tournaments.selectors.results import table_of
from tournaments.services.deals import enter_deal
from tournaments.services.standings import recompute_standings
from tournaments.standings.lines import MatchResult, TeamInfo
from tournaments.standings.names import LIVE_ROUND
from tournaments.standings.table import compute_standings

ARGS = ["les-atouts", "winter-cup"]
TEAMS = [TeamInfo(1, 1), TeamInfo(2, 2), TeamInfo(3, 3), TeamInfo(4, 4)]
FINISHED = MatchResult(1, 1, 1, 2, True, 500, 300, "NS")


def in_play(ns_total, ew_total, match_id=2, ns=3, ew=4):
    return MatchResult(match_id, 1, ns, ew, False, ns_total, ew_total, "", playing=True)


class TestTheArithmetic:
    def test_a_match_in_play_counts_for_the_team_ahead_in_the_live_table_only(self):
        tables = compute_standings(TEAMS, [FINISHED, in_play(240, 180)], live=True)
        assert set(tables) == {1, LIVE_ROUND}
        live = {line.team_id: line for line in tables[LIVE_ROUND]}
        assert (live[3].won, live[3].match_points, live[3].in_play) == (1, 2, 1)
        assert (live[4].lost, live[4].points_for, live[4].in_play) == (1, 180, 1)
        assert live[1].in_play == 0 and live[1].match_points == 2
        after_one = {line.team_id: line for line in tables[1]}
        assert after_one[3].played == 0  # finished matches only

    def test_equal_totals_in_play_count_as_a_draw(self):
        live = compute_standings(TEAMS, [in_play(162, 162)], live=True)[LIVE_ROUND]
        assert {(line.team_id, line.drawn, line.match_points) for line in live if line.in_play} == {
            (3, 1, 1),
            (4, 1, 1),
        }

    def test_without_a_match_in_play_there_is_no_live_table(self):
        assert LIVE_ROUND not in compute_standings(TEAMS, [FINISHED], live=True)

    def test_the_after_round_tables_are_the_same_with_or_without_the_live_one(self):
        matches = [FINISHED, in_play(100, 20)]
        with_live = compute_standings(TEAMS, matches, live=True)
        del with_live[LIVE_ROUND]
        assert with_live == compute_standings(TEAMS, matches)

    def test_a_scheduled_match_counts_nowhere(self):
        scheduled = MatchResult(2, 1, 3, 4, False)
        assert LIVE_ROUND not in compute_standings(TEAMS, [FINISHED, scheduled], live=True)


@pytest.fixture
def world(db):
    return build_world()


def deals_in_round_one(world, count=2):
    """`count` deals of the other round-1 match: it is in play (the match has 3 deals)."""
    for entry in (MADE_BY_NS, MADE_BY_EW)[:count]:
        enter_deal(world.other_match, entry, by=world.director)
    recompute_standings(world.tournament.pk)
    world.other_match.refresh_from_db()


class TestTheStore:
    def test_the_recompute_stores_the_live_table_while_a_match_is_in_play(self, world):
        deals_in_round_one(world)
        live = Standing.objects.filter(tournament=world.tournament, round_number=LIVE_ROUND)
        assert sorted(live.values_list("in_play", flat=True)) == [0, 0, 1, 1]
        assert all(line.is_live for line in live)
        # The last deal ends the match: the live table goes, the after-round table counts it.
        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
        recompute_standings(world.tournament.pk)
        assert not live.all().exists()
        after_one = Standing.objects.filter(tournament=world.tournament, round_number=1)
        assert sorted(after_one.values_list("played", flat=True)) == [1, 1, 1, 1]

    def test_the_after_round_rows_stay_exactly_as_they_were(self, world):
        before = list(
            Standing.objects.filter(tournament=world.tournament)
            .order_by("round_number", "team")
            .values()
        )
        deals_in_round_one(world)
        after = list(
            Standing.objects.filter(tournament=world.tournament)
            .exclude(round_number=LIVE_ROUND)
            .order_by("round_number", "team")
            .values()
        )
        assert after == before
        assert LIVE_ROUND in table_of(world.tournament)


class TestTheApi:
    def test_the_standings_answer_the_live_table_marked_provisional(self, world):
        deals_in_round_one(world)
        url = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
        body = APIClient().get(url).json()
        assert body["provisional"] is True and body["after_round"] is None
        assert body["rounds"] == [1]
        by_team = {row["team"]["id"]: row for row in body["results"]}
        ns, ew = world.other_match.ns_team_id, world.other_match.ew_team_id
        assert by_team[ns]["in_play"] == by_team[ew]["in_play"] == 1
        assert by_team[ns]["played"] == 1
        assert sum(row["in_play"] for row in body["results"]) == 2

    def test_after_a_round_the_table_counts_finished_matches_only(self, world):
        deals_in_round_one(world)
        url = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
        body = APIClient().get(url, {"after_round": 1}).json()
        assert body["provisional"] is False and body["after_round"] == 1
        assert all(row["in_play"] == 0 for row in body["results"])
        assert sorted(row["played"] for row in body["results"]) == [0, 0, 1, 1]

    def test_with_nothing_in_play_the_latest_table_is_not_provisional(self, world):
        body = APIClient().get(f"/api/v1/tournaments/{world.tournament.pk}/standings/").json()
        assert body["provisional"] is False and body["after_round"] == 1

    def test_round_zero_is_not_a_round(self, world):
        url = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
        response = APIClient().get(url, {"after_round": 0})
        assert response.status_code == 400 and "after_round" in response.json()["errors"]


class TestThePages:
    def test_nine_deals_into_round_one_the_standings_show_the_live_table(self, db, client):
        world = build_world(rules={"target": None, "max_deals": 12})
        # build_world entered 3 deals at table 1; 6 more at table 2: 9 deals, nothing finished.
        for _ in range(3):
            deals_in_round_one(world)
        page = client.get(reverse("tournaments:standings", args=ARGS)).content.decode()
        assert "No standings yet" not in page
        assert "Provisional" in page and "2 matches in play are counted" in page
        assert "6 deals played" in page and "in play</span>" in page

    def test_the_team_page_gives_the_provisional_rank(self, world, client):
        deals_in_round_one(world)
        team = world.other_match.ns_team
        page = client.get(reverse("tournaments:team", args=[*ARGS, team.pk])).content.decode()
        assert "counting the matches in play" in page

    def test_a_round_asked_for_is_shown_as_it_was_after_it(self, world, client):
        deals_in_round_one(world)
        page = client.get(reverse("tournaments:standings", args=ARGS), {"after": "1"})
        assert page.context["live"] is False and "Provisional" not in page.content.decode()
