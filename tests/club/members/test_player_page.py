"""The player's page and the API's history and head to head: evenings with place, partners
and points; partners and opponents met most often; names as the profile allows."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership, Player
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.models import Match, Standing, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


@pytest.fixture
def evening(club):  # type: ignore[no-untyped-def]
    """Anne & Ben beat Chloé & Denis 1,012 to 640 in round 1, then drew with Eve & Fred."""
    names = ["Anne Petit", "Ben Roux", "Chloé Noir", "Denis Blanc", "Eve Gris", "Fred Vert"]
    people = {}
    for name in names:
        first, last = name.split()
        people[first] = PlayerFactory(first_name=first, last_name=last)
        MembershipFactory(club=club, player=people[first])
    tournament = TournamentFactory(
        club=club, is_public=True, name="Coupe d'hiver", starts_on=datetime.date(2026, 11, 7)
    )
    ab = TeamFactory(
        tournament=tournament,
        first_player=people["Anne"],
        second_player=people["Ben"],
        name="Petit – Roux",
    )
    cd = TeamFactory(
        tournament=tournament, first_player=people["Chloé"], second_player=people["Denis"]
    )
    ef = TeamFactory(
        tournament=tournament, first_player=people["Eve"], second_player=people["Fred"]
    )
    finished = {"status": Match.Status.FINISHED}
    MatchFactory(
        round__tournament=tournament,
        tournament=tournament,
        ns_team=ab,
        ew_team=cd,
        ns_total=1012,
        ew_total=640,
        winner="NS",
        **finished,
    )
    MatchFactory(
        round__tournament=tournament,
        tournament=tournament,
        ns_team=ef,
        ew_team=ab,
        ns_total=800,
        ew_total=800,
        winner="draw",
        **finished,
    )
    Standing.objects.create(
        tournament=tournament, team=ab, round_number=2, rank=1, points_for=1812, match_points=3
    )
    return people, tournament


def test_the_page_lists_the_evening_with_place_partner_and_points(evening):
    people, _tournament = evening
    page = Client().get(people["Anne"].get_absolute_url()).content.decode()
    assert "Evenings played" in page and "Coupe d&#x27;hiver" in page
    assert "1812" in page and "Ben Roux" in page
    assert "Opponents met most often" in page


def test_the_api_history_and_head_to_head(evening):
    people, tournament = evening
    anne = people["Anne"]
    history = APIClient().get(f"/api/v1/players/{anne.pk}/history/").json()
    assert history["evenings"] == [
        {
            "tournament": tournament.pk,
            "tournament_name": "Coupe d'hiver",
            "date": "2026-11-07",
            "place": 1,
            "shared": False,
            "points": 1812,
            "match_points": 3,
            "partners": [{"id": people["Ben"].pk, "name": "Ben Roux"}],
        }
    ]
    assert history["partners"] == [{"id": people["Ben"].pk, "name": "Ben Roux", "matches": 2}]
    assert len(history["opponents"]) == 4
    h2h = (
        APIClient()
        .get(f"/api/v1/players/{anne.pk}/head-to-head/", {"against": people["Chloé"].pk})
        .json()
    )
    assert h2h == {
        "against": people["Chloé"].pk,
        "matches": 1,
        "won": 1,
        "lost": 0,
        "drawn": 0,
        "points_for": 1012,
        "points_against": 640,
    }
    drawn = (
        APIClient()
        .get(f"/api/v1/players/{anne.pk}/head-to-head/", {"against": people["Eve"].pk})
        .json()
    )
    assert (drawn["drawn"], drawn["points_for"]) == (1, 800)
    bad = APIClient().get(f"/api/v1/players/{anne.pk}/head-to-head/", {"against": "x"})
    assert bad.status_code == 400 and "against" in bad.json()["errors"]


def test_the_page_shows_the_head_to_head_asked_for(evening):
    people, _tournament = evening
    page = Client().get(people["Anne"].get_absolute_url(), {"against": people["Chloé"].pk})
    assert "1 matches, 1 won, 0 lost, 0 drawn" in page.content.decode()


def test_a_members_only_name_is_initials_to_visitors_and_full_to_the_clubs_members(club, evening):
    people, _tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.MEMBERS
    ben.save()
    anne_url = people["Anne"].get_absolute_url()
    assert "B. R." in Client().get(anne_url).content.decode()
    assert "Ben Roux" not in Client().get(anne_url).content.decode()
    api = APIClient().get(f"/api/v1/players/{people['Anne'].pk}/history/").json()
    assert api["partners"][0]["name"] == "B. R."
    member = Client()
    member.force_login(make_staff(club, Membership.Role.MEMBER, "member"))
    assert "Ben Roux" in member.get(anne_url).content.decode()
    stranger = Client()
    stranger.force_login(make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger"))
    assert "Ben Roux" not in stranger.get(anne_url).content.decode()


def test_a_hidden_name_is_initials_even_to_members_but_not_to_the_directors(club, evening):
    people, _tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.HIDDEN
    ben.save()
    member = Client()
    member.force_login(make_staff(club, Membership.Role.MEMBER, "member"))
    page = member.get(ben.get_absolute_url()).content.decode()
    assert "<h1>B. R.</h1>" in page
    director = Client()
    director.force_login(make_staff(club, Membership.Role.DIRECTOR, "director"))
    assert "<h1>Ben Roux</h1>" in director.get(ben.get_absolute_url()).content.decode()


def test_the_standings_and_the_api_show_initials_for_a_hidden_member(club, evening):
    people, tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.HIDDEN
    ben.save()
    url = reverse("tournaments:standings", args=[club.slug, tournament.slug])
    standings = Client().get(url).content.decode()
    assert "Anne Petit &amp; B. R." in standings and "Petit – Roux" not in standings
    schedule_url = reverse("tournaments:schedule", args=[club.slug, tournament.slug])
    schedule = Client().get(schedule_url + "?round=all").content.decode()
    assert "Anne Petit &amp; B. R." in schedule and "Petit – Roux" not in schedule
    team = Team.objects.get(name="Petit – Roux")
    team_page = Client().get(
        reverse("tournaments:team", args=[club.slug, tournament.slug, team.pk])
    )
    assert "Anne Petit &amp; B. R." in team_page.content.decode()
    assert "Ben Roux" not in team_page.content.decode()
    sheet = Client().get(team.ns_matches.first().get_absolute_url()).content.decode()
    assert "Anne Petit &amp; B. R." in sheet and "Ben Roux" not in sheet
    api = APIClient().get(f"/api/v1/players/{ben.pk}/").json()
    assert (api["name"], api["first_name"], api["last_name"]) == ("B. R.", "B.", "R.")
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    assert client_for(director).get(f"/api/v1/players/{ben.pk}/").json()["name"] == "Ben Roux"


def test_the_standings_and_teams_api_name_a_hidden_member_by_initials(club, evening):
    people, tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.HIDDEN
    ben.save()
    body = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert [line["team"]["name"] for line in body["results"]] == ["Anne Petit & B. R."]
    teams = APIClient().get("/api/v1/teams/", {"tournament": tournament.pk}).json()["results"]
    ours = next(team for team in teams if team["first_player"]["id"] == people["Anne"].pk)
    assert (ours["name"], ours["second_player"]["name"]) == ("Anne Petit & B. R.", "B. R.")


def test_the_page_shows_the_players_rows_in_the_series_under_way(club, evening):
    from seasons.models import Season, Series, SeriesLine

    people, _tournament = evening
    season = Season.objects.create(
        club=club,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2099, 6, 30),
    )
    series = Series.objects.create(season=season, name="Winter cup")
    SeriesLine.objects.create(
        series=series, player=people["Anne"], position=1, rank=2, played=3, total=57
    )
    page = Client().get(people["Anne"].get_absolute_url()).content.decode()
    assert "Current series" in page and "Winter cup" in page and '<td class="num">57</td>' in page
    assert "Current series" not in Client().get(people["Eve"].get_absolute_url()).content.decode()


def test_the_club_ranking_names_a_members_only_member_by_initials_to_visitors(club, evening):
    from django.utils import timezone

    from club.models import Rating

    people, _tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.MEMBERS
    ben.save()
    Rating.objects.create(
        club=club, player=ben, mu=25, sigma=8, rating=3, computed_at=timezone.now()
    )
    ranking = reverse("club:ranking", args=[club.slug])
    assert "B. R." in Client().get(ranking).content.decode()
    member = Client()
    member.force_login(make_staff(club, Membership.Role.MEMBER, "member"))
    assert "Ben Roux" in member.get(ranking).content.decode()


def test_find_my_table_and_the_players_table_show_a_hidden_member_by_initials(club, evening):
    people, tournament = evening
    ben = people["Ben"]
    ben.profile = Player.Profile.HIDDEN
    ben.save()
    args = [club.slug, tournament.slug]
    found = Client().get(reverse("tournaments:find_player", args=args), {"q": "Roux"})
    assert ">B. R.</a>" in found.content.decode() and "Ben Roux" not in found.content.decode()
    anne = Client().get(reverse("tournaments:player_table", args=[*args, people["Anne"].pk]))
    page = anne.content.decode()
    assert "Anne Petit &amp; B. R." in page and "Petit – Roux" not in page
    assert "Ben Roux" not in page
    # The club's director reads the full name where the page is theirs alone.
    director = make_staff(club, Membership.Role.DIRECTOR, "director")
    signed_in = Client()
    signed_in.force_login(director)
    found = signed_in.get(reverse("tournaments:find_player", args=args), {"q": "Roux"})
    assert ">Ben Roux</a>" in found.content.decode()
