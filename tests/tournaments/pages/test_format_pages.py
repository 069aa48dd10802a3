"""The pages of the round-by-round formats: the director draws, deletes and starts a final; the
public reads the format in words, the rounds not drawn yet and the bracket. Three personas:
the club's director, a referee of the club, a visitor."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tests.tournaments.pages.test_query_counts import (
    DIRECTOR_BOUND,
    PAST_ROUNDS_COMPUTED,
    PUBLIC_BOUND,
)
from tournaments.models import Bracket, Match, Round, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round, next_round
from tournaments.services.finals import start_final
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db

TEAMS = "\n".join(f"{n}: {n} One & {n} Two" for n in ("Ana", "Bob", "Cid", "Dom", "Eve"))
ARGS = ["les-atouts", "soiree"]


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="les-atouts", name="Les Atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


@pytest.fixture
def referee(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "remi")


@pytest.fixture
def swiss(club, director) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Soirée",
        slug="soiree",
        starts_on=datetime.date(2027, 2, 5),
        format=Tournament.Format.SWISS,
        round_count=3,
        rules={"target": None, "max_deals": 1},
        draw_seed=5,
        # Its public pages are read below: published (a draft is its directors' alone).
        status=Tournament.Status.RUNNING,
    )
    register_teams(tournament, TEAMS, by=director)
    return tournament


def play(round_: Round, by: Any) -> None:
    for match in round_.matches.filter(ew_team__isnull=False).select_related("ns_team", "ew_team"):
        side = "NS" if match.ns_team.seed < match.ew_team.seed else "EW"
        taker = "N" if side == "NS" else "E"
        enter_deal(
            match, {"taker": taker, "trump": "H", "points": {"team": side, "cards": 100}}, by=by
        )


def url(name: str, *extra: Any) -> str:
    return reverse(f"tournaments:{name}", args=[*ARGS, *extra])


def test_the_dashboard_offers_to_draw_round_one(client, swiss, director):
    client.force_login(director)
    page = client.get(url("director")).content.decode()
    assert "0 of 3 rounds drawn." in page
    assert "Draw Round 1…" in page and url("director_draw") in page
    assert "Generate the schedule" not in page


def test_the_director_sees_the_draw_before_storing_exactly_it(client, swiss, director):
    client.force_login(director)
    preview = next_round(swiss)
    page = client.get(url("director_draw")).content.decode()
    for match in preview.matches:
        assert match.ns.name in page
    assert preview.fingerprint in page and not swiss.rounds.exists()
    response = client.post(url("director_draw"), {"fingerprint": preview.fingerprint}, follow=True)
    assert "Round 1 drawn." in response.content.decode()
    stored = swiss.rounds.get().matches.all()
    assert {(m.table, m.ns_team.name) for m in stored} == {
        (m.table, m.ns.name) for m in preview.matches
    }


def test_a_draw_changed_since_the_preview_is_shown_again_not_stored(client, swiss, director):
    client.force_login(director)
    response = client.post(url("director_draw"), {"fingerprint": "stale"}, follow=True)
    assert response.redirect_chain[-1][0] == url("director_draw")
    assert "The draw has changed since it was shown" in response.content.decode()
    assert not swiss.rounds.exists()


def test_the_preview_says_why_no_round_can_be_drawn(client, swiss, director):
    client.force_login(director)
    draw_next_round(swiss, by=director)
    page = client.get(url("director_draw")).content.decode()
    assert "Round 1 is not over: tables 1, 2 are still to finish" in page
    assert 'name="fingerprint"' not in page


def test_the_last_round_is_deleted_from_the_dashboard_until_its_first_deal(client, swiss, director):
    client.force_login(director)
    draw_next_round(swiss, by=director)
    assert "Delete Round 1" in client.get(url("director")).content.decode()
    response = client.post(url("director_round", 1, "delete"), follow=True)
    assert "Round 1 deleted: it can be drawn again." in response.content.decode()
    assert not swiss.rounds.exists()
    first = draw_next_round(swiss, by=director)
    enter_deal(
        first.matches.filter(ew_team__isnull=False).first(),
        {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}},
        by=director,
    )
    assert "Delete Round 1" not in client.get(url("director")).content.decode()


def test_the_director_starts_the_final_once_the_qualifying_rounds_are_over(client, swiss, director):
    client.force_login(director)
    for _round in range(3):
        assert "Start the final" not in client.get(url("director")).content.decode()
        play(draw_next_round(swiss, by=director), director)
    page = client.get(url("director")).content.decode()
    assert "Start the final" in page and '<option value="4" selected>' in page
    response = client.post(url("director_final"), {"size": "4", "third_place": "1"}, follow=True)
    assert "Final of 4 seeded from the standings" in response.content.decode()
    assert (Bracket.objects.get().size, Bracket.objects.get().third_place) == (4, True)
    assert "Draw Semi-finals…" in client.get(url("director")).content.decode()
    refused = client.post(url("director_final"), {"size": "16"}, follow=True)
    assert "Only 5 teams can play the final" in refused.content.decode()


@pytest.mark.parametrize("name", ["director_draw", "director_final"])
def test_only_the_clubs_directors_draw_or_start_a_final(client, swiss, referee, name):
    assert client.post(url(name), {"size": "2"}).status_code == 302  # to sign in
    client.force_login(referee)
    assert client.post(url(name), {"size": "2"}).status_code == 403
    elsewhere = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "elsewhere")
    client.force_login(elsewhere)
    assert client.post(url(name), {"size": "2"}).status_code == 403
    assert not swiss.rounds.exists() and not Bracket.objects.exists()


def test_the_tournament_page_says_the_format_and_the_rounds_not_drawn_yet(client, swiss, director):
    draw_next_round(swiss, by=director)
    page = client.get(swiss.get_absolute_url()).content.decode()
    assert "Swiss, 3 rounds" in page
    assert "Round 2: not drawn yet" in page and "Round 3: not drawn yet" in page


def test_the_schedule_shows_the_drawn_rounds_and_the_next_one_not_drawn_yet(
    client, swiss, director
):
    play(draw_next_round(swiss, by=director), director)
    page = client.get(url("schedule")).content.decode()
    assert "Round 1" in page and "Round 2: not drawn yet" in page
    every = client.get(url("schedule") + "?round=all").content.decode()
    assert "Round 3: not drawn yet" in every
    one = client.get(url("schedule") + "?round=3").content.decode()
    assert "Round 3: not drawn yet" in one and "Round 2: not drawn yet" not in one


def test_the_bracket_shows_who_plays_whom_and_who_goes_through(client, swiss, director):
    assert client.get(url("bracket")).status_code == 404
    for _round in range(3):
        play(draw_next_round(swiss, by=director), director)
    start_final(swiss, size=4, third_place=True, by=director)
    recompute_standings(swiss.pk, force=True)
    page = client.get(url("bracket")).content.decode()
    assert "Semi-finals" in page and "Third place" in page and "not drawn yet" in page
    assert "Winner of Semi-finals, table 1" in page
    semis = draw_next_round(swiss, by=director)
    first = semis.matches.get(table=1)
    play(Round.objects.get(pk=semis.pk), director)
    page = client.get(url("bracket")).content.decode()
    # The winner already stands in the final's box, before the final is drawn.
    winner = first.ns_team if first.ns_team.seed < first.ew_team.seed else first.ew_team
    final_box = page.split("<h3>Final")[1]
    assert winner.name in final_box.split("Third place")[0]
    assert "Knockout final" not in page  # the director's card stays on the dashboard
    assert "knockout final of 4" in client.get(swiss.get_absolute_url()).content.decode()


def test_the_final_ranking_lists_the_bracket_first(client, swiss, director):
    for _round in range(3):
        play(draw_next_round(swiss, by=director), director)
    start_final(swiss, size=2, third_place=False, by=director)
    play(draw_next_round(swiss, by=director), director)
    recompute_standings(swiss.pk, force=True)
    final = Match.objects.get(round__stage=Round.Stage.FINAL)
    champion = final.ns_team if final.winner == "NS" else final.ew_team
    for page in (client.get(url("bracket")), client.get(url("standings"))):
        text = page.content.decode()
        assert "Final ranking" in text
        ranking = text.split('<ol class="ranking">')[1].split("</ol>")[0]
        assert ranking.index(champion.name) < min(
            ranking.index(t.name) for t in swiss.teams.exclude(pk=champion.pk)
        )


def test_a_private_tournaments_bracket_is_hidden(client, swiss, director):
    for _round in range(3):
        play(draw_next_round(swiss, by=director), director)
    start_final(swiss, size=2, third_place=False, by=director)
    Tournament.objects.filter(pk=swiss.pk).update(is_public=False)
    assert client.get(url("bracket")).status_code == 404
    client.force_login(director)
    assert client.get(url("bracket")).status_code == 200


def test_the_pages_of_a_swiss_with_a_final_issue_a_bounded_number_of_queries(
    client, swiss, director, django_assert_max_num_queries
):
    client.force_login(director)
    for _round in range(3):
        play(draw_next_round(swiss, by=director), director)
        with django_assert_max_num_queries(DIRECTOR_BOUND):
            assert client.get(url("director_draw")).status_code == 200
    client.logout()
    start_final(swiss, size=4, third_place=True, by=director)
    play(draw_next_round(swiss, by=director), director)
    recompute_standings(swiss.pk, force=True)
    with django_assert_max_num_queries(PUBLIC_BOUND + PAST_ROUNDS_COMPUTED):
        assert client.get(url("standings")).status_code == 200  # the past rounds computed
    for name in ("detail", "schedule", "standings", "bracket"):
        with django_assert_max_num_queries(PUBLIC_BOUND):
            assert client.get(url(name)).status_code == 200, name
    client.force_login(director)
    for name in ("director", "director_draw", "director_print_sheets"):
        with django_assert_max_num_queries(DIRECTOR_BOUND):
            assert client.get(url(name)).status_code == 200, name


@pytest.mark.parametrize(
    ("language", "words", "not_drawn"),
    [
        ("nl", "Zwitsers, 3 rondes", "Ronde 2: nog niet geloot"),
        ("fr", "Suisse, 3 manches", "Manche 2 : pas encore tirée"),
    ],
)
@pytest.mark.usefixtures("compiled_catalogues")
def test_the_format_and_the_rounds_not_drawn_read_in_dutch_and_french(
    client, swiss, director, language, words, not_drawn
):
    draw_next_round(swiss, by=director)
    page = client.get(swiss.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page and not_drawn in page
