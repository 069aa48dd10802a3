"""A player is shown publicly only through a public tournament or a club's ranking: a player known
only from a private tournament (or only registered in the club) is not found by anyone but the
club's directors, on the API and on the player's page alike."""

from __future__ import annotations

import pytest
from django.utils import timezone

from club.models import Membership, Rating
from tests.factories import MembershipFactory, PlayerFactory, TeamFactory, make_staff
from tournaments.permissions import can_see_player

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club, tournament, private_tournament):  # type: ignore[no-untyped-def]
    """One player per way of being known: a public team, a private team, the ranking, the club."""
    public = TeamFactory(tournament=tournament).first_player
    private = TeamFactory(tournament=private_tournament).first_player
    ranked = PlayerFactory(first_name="Rita", last_name="Ranked")
    Rating.objects.create(
        club=club, player=ranked, mu=25, sigma=5, rating=10, computed_at=timezone.now()
    )
    member = PlayerFactory(first_name="Mona", last_name="Member")
    for player in (public, private, ranked, member):
        MembershipFactory(club=club, player=player)
    return {"public": public, "private": private, "ranked": ranked, "member": member}


def listed(client) -> set[int]:  # type: ignore[no-untyped-def]
    body = client.get("/api/v1/players/", {"page_size": 200}).json()
    return {row["id"] for row in body["results"]}


def test_anonymous_readers_see_players_of_public_tournaments_and_of_the_ranking_only(
    anonymous_client, client, players
):
    shown = {players["public"].pk, players["ranked"].pk}
    assert listed(anonymous_client) & {p.pk for p in players.values()} == shown
    for name, player in players.items():
        expected = 200 if player.pk in shown else 404
        assert anonymous_client.get(f"/api/v1/players/{player.pk}/").status_code == expected, name
        assert (
            anonymous_client.get(f"/api/v1/players/{player.pk}/ratings/").status_code == expected
        ), name
        assert client.get(f"/players/{player.pk}/").status_code == expected, name


def test_a_referee_of_another_club_does_not_see_the_private_tournaments_players(players):
    from tests.factories import ClubFactory

    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    assert players["private"].pk not in listed(client_for(stranger))
    assert not can_see_player(stranger, players["private"])


def test_the_clubs_director_sees_every_member_and_private_player(
    director_client, director, players
):
    assert {p.pk for p in players.values()} <= listed(director_client)
    assert director_client.get(f"/api/v1/players/{players['private'].pk}/").status_code == 200
    assert can_see_player(director, players["member"])


def test_a_referee_of_the_private_tournament_sees_its_players(private_tournament, players):
    from tests.factories import MatchFactory, UserFactory

    referee = UserFactory(username="private-ref")
    MatchFactory(
        round__tournament=private_tournament, tournament=private_tournament, referee=referee
    )
    assert can_see_player(referee, players["private"])
    assert not can_see_player(referee, players["member"])
