"""Gaps left after the hardening round (issue 28, second pass).

Refuse without naming: a substitute (or the player said to leave) whom the club does not know
is refused as an id that does not exist, word for word, so a director of any club cannot read
another club's players' names through their own team; a series' evening of another club is
refused without its name. Hidden characters: the one check (club.text) also guards the season
and series names, the reason a table calls the director, the e-mail address of an online
registration and the score pad's names, on the pages and through the API (400 naming the
field), storing nothing.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from entries.models import Registration
from pad.models import Pad
from seasons.models import Season, Series
from seasons.services.seasons import save_season, series_problems
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
)
from tournaments.models import DirectorCall, Match, Substitution, Tournament
from tournaments.services import generate_round_robin
from tournaments.services.settings import create_tournament
from tournaments.services.table_referees import assign_referee

pytestmark = pytest.mark.django_db

RLO = "\u202e"
MISSING = 987654


def evening(club: Any, director: Any) -> Tournament:
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        rules={"target": None, "max_deals": 1},
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    generate_round_robin(tournament, by=director)
    return tournament


@pytest.fixture
def elsewhere_player() -> Any:
    """A member of another club only."""
    player = PlayerFactory(first_name="Zed", last_name="Secretplayer")
    MembershipFactory(club=ClubFactory(name="Elsewhere"), player=player)
    return player


@pytest.fixture
def private_player() -> Any:
    """A player known only from another club's private tournament."""
    hidden = TournamentFactory(club=ClubFactory(), is_public=False)
    return TeamFactory(
        tournament=hidden, first_player__first_name="Yann", first_player__last_name="Hiddenname"
    ).first_player


# --- substitutes -------------------------------------------------------------------------------


def _substitute(director: Any, team: Any, **body: Any) -> Any:
    body = {"out": team.first_player_id, "in": None, "from_round": 1, **body}
    return client_for(director).post(f"/api/v1/teams/{team.pk}/substitutes/", body, format="json")


@pytest.mark.parametrize("who", ["elsewhere_player", "private_player"])
def test_a_substitute_the_club_does_not_know_is_refused_as_a_missing_id(
    club, director, who, request
):
    stranger = request.getfixturevalue(who)
    team = evening(club, director).teams.get(seed=1)
    refused = _substitute(director, team, **{"in": stranger.pk})
    missing = _substitute(director, team, **{"in": MISSING})
    assert refused.status_code == missing.status_code == 400
    text = str(refused.json())
    assert stranger.first_name not in text and stranger.last_name not in text
    assert "in" in refused.json()["errors"]
    # The same answer as for an id that does not exist: nothing to tell them apart by.
    assert str(refused.json()).replace(str(stranger.pk), "#") == str(missing.json()).replace(
        str(MISSING), "#"
    )
    assert not Substitution.objects.exists()


def test_the_player_said_to_leave_is_not_named_when_the_club_does_not_know_them(
    club, director, elsewhere_player
):
    team = evening(club, director).teams.get(seed=1)
    into = MembershipFactory(club=club).player
    refused = _substitute(director, team, out=elsewhere_player.pk, **{"in": into.pk})
    missing = _substitute(director, team, out=MISSING, **{"in": into.pk})
    assert refused.status_code == 400
    assert "Secretplayer" not in str(refused.json())
    assert "out" in refused.json()["errors"]
    assert str(refused.json()).replace(str(elsewhere_player.pk), "#") == str(
        missing.json()
    ).replace(str(MISSING), "#")


def test_the_substitute_page_does_not_name_another_clubs_player(
    client, club, director, elsewhere_player
):
    tournament = evening(club, director)
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    page = client.post(
        reverse("tournaments:director_substitute", args=[club.slug, tournament.slug, team.pk]),
        {"out": team.first_player_id, "in": elsewhere_player.pk, "from_round": 1},
        follow=True,
    )
    assert page.status_code == 200
    assert b"Secretplayer" not in page.content
    assert not Substitution.objects.exists()


def test_a_member_of_the_club_is_still_named_in_a_refusal(club, director):
    """A player the club knows is named as before: the director knows them."""
    tournament = evening(club, director)
    team, other = tournament.teams.get(seed=1), tournament.teams.get(seed=2)
    refused = _substitute(director, team, **{"in": other.first_player_id})
    assert refused.status_code == 400
    assert other.first_player.last_name in str(refused.json())


# --- a series' evenings ------------------------------------------------------------------------


