"""The pages of an individual tournament (mêlée): the director registers players and draws
rounds; the public reads tables of four names, who sits out, the players' standings and
each player's partners and opponents. Three personas: the club's director, a referee of the
club, a visitor; every page within the query bounds of the other formats."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse

from club.models import Membership, Player
from tests.factories import ClubFactory, PlayerFactory, make_staff
from tests.tournaments.pages.test_query_counts import (
    DIRECTOR_BOUND,
    PAST_ROUNDS_COMPUTED,
    PLAYER_PAGE_BOUND,
    PUBLIC_BOUND,
)
from tournaments.models import Entrant, Round, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round, next_round
from tournaments.services.entrants import register_entrants
from tournaments.services.settings import create_tournament
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db

ARGS = ["les-atouts", "melee"]
NAMES = [
    "Anne",
    "Bea",
    "Cleo",
    "Dana",
    "Emma",
    "Fleur",
    "Gina",
    "Hana",
    "Iris",
    "Jade",
    "Kira",
    "Lola",
    "Mila",
]
SURNAMES = ["Martin", "Roux", "Petit", "Blanc"]


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="les-atouts", name="Les Atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


@pytest.fixture
def referee(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "remi")


def new_melee(club: Any, director: Any, players: int = 13) -> Tournament:
    tournament = create_tournament(
        club,
        by=director,
        name="Mêlée",
        slug="melee",
        starts_on=datetime.date(2027, 2, 5),
        format=Tournament.Format.INDIVIDUAL,
        round_count=3,
        rules={"target": None, "max_deals": 1},
        draw_seed=5,
        # Its public pages are read: published (a draft is its directors' alone).
        status=Tournament.Status.RUNNING,
    )
    names = [f"{NAMES[i % len(NAMES)]} {SURNAMES[i // len(NAMES)]}" for i in range(players)]
    register_entrants(tournament, "\n".join(names), by=director)
    return tournament


@pytest.fixture
def melee(club, director) -> Tournament:  # type: ignore[no-untyped-def]
    return new_melee(club, director)


def play(round_: Round, by: Any) -> None:
    for match in round_.matches.all():
        entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}
        enter_deal(match, entry, by=by)


def url(name: str, *extra: Any) -> str:
    return reverse(f"tournaments:{name}", args=[*ARGS, *extra])


def test_only_the_clubs_directors_open_the_players_page(client, melee, director, referee):
    assert client.get(url("director_entrants")).status_code == 302  # to sign in
    client.force_login(referee)
    assert client.get(url("director_entrants")).status_code == 403
    client.force_login(director)
    page = client.get(url("director_entrants")).content.decode()
    assert "13 players" in page and "Anne Martin" in page
    # The team pages lead to the players in an individual tournament.
    assert client.get(url("director_teams")).url == url("director_entrants")


def test_a_director_pastes_names_and_confirms_the_new_members(client, melee, director):
    client.force_login(director)
    asked = client.post(url("director_entrants"), {"text": "Nina Vidal\nAnne Martin"})
    assert asked.status_code == 200
    assert "line 2: Anne Martin is already registered" in asked.content.decode()
    asked = client.post(url("director_entrants"), {"text": "Nina Vidal"})
    assert "Create 1 new member?" in asked.content.decode()
    assert not Entrant.objects.filter(player__first_name="Nina").exists()
    done = client.post(url("director_entrants"), {"text": "Nina Vidal", "confirm": "1"})
    assert done.status_code == 302
    assert Entrant.objects.get(player__first_name="Nina").seed == 14


def test_a_director_ticks_club_members(client, melee, director, club):
    member = PlayerFactory(first_name="Zoé", last_name="Faure")
    Membership.objects.create(club=club, player=member)
    client.force_login(director)
    page = client.get(url("director_entrants")).content.decode()
    assert "Zoé Faure" in page and 'name="players"' in page
    response = client.post(url("director_entrants"), {"players": [member.pk]})
    assert response.status_code == 302
    assert Entrant.objects.get(player=member).seed == 14
    # Registered, the member is no longer offered.
    assert "Zoé Faure</label>" not in client.get(url("director_entrants")).content.decode()


def test_the_draw_preview_names_every_seat_and_who_sits_out(client, melee, director):
    client.force_login(director)
    dashboard = client.get(url("director")).content.decode()
    assert "13 players registered." in dashboard and "Draw Round 1…" in dashboard
    planned = next_round(melee)
    page = client.get(url("director_draw")).content.decode()
    for heading in ("North", "South", "East", "West"):
        assert f'<th scope="col">{heading}</th>' in page
    first = planned.matches[0]
    assert f"<td>{first.ns.first_player}</td>" in page
    assert f"<td>{first.ew.second_player}</td>" in page
    assert f"Sitting out:</strong> {planned.sit_outs[0].name}" in page
    assert "a won match worth 80 points" in page
    drawn = client.post(url("director_draw"), {"fingerprint": planned.fingerprint})
    assert drawn.status_code == 302 and melee.rounds.count() == 1


def test_the_public_pages_show_the_tables_of_four_and_the_players(client, melee, director):
    first = draw_next_round(melee, by=director)
    play(first, director)
    recompute_standings(melee.pk, force=True)
    match = first.matches.select_related(
        "ns_team__first_player", "ns_team__second_player", "ew_team__first_player"
    ).order_by("table")[0]
    north = match.ns_team.first_player
    sitting = first.sit_outs.select_related("entrant__player").get().entrant

    overview = client.get(url("detail")).content.decode()
    assert "Players <small>(13)</small>" in overview
    assert url("player_table", north.pk) in overview

    schedule = client.get(url("schedule") + "?round=1").content.decode()
    assert f'{url("player_table", north.pk)}">{north}</a> &amp; <a' in schedule
    assert f"{match.ns_team.second_player}</a>" in schedule
    assert "Sitting out:</strong>" in schedule and sitting.name in schedule

    standings = client.get(url("standings")).content.decode()
    assert '<th scope="col">Player</th>' in standings
    assert f'{url("player_table", north.pk)}">{north}</a>' in standings

    player = client.get(url("player_table", north.pk)).content.decode()
    assert "Partners and opponents, round by round" in player
    assert f"<td>{match.ns_team.second_player}</td>" in player  # the partner
    assert f"{match.ew_team.first_player} &amp; " in player  # the opponents
    assert "North" in player and "won" in player
    sat_out = client.get(url("player_table", sitting.player_id)).content.decode()
    assert "sat out" in sat_out

    found = client.get(url("find_player") + "?q=anne").content.decode()
    assert url("player_table", Player.objects.get(first_name="Anne").pk) in found

    club_page = client.get(north.get_absolute_url()).content.decode()
    assert "Mêlée" in club_page and "individual" in club_page


def test_a_player_sees_their_next_table_and_seat(client, melee, director):
    round_ = draw_next_round(melee, by=director)
    match = round_.matches.select_related(
        "ns_team__first_player", "ew_team__second_player"
    ).order_by("table")[0]
    west = match.ew_team.second_player
    page = client.get(url("player_table", west.pk)).content.decode()
    assert f'data-table="{match.table}"' in page and 'data-seat="W"' in page
    assert "You sit West" in page
    sitting = round_.sit_outs.get().entrant
    assert (
        "Round 1: you sit out"
        in client.get(url("player_table", sitting.player_id)).content.decode()
    )


def test_the_printed_sheets_show_the_four_names_and_their_seats(client, melee, director):
    round_ = draw_next_round(melee, by=director)
    client.force_login(director)
    page = client.get(url("director_print_sheets") + "?round=1").content.decode()
    match = round_.matches.select_related(
        "ns_team__first_player",
        "ns_team__second_player",
        "ew_team__first_player",
        "ew_team__second_player",
    ).order_by("table")[0]
    names = [
        ("North", match.ns_team.first_player),
        ("East", match.ew_team.first_player),
        ("South", match.ns_team.second_player),
        ("West", match.ew_team.second_player),
    ]
    seats = " · ".join(
        f'<span data-seat="{s[0]}"><strong>{s}</strong> {p}</span>' for s, p in names
    )
    assert seats in page
    assert page.count('class="sheet-page"') == 3


def test_the_standings_export_lists_players(client, melee, director):
    play(draw_next_round(melee, by=director), director)
    recompute_standings(melee.pk, force=True)
    client.force_login(director)
    lines = client.get(url("director_export_standings")).content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("after_round,rank,player,played,won")
    assert len(lines) == 1 + 13


@pytest.mark.parametrize("players", [9, 41])
def test_every_page_of_a_melee_issues_a_bounded_number_of_queries(
    client, club, director, django_assert_max_num_queries, players
):
    tournament = new_melee(club, director, players)
    for _round in range(2):
        play(draw_next_round(tournament, by=director), director)
    draw_next_round(tournament, by=director)
    recompute_standings(tournament.pk, force=True)
    entrant = tournament.entrants.select_related("player").first()
    assert entrant is not None
    match = tournament.matches.last()
    assert match is not None
    public = [
        url("detail"),
        url("schedule"),
        url("schedule") + "?round=all",
        url("schedule_live") + "?v=stale",
        url("standings"),
        url("standings") + "?after=1",
        url("standings_live") + "?v=stale",
        url("screen"),
        url("screen_live") + "?v=stale",
        url("find_player") + "?q=a",
        url("player_table", entrant.player_id),
        url("player_live", entrant.player_id) + "?v=stale",
        match.get_absolute_url(),
        entrant.player.get_absolute_url(),
    ]
    with django_assert_max_num_queries(PUBLIC_BOUND + PAST_ROUNDS_COMPUTED):
        assert client.get(url("standings")).status_code == 200  # the past rounds computed
    for page in public:
        bound = PLAYER_PAGE_BOUND if page.startswith("/players/") else PUBLIC_BOUND
        with django_assert_max_num_queries(bound):
            assert client.get(page).status_code == 200, page
    client.force_login(director)
    for name in (
        "director",
        "director_entrants",
        "director_draw",
        "director_print_sheets",
        "director_print_standings",
        "director_export_standings",
    ):
        with django_assert_max_num_queries(DIRECTOR_BOUND):
            assert client.get(url(name)).status_code == 200, name


def test_a_tables_page_is_the_usual_one_with_the_four_players(client, melee, director, referee):
    round_ = draw_next_round(melee, by=director)
    match = round_.matches.order_by("table")[0]
    match.referee = referee
    match.save(update_fields=["referee"])
    client.force_login(referee)
    page = client.get(reverse("tournaments:table", args=[match.pk])).content.decode()
    for player in (*match.ns_team.players, *match.ew_team.players):
        assert f'<span class="name">{player}</span>' in page
    # Its referee enters a deal as at any other table.
    form = {"taker": "N", "trump": "H", "points_team": "NS", "cards": "100", "number": "1"}
    saved = client.post(reverse("tournaments:table", args=[match.pk]), form)
    assert saved.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.ns_total, match.ew_total) == ("finished", 100, 62)
