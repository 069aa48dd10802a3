"""After the finish the pages say so: the director's dashboard drops the status selector and
the knockout block (reopening the results is what takes a tournament back), and the big screen
shows the final standings (and the final ranking of a knockout final) instead of a round in
play and "Find your table" (issue 38)."""

from __future__ import annotations

import pytest

from tests.tournaments.pages.test_format_pages import club, director, play, swiss, url
from tournaments.models import Tournament
from tournaments.services.draws import draw_next_round
from tournaments.services.finals import start_final
from tournaments.services.standings import recompute_standings
from tournaments.services.status import finish_tournament

pytestmark = pytest.mark.django_db

__all__ = ["club", "director", "swiss"]  # the fixtures this file borrows


def finished_with_a_final(tournament: Tournament, by) -> Tournament:  # type: ignore[no-untyped-def]
    for _round in range(3):
        play(draw_next_round(tournament, by=by), by)
    start_final(tournament, size=2, third_place=False, by=by)
    play(draw_next_round(tournament, by=by), by)
    recompute_standings(tournament.pk, force=True)
    return tournament


def test_while_it_runs_the_dashboard_has_the_status_selector_and_the_final(client, swiss, director):
    for _round in range(3):
        play(draw_next_round(swiss, by=director), director)
    client.force_login(director)
    page = client.get(url("director")).content.decode()
    assert 'id="status-select"' in page and 'id="final-title"' in page


def test_once_finished_the_dashboard_drops_the_status_selector_and_the_final(
    client, swiss, director
):
    finish_tournament(finished_with_a_final(swiss, director), by=director)
    client.force_login(director)
    page = client.get(url("director")).content.decode()
    assert 'id="status-select"' not in page
    assert 'id="final-title"' not in page and "Start the final" not in page
    assert "Reopen the results" in page


def test_the_big_screen_shows_the_final_standings_and_ranking_not_a_round(client, swiss, director):
    finished_with_a_final(swiss, director)
    running = client.get(url("screen")).content.decode()
    assert "Find your table" in running and "Final ranking" not in running
    finish_tournament(swiss, by=director)
    page = client.get(url("screen")).content.decode()
    head = page.split('<header class="screen-head">')[1].split("</header>")[0]
    assert "Round" not in head
    assert "the tables" not in page and "Find your table" not in page
    assert "Final standings" in page and "Standings after round" not in page
    ranking = page.split('class="slide slide-ranking"')[1].split("</section>")[0]
    assert "Final ranking" in ranking and ranking.count("<tr>") == 1 + 5
    live = client.get(url("screen_live")).content.decode()
    assert "Find your table" not in live and "Final standings" in live
