"""Public pages: anyone reads a public tournament; a private one is hidden from outsiders."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.pages.pages_world import MADE_BY_NS, build_world
from tournaments.selectors import standings_version
from tournaments.services.deals import enter_deal
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture
def world():
    return build_world()


def test_the_home_page_lists_clubs_and_running_tournaments(client, world):
    page = client.get(reverse("home")).content.decode()
    assert "Les Atouts" in page and "Winter Cup" in page and "Playing now" in page


def test_the_club_page_groups_tournaments_by_state(client, world):
    TournamentFactory(club=world.tournament.club, name="Spring Open", status="open")
    TournamentFactory(club=world.tournament.club, name="Hidden Cup", is_public=False)
    page = client.get(reverse("club:detail", args=["les-atouts"])).content.decode()
    assert page.index("Winter Cup") < page.index("Spring Open")
    assert "Hidden Cup" not in page


def test_the_tournament_page_names_the_house_rules_it_changed(client, world):
    page = client.get(world.tournament.get_absolute_url()).content.decode()
    assert "Number of deals: <strong>3</strong>" in page
    assert "Team A" in page and "Round 1" in page


def test_the_schedule_shows_tables_teams_state_score_and_a_link_to_the_sheet(client, world):
    page = client.get(reverse("tournaments:schedule", args=ARGS) + "?round=1").content.decode()
    match = world.match
    assert world.match.get_absolute_url() in page
    assert f"{match.ns_total} – {match.ew_total}" in page
    assert "finished" in page


def test_the_schedule_can_show_every_round(client, world):
    page = client.get(reverse("tournaments:schedule", args=ARGS) + "?round=all").content.decode()
    assert all(f"Round {n}" in page for n in (1, 2, 3))


def test_the_standings_show_each_team_with_when_they_were_updated_and_a_rank_chart(client, world):
    page = client.get(reverse("tournaments:standings", args=ARGS)).content.decode()
    assert "Last updated" in page and "after round 1" in page
    assert page.count("<tr") >= 5
    assert "<svg" in page and "polyline" in page
    assert "js/vendor/htmx.min.js" in page and 'hx-trigger="every' in page


def test_the_live_standings_answer_no_content_while_nothing_changed(client, world):
    url = reverse("tournaments:standings_live", args=ARGS)
    response = client.get(url, {"v": standings_version(world.tournament)})
    assert response.status_code == 204 and response.content == b""


def test_the_live_standings_send_the_new_table_after_a_deal(client, world):
    url = reverse("tournaments:standings_live", args=ARGS)
    old = standings_version(world.tournament)
    for _ in range(3):
        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
    recompute_standings(world.tournament.pk)
    response = client.get(url, {"v": old})
    assert response.status_code == 200
    assert 'id="standings"' in response.content.decode()


def test_the_standings_switch_to_an_earlier_round(client, world):
    page = client.get(reverse("tournaments:standings", args=ARGS), {"after": "1"})
    assert page.status_code == 200


def test_the_match_sheet_shows_every_deal_with_running_totals_and_the_pot(client, world):
    page = client.get(world.match.get_absolute_url()).content.decode()
    assert "♥" in page and "NS 98" in page and "litige" in page
    # deal 2 is a litige of 81: it leaves a pot of 81 that deal 3 takes
    assert ">81<" in page


def test_the_team_page_shows_its_next_table(client, world):
    team = world.match.ns_team
    page = client.get(reverse("tournaments:team", args=[*ARGS, team.pk])).content.decode()
    assert "Next table" in page and "Round 2" in page


def test_the_player_page_shows_the_next_table_while_the_tournament_runs(client, world):
    page = client.get(world.match.ns_team.first_player.get_absolute_url()).content.decode()
    assert "Next table" in page and "Round 2 · table" in page


def test_the_player_page_shows_the_players_teams_and_matches(client, world):
    player = world.match.ns_team.first_player
    page = client.get(player.get_absolute_url()).content.decode()
    assert world.match.ns_team.name in page and "Winter Cup" in page


def test_the_club_ranking_page_reads_without_ratings(client, world):
    assert client.get(reverse("club:ranking", args=["les-atouts"])).status_code == 200


def test_a_private_tournament_is_not_found_for_an_outsider(client, world):
    world.tournament.is_public = False
    world.tournament.save()
    assert client.get(world.tournament.get_absolute_url()).status_code == 404
    assert client.get(world.match.get_absolute_url()).status_code == 404
    assert client.get(reverse("tournaments:standings", args=ARGS)).status_code == 404


def test_a_private_tournament_is_open_to_its_director(client, world):
    world.tournament.is_public = False
    world.tournament.save()
    client.force_login(world.director)
    assert client.get(world.tournament.get_absolute_url()).status_code == 200


def test_a_referee_of_another_table_reads_the_public_pages(client, world):
    client.force_login(world.other_referee)
    assert client.get(world.match.get_absolute_url()).status_code == 200
    assert client.get(reverse("tournaments:standings", args=ARGS)).status_code == 200


def test_an_unknown_tournament_is_a_404_not_a_500(client, world):
    assert (
        client.get(reverse("tournaments:standings", args=["les-atouts", "nope"])).status_code == 404
    )
    assert client.get(reverse("tournaments:schedule", args=ARGS) + "?round=x9").status_code == 200


def test_the_player_page_draws_the_rating_history():
    from bench.bigtournament import build_round_robin_tournament
    from tournaments.services.ratings import recompute_ratings

    tournament = build_round_robin_tournament(4, 2)
    recompute_ratings(tournament.club_id)
    player = tournament.teams.first().first_player
    page = Client().get(player.get_absolute_url()).content.decode()
    assert "Rating after each match" in page and "<polyline" in page
    ranking = Client().get(reverse("club:ranking", args=[tournament.club.slug])).content.decode()
    assert player.full_name in ranking and "Season" in ranking
