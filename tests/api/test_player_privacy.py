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


# --- issue 28 item 2: a private tournament's matches count in no rating ---------------------


def finished_match(tournament):  # type: ignore[no-untyped-def]
    from tests.factories import MatchFactory
    from tournaments.models import Match

    match = MatchFactory(round__tournament=tournament, tournament=tournament)
    for player in (*match.ns_team.players, *match.ew_team.players):
        MembershipFactory(club=tournament.club, player=player)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        finished_at=timezone.now(),
        winner="NS",
        ns_total=1001,
        ew_total=640,
    )
    return match


def test_a_private_tournaments_finished_match_makes_nobody_public(
    anonymous_client, client, club, private_tournament
):
    from club.models import RatingChange
    from tournaments.services.ratings import recompute_ratings

    match = finished_match(private_tournament)
    recompute_ratings(club.pk, force=True)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    for player in match.ns_team.players:
        assert player.pk not in listed(anonymous_client)
        assert anonymous_client.get(f"/api/v1/players/{player.pk}/").status_code == 404
        assert client.get(f"/players/{player.pk}/").status_code == 404
    rankings = anonymous_client.get(f"/api/v1/clubs/{club.pk}/rankings/").json()
    assert str(match.ns_team.first_player.last_name) not in str(rankings)


def test_a_tournament_made_private_takes_its_matches_out_of_the_ratings(
    anonymous_client, director, club, tournament, django_capture_on_commit_callbacks
):
    from tournaments.services.ratings import recompute_ratings
    from tournaments.services.settings import update_tournament

    match = finished_match(tournament)
    recompute_ratings(club.pk, force=True)
    assert Rating.objects.filter(player=match.ns_team.first_player).exists()
    with django_capture_on_commit_callbacks(execute=True):
        update_tournament(tournament, by=director, is_public=False)
    assert not Rating.objects.exists()
    assert (
        anonymous_client.get(f"/api/v1/players/{match.ns_team.first_player.pk}/").status_code == 404
    )
