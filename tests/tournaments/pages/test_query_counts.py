"""Every page issues a fixed number of queries, whatever the size of the tournament.

The same bound holds for a 6-team round robin and the 64-team demo; bench/pages.py measures
the server time of the pages on the demo.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from bench.bigtournament import build_round_robin_tournament
from club.models import Membership
from tests.factories import make_staff
from tournaments.services.ratings import recompute_ratings
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db

PUBLIC_BOUND = 8
# A player's page reads, besides their teams and ratings, every evening they played with its
# place and partners, the partners and opponents met most often and their series rows.
PLAYER_PAGE_BOUND = 14
DIRECTOR_BOUND = 10
# The first page to show a past round (the standings' rank chart) computes it from the
# results, then keeps it: the teams and the matches, a mêlée's entrants, matches,
# partnerships and sit-outs.
PAST_ROUNDS_COMPUTED = 4


def played(n_teams: int):
    tournament = build_round_robin_tournament(n_teams, 4)
    tournament.status = "running"
    tournament.save()
    recompute_standings(tournament.pk, force=True)
    recompute_ratings(tournament.club_id)
    tournament.refresh_from_db()
    return tournament


def public_urls(tournament):
    args = [tournament.club.slug, tournament.slug]
    match = tournament.matches.filter(ew_team__isnull=False).last()
    team = tournament.teams.first()
    return [
        reverse("home"),
        reverse("club:detail", args=args[:1]),
        reverse("club:ranking", args=args[:1]),
        team.first_player.get_absolute_url(),
        tournament.get_absolute_url(),
        reverse("tournaments:schedule", args=args),
        reverse("tournaments:schedule", args=args) + "?round=all",
        reverse("tournaments:standings", args=args),
        reverse("tournaments:standings", args=args) + "?after=2",
        reverse("tournaments:standings_live", args=args) + "?v=stale",
        reverse("tournaments:schedule_live", args=args) + "?v=stale",
        reverse("tournaments:team_live", args=[*args, team.pk]) + "?v=stale",
        reverse("tournaments:match_live", args=[*args, match.pk]) + "?v=stale",
        reverse("tournaments:screen", args=args),
        reverse("tournaments:screen_live", args=args) + "?v=stale",
        reverse("tournaments:find_player", args=args) + "?q=a",
        reverse("tournaments:player_table", args=[*args, team.first_player_id]),
        reverse("tournaments:player_live", args=[*args, team.first_player_id]) + "?v=stale",
        reverse("tournaments:team", args=[*args, team.pk]),
        reverse("tournaments:rules", args=args),
        reverse("scoring:rulebook"),
        match.get_absolute_url(),
    ]


def director_urls(tournament):
    args = [tournament.club.slug, tournament.slug]
    names = [
        "director",
        "director_tables",
        "director_teams",
        "director_referees",
        "director_print_sheets",
        "director_print_standings",
        "director_export_standings",
        "director_export_results",
        "director_edit",
    ]
    return [reverse(f"tournaments:{name}", args=args) for name in names] + [
        reverse("tournaments:director_club", args=args[:1])
    ]


@pytest.mark.parametrize("n_teams", [6, 64])
def test_every_page_issues_a_bounded_number_of_queries(
    client, django_assert_max_num_queries, n_teams
):
    """The same bound for 6 teams (15 matches) and the 64-team demo (2,016 matches, 32,256 deals)."""
    tournament = played(n_teams)
    for url in public_urls(tournament):
        bound = PLAYER_PAGE_BOUND if url.startswith("/players/") else PUBLIC_BOUND
        with django_assert_max_num_queries(bound):
            assert client.get(url).status_code == 200, url
    client.force_login(make_staff(tournament.club, Membership.Role.DIRECTOR))
    for url in director_urls(tournament):
        with django_assert_max_num_queries(DIRECTOR_BOUND):
            assert client.get(url).status_code == 200, url
