"""A refusal never names another club's people (issue 28 item 3): a player of another club put
in a team, a site admin or a stranger made a referee, are refused by id, not by name."""

from __future__ import annotations

import pytest

from club.models import Membership
from tests.factories import ClubFactory, MatchFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def secret_player():
    player = PlayerFactory(first_name="Zed", last_name="Secretplayer")
    MembershipFactory(club=ClubFactory(name="Elsewhere"), player=player)
    return player


def test_a_team_with_another_clubs_player_is_refused_without_the_name(
    director_client, club, tournament, secret_player
):
    mine = PlayerFactory()
    MembershipFactory(club=club, player=mine)
    for first, second, field in (
        (secret_player, mine, "first_player"),
        (mine, secret_player, "second_player"),
    ):
        refused = director_client.post(
            f"/api/v1/tournaments/{tournament.pk}/teams/",
            {"name": "Mixed", "first_player": first.pk, "second_player": second.pk},
            format="json",
        )
        assert refused.status_code == 400
        text = str(refused.json())
        assert "Secretplayer" not in text and "Zed" not in text
        assert str(secret_player.pk) in refused.json()["errors"][field][0]


def test_another_clubs_player_entered_alone_is_refused_without_the_name(
    director_client, club, secret_player
):
    from tests.factories import TournamentFactory

    melee = TournamentFactory(club=club, format="individual", round_count=3)
    refused = director_client.post(
        f"/api/v1/tournaments/{melee.pk}/entrants/", {"players": [secret_player.pk]}, format="json"
    )
    assert refused.status_code == 400
    assert "Secretplayer" not in str(refused.json())
    assert not Entrant.objects.exists()


def test_a_site_admin_or_a_stranger_made_referee_is_refused_without_the_name(
    director_client, tournament
):
    match = MatchFactory(round__tournament=tournament, tournament=tournament)
    siteadmin = UserFactory(username="siteadmin", is_superuser=True, is_staff=True)
    stranger = UserFactory(username="zed.secret", first_name="Zed", last_name="Secretplayer")
    MembershipFactory(club=ClubFactory(), player__user=stranger, role=Membership.Role.REFEREE)
    for user in (siteadmin, stranger):
        refused = director_client.post(
            f"/api/v1/matches/{match.pk}/referee/", {"referee": user.pk}, format="json"
        )
        assert refused.status_code == 400
        text = str(refused.json())
        assert user.username not in text and "Secretplayer" not in text
        assert str(user.pk) in refused.json()["errors"]["referee"][0]


def test_a_link_for_another_clubs_person_is_refused_without_the_name(director, tournament):
    from tournaments.errors import ServiceError
    from tournaments.services.referees import make_referee_link

    stranger = UserFactory(username="zed.secret")
    with pytest.raises(ServiceError) as refused:
        make_referee_link(tournament, stranger, by=director)
    assert "zed.secret" not in refused.value.message
