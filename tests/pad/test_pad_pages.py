"""The score pad's pages: new, continued by its private key, read-only, and attached to a club."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pad.models import Pad
from pad.services import create_pad
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

MADE_BY_N = {"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50}}}


@pytest.fixture
def pad():
    return create_pad(players=["Anna", "Bram", "Cato"], rules={"target": 60}, deals=[MADE_BY_N])[0]


def test_the_pad_needs_no_account(client):
    page = client.get(reverse("pad:new")).content.decode()
    assert 'id="pad"' in page and "House rules" in page
    # The number of players is chosen with the names; litige has no place at two or three.
    assert 'data-rule="players"' not in page
    assert 'data-rule="litige" data-kind="choice" data-four-only' in page


def test_a_saved_game_continues_from_its_private_address(client, pad):
    page = client.get(reverse("pad:game", args=[pad.key])).content.decode()
    assert pad.key in page and reverse("pad:view", args=[pad.view_key]) in page


def test_the_read_only_page_names_the_winner(client, pad):
    page = client.get(reverse("pad:view", args=[pad.view_key])).content.decode()
    assert "Anna wins!" in page
    assert pad.key not in page


def test_an_unknown_address_is_404(client):
    assert client.get("/pad/nosuchkeyatallhere/").status_code == 404
    assert client.get("/pad/view/nosuchkeyatallhere/").status_code == 404


def test_a_member_attaches_the_game_to_their_club(client, pad):
    club = ClubFactory(name="Klaverclub")
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user))
    client.force_login(user)
    assert "Klaverclub" in client.get(reverse("pad:game", args=[pad.key])).content.decode()
    client.post(reverse("pad:attach", args=[pad.key]), {"club": club.pk})
    pad.refresh_from_db()
    assert pad.club == club and pad.attached_by == user


def test_someone_else_cannot_attach_it_to_a_club_they_are_not_in(client, pad):
    club = ClubFactory()
    client.force_login(UserFactory())
    client.post(reverse("pad:attach", args=[pad.key]), {"club": club.pk})
    pad.refresh_from_db()
    assert pad.club is None


def test_an_outsider_is_sent_to_sign_in(client, pad):
    answer = client.post(reverse("pad:attach", args=[pad.key]), {"club": ClubFactory().pk})
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert Pad.objects.get().club is None


def test_the_clubs_members_find_its_friendly_games_on_the_club_page(client, pad):
    club = ClubFactory(name="Klaverclub", slug="klaver")
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user))
    client.force_login(user)
    client.post(reverse("pad:attach", args=[pad.key]), {"club": club.pk})
    page = client.get(reverse("club:detail", args=["klaver"])).content.decode()
    assert "Friendly games" in page and "Anna · Bram · Cato" in page
    assert reverse("pad:view", args=[pad.view_key]) in page and pad.key not in page
    # The friends' names are not public: neither a visitor nor another club's member sees them.
    client.logout()
    assert (
        "Anna · Bram · Cato"
        not in client.get(reverse("club:detail", args=["klaver"])).content.decode()
    )
    stranger = UserFactory()
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=stranger))
    client.force_login(stranger)
    assert (
        "Friendly games" not in client.get(reverse("club:detail", args=["klaver"])).content.decode()
    )


def test_the_house_rules_never_speak_of_teams_alone_as_a_three_player_game_has_none(client):
    page = client.get(reverse("pad:new")).content.decode()
    assert "at which a team reaches this total" not in page
    assert "a team, or a player playing alone, reaches this total" in page
    assert "when more than one team or player passes the target" in page


def test_the_saved_addresses_can_be_copied_and_shared(client, pad):
    private = f"http://testserver{reverse('pad:game', args=[pad.key])}"
    view = f"http://testserver{reverse('pad:view', args=[pad.view_key])}"
    page = client.get(reverse("pad:game", args=[pad.key])).content.decode()
    assert page.count(f'data-copy="{private}"') == 1 and page.count(f'data-share="{private}"') == 1
    assert page.count(f'data-copy="{view}"') == 1 and page.count(f'data-share="{view}"') == 1
    # The read-only page offers its own address, never the private one.
    shown = client.get(reverse("pad:view", args=[pad.view_key])).content.decode()
    assert f'data-copy="{view}"' in shown and f'data-share="{view}"' in shown
    assert pad.key not in shown


def test_a_game_not_saved_has_no_address_to_copy(client):
    page = client.get(reverse("pad:new")).content.decode()
    assert "data-copy=" not in page
