"""Merging two records of one person: everything of the second moves to the first in one
transaction, audited, the old addresses answering 301; refused when both sat at one table."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from club.models import MemberEvent, Membership, Player, Rating, RatingChange
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
from tournaments.models import MatchSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(name="Belote Club de Lyon", slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def people(club):  # type: ignore[no-untyped-def]
    """Marie Leclerc (kept), her typo Marie Lecler, and Luc who partnered the typo."""
    kept = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"), email="m@x.fr"
    ).player
    typo = MembershipFactory(
        club=club,
        player=PlayerFactory(first_name="Marie", last_name="Lecler"),
        phone="0611",
        licence="L-1",
    ).player
    luc = MembershipFactory(
        club=club, player=PlayerFactory(first_name="Luc", last_name="Roux")
    ).player
    return kept, typo, luc


def rating(club, player, value):  # type: ignore[no-untyped-def]
    now = timezone.now()
    Rating.objects.create(
        club=club, player=player, mu=25, sigma=8, rating=value, matches_played=1, computed_at=now
    )


def merge(client, club, second, into):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/v1/clubs/{club.pk}/members/{second.pk}/merge/", {"into": into.pk}, format="json"
    )


def test_every_row_of_the_second_moves_to_the_first_and_it_answers_301(club, director, people):
    kept, typo, luc = people
    tournament = TournamentFactory(club=club, is_public=True, starts_on=datetime.date(2026, 10, 3))
    team = TeamFactory(
        tournament=tournament, first_player=typo, second_player=luc, name="Lecler – Roux"
    )
    match = MatchFactory(round__tournament=tournament, tournament=tournament, ns_team=team)
    MatchSeat.objects.filter(match=match, team=team).update(first_player=typo, second_player=luc)
    rating(club, kept, 10.0)
    rating(club, typo, 12.0)
    RatingChange.objects.create(
        club=club,
        player=typo,
        match_id=match.pk,
        played_at=timezone.now(),
        mu=25,
        sigma=8,
        rating=12,
    )
    response = merge(client_for(director), club, typo, kept)
    assert response.status_code == 200, response.json()
    team.refresh_from_db()
    assert (team.first_player_id, team.name) == (kept.pk, "Leclerc – Roux")
    assert MatchSeat.objects.get(match=match, side="NS").first_player_id == kept.pk
    assert Rating.objects.filter(player=kept).count() == 1 and not Rating.objects.filter(
        player=typo
    )
    assert RatingChange.objects.get(match_id=match.pk).player_id == kept.pk
    membership = Membership.objects.get(club=club, player=kept)
    assert (membership.email, membership.phone, membership.licence) == ("m@x.fr", "0611", "L-1")
    assert not Membership.objects.filter(player=typo).exists()
    typo.refresh_from_db()
    assert typo.merged_into_id == kept.pk
    event = MemberEvent.objects.get(action="merged")
    assert (event.player_id, event.details["merged"]) == (kept.pk, typo.pk)
    page = APIClient().get(f"/players/{typo.pk}/")
    assert page.status_code == 301 and page["Location"].endswith(f"/players/{kept.pk}/")
    api = APIClient().get(f"/api/v1/players/{typo.pk}/")
    assert api.status_code == 301 and api["Location"].endswith(f"/api/v1/players/{kept.pk}/")


def test_two_records_that_sat_at_one_table_are_two_people_409(club, director, people):
    kept, typo, luc = people
    tournament = TournamentFactory(club=club)
    ns = TeamFactory(tournament=tournament, first_player=kept, second_player=luc)
    ew = TeamFactory(tournament=tournament, first_player=typo)
    MatchFactory(round__tournament=tournament, tournament=tournament, ns_team=ns, ew_team=ew)
    response = merge(client_for(director), club, typo, kept)
    assert response.status_code == 409
    assert response.json()["code"] == "played_together"
    assert Player.objects.get(pk=typo.pk).merged_into_id is None
    assert ew.__class__.objects.get(pk=ew.pk).first_player_id == typo.pk


def test_a_record_is_not_merged_into_itself(club, director, people):
    kept, _typo, _luc = people
    response = merge(client_for(director), club, kept, kept)
    assert response.status_code == 409 and response.json()["code"] == "same_player"


def test_nobody_but_the_clubs_directors_merges(club, people):
    kept, typo, _luc = people
    referee = make_staff(club, Membership.Role.REFEREE, "referee")
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    for client in (client_for(referee), client_for(stranger)):
        assert merge(client, club, typo, kept).status_code == 404
    assert merge(APIClient(), club, typo, kept).status_code == 401
    assert Player.objects.get(pk=typo.pk).merged_into_id is None