def test_another_clubs_tournament_in_a_series_is_refused_without_its_name(
    club, director, director_client
):
    season = save_season(
        club=club,
        by=director,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    secret = TournamentFactory(
        club=ClubFactory(), name="Secret evening", is_public=False, starts_on=season.starts_on
    )
    body = {"name": "Jeudis", "points": "score", "tournaments": [secret.pk]}
    refused = director_client.post(f"/api/v1/seasons/{season.pk}/series/", body, format="json")
    missing = director_client.post(
        f"/api/v1/seasons/{season.pk}/series/", {**body, "tournaments": [MISSING]}, format="json"
    )
    assert refused.status_code == 400
    assert "Secret evening" not in str(refused.json())
    assert str(refused.json()).replace(str(secret.pk), "#") == str(missing.json()).replace(
        str(MISSING), "#"
    )
    # The service itself (the page's form offers only the club's) names no one either.
    rules = {
        "points": "score",
        "place_points": [],
        "participation_points": 0,
        "best_of": None,
        "min_evenings": 0,
        "handicap": "none",
    }
    problems = series_problems(season, name="Jeudis", rules=rules, tournaments=[secret])
    assert "Secret evening" not in str(problems["tournaments"])
    assert not Series.objects.exists()


# --- hidden characters -------------------------------------------------------------------------


def test_a_season_name_with_a_hidden_character_is_refused_naming_the_field(
    client, club, director, director_client
):
    body = {"name": f"2026{RLO}27", "starts_on": "2026-09-01", "ends_on": "2027-06-30"}
    answer = director_client.post(f"/api/v1/clubs/{club.pk}/seasons/", body, format="json")
    assert answer.status_code == 400
    assert "U+202E" in answer.json()["errors"]["name"][0]
    client.force_login(director)
    page = client.post(reverse("seasons:director_season_new", args=[club.slug]), body)
    assert page.status_code == 200
    assert "U+202E" in str(page.context["form"].errors["name"])
    assert not Season.objects.exists()


def test_a_series_name_with_a_hidden_character_is_refused_naming_the_field(
    client, club, director, director_client
):
    season = save_season(
        club=club,
        by=director,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    body = {"name": f"Jeu{RLO}dis", "points": "score"}
    answer = director_client.post(f"/api/v1/seasons/{season.pk}/series/", body, format="json")
    assert answer.status_code == 400
    assert "U+202E" in answer.json()["errors"]["name"][0]
    client.force_login(director)
    page = client.post(
        reverse("seasons:director_series_new", args=[club.slug, season.pk]),
        {
            **body,
            "participation_points": 0,
            "absent_points": 0,
            "min_evenings": 0,
            "handicap": "none",
        },
    )
    assert page.status_code == 200
    assert "U+202E" in str(page.context["form"].errors["name"])
    assert not Series.objects.exists()


@pytest.fixture
def called_table(club, director, referee) -> Match:
    tournament = evening(club, director)
    match = (
        Match.objects.filter(tournament=tournament, round__number=1, ew_team__isnull=False)
        .order_by("table")
        .first()
    )
    assert match is not None
    assign_referee(match, referee, by=director)
    return match


@pytest.mark.parametrize("char", [RLO, "\u200b", "\x07"])
def test_a_call_reason_with_a_hidden_character_is_refused_naming_the_field(
    client, called_table, referee, char
):
    answer = client_for(referee).post(
        f"/api/v1/matches/{called_table.pk}/calls/", {"reason": f"a re{char}voke"}, format="json"
    )
    assert answer.status_code == 400
    assert "reason" in answer.json()["errors"]
    client.force_login(referee)
    page = client.post(
        reverse("tournaments:call_director", args=[called_table.pk]),
        {"reason": f"a re{char}voke"},
        follow=True,
    )
    assert page.status_code == 200
    assert not DirectorCall.objects.exists()


@pytest.fixture
def open_tournament(tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(
        registration="open", status="open", capacity=8, check_in="on", entry_fee=Decimal("5")
    )
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("email", f"marie@exa{RLO}mple.org"),
        ("email", "marie@exa\u200bmple.org"),
        ("phone", f"06{RLO}12"),
    ],
)
def test_a_registration_with_a_hidden_character_is_refused_naming_the_field(
    client, anonymous_client, open_tournament, field, value
):
    body = {"players": ["Marie Dupont", "Luc Martin"], field: value}
    answer = anonymous_client.post(
        f"/api/v1/tournaments/{open_tournament.pk}/registrations/", body, format="json"
    )
    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    page = client.post(
        reverse("entries:register", args=[open_tournament.club.slug, open_tournament.slug]),
        {"player": "Marie Dupont", "partner": "Luc Martin", field: value},
    )
    assert page.status_code == 200
    assert page.context["form"].errors.get(field)
    assert not Registration.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/pads/", "/api/v1/pads/replay/"])
def test_a_pad_name_with_a_hidden_character_is_refused_naming_the_field(anonymous_client, path):
    body = {"players": ["Anna", f"Br{RLO}am", "Cato"], "rules": {}}
    answer = anonymous_client.post(path, body, format="json")
    assert answer.status_code == 400
    assert "U+202E" in answer.json()["errors"]["players"][0]
    assert not Pad.objects.exists()


def test_a_pad_name_with_a_line_break_inside_is_still_one_name(anonymous_client):
    """Spacing is folded before the check, as the name is stored: not refused."""
    body = {"players": ["Anna", "Br\nam", "Cato"], "rules": {}}
    assert anonymous_client.post("/api/v1/pads/", body, format="json").status_code == 201
