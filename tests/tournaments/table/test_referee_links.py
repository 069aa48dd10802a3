"""Referees without admin work: made from names, each given a private link (stored hashed) that
signs them in for one tournament's tables only, never more than a referee, until revoked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership, Player, secret_digest
from club.referees import register_referees
from club.registration import RegistrationRefused
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    make_staff,
)
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import MatchEvent, RefereeLink
from tournaments.services.referees import (
    add_referees,
    make_referee_link,
    revoke_referee_link,
    use_referee_link,
)

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


@pytest.fixture
def tournament():
    return TournamentFactory(name="Winter Cup", slug="winter-cup", rules={"target": 500})


@pytest.fixture
def director(tournament):
    return make_staff(tournament.club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def marie(tournament, director):
    """Marie Dupont, made a referee from her name, with her link to the Winter Cup."""
    (fresh,) = add_referees(tournament, "Marie Dupont", by=director)
    return fresh


def link_url(secret):
    return reverse("tournaments:referee_link", args=[secret])


def signed_in_by_link(secret):
    client = Client()
    response = client.post(link_url(secret))
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:my_tables")
    return client


# --- making referees and links -------------------------------------------------------------


def test_a_name_becomes_a_referee_with_an_account_without_password(tournament, marie):
    user = marie.link.referee
    assert user.username == "marie.dupont"
    assert not user.has_usable_password()
    assert not user.is_staff and not user.is_superuser
    player = Player.objects.get(user=user)
    assert (player.first_name, player.last_name) == ("Marie", "Dupont")
    assert player.memberships.get(club=tournament.club).role == Membership.Role.REFEREE


def test_a_member_of_that_name_is_made_a_referee_not_registered_twice(tournament, director):
    member = PlayerFactory(first_name="Paul", last_name="Roux")
    MembershipFactory(club=tournament.club, player=member)
    (fresh,) = add_referees(tournament, "paul roux", by=director)
    member.refresh_from_db()
    assert fresh.link.referee == member.user
    assert member.memberships.get().role == Membership.Role.REFEREE
    assert Player.objects.filter(last_name="Roux").count() == 1


def test_a_login_already_taken_gets_a_number(tournament, director):
    (first,) = register_referees(tournament.club, "Jean Blanc", by=director)
    someone_else = UserFactory(username="luc.petit")
    (second,) = register_referees(tournament.club, "Luc Petit", by=director)
    assert first.username == "jean.blanc"
    assert second.username == "luc.petit2" and second != someone_else


def test_a_line_that_is_not_a_name_registers_nobody(tournament, director):
    with pytest.raises(RegistrationRefused) as refused:
        register_referees(tournament.club, "Marie Dupont\n42", by=director)
    assert "line 2" in str(refused.value.problems[0])
    assert not Player.objects.filter(last_name="Dupont").exists()


def test_only_a_director_of_the_club_makes_referees_and_links(tournament, marie):
    referee = marie.link.referee
    with pytest.raises(NotAllowed):
        add_referees(tournament, "Eve Noir", by=referee)
    with pytest.raises(NotAllowed):
        make_referee_link(tournament, referee, by=referee)


def test_only_the_hash_of_the_secret_is_stored(marie):
    stored = RefereeLink.objects.get(pk=marie.link.pk)
    assert stored.digest == secret_digest(marie.secret) != marie.secret
    assert len(marie.secret) >= 24
    assert not RefereeLink.objects.filter(digest=marie.secret).exists()


def test_a_new_link_revokes_the_previous_one(tournament, director, marie):
    again = make_referee_link(tournament, marie.link.referee, by=director)
    marie.link.refresh_from_db()
    assert marie.link.revoked_at is not None and again.link.is_live
    with pytest.raises(ServiceError):
        use_referee_link(marie.secret)
    assert use_referee_link(again.secret) == again.link


def test_a_director_gets_no_link_they_sign_in_with_their_password(tournament, director):
    with pytest.raises(ServiceError, match="Private links are for referees only"):
        make_referee_link(tournament, director, by=director)
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    player = PlayerFactory(user=admin)
    MembershipFactory(club=tournament.club, player=player, role=Membership.Role.REFEREE)
    with pytest.raises(ServiceError):
        make_referee_link(tournament, admin, by=director)


def test_a_deactivated_account_gets_no_link_as_it_gets_no_device_token(tournament, director, marie):
    """ "Holds only a referee's rights" is one query (club.permissions): the link skipped
    `is_active`, the device token did not."""
    from club.permissions import may_issue_referee_token
    from tournaments.permissions import link_holders, may_hold_referee_link

    referee = marie.link.referee
    assert may_hold_referee_link(referee)
    referee.is_active = False
    referee.save(update_fields=["is_active"])
    assert not may_hold_referee_link(referee)
    assert not may_issue_referee_token(director, referee, tournament.club_id)
    assert link_holders([referee]) == set()
    with pytest.raises(ServiceError, match="Private links are for referees only"):
        make_referee_link(tournament, referee, by=director)


def test_making_and_revoking_links_is_audited(tournament, director, marie):
    revoke_referee_link(marie.link, by=director)
    actions = list(MatchEvent.objects.filter(tournament=tournament).values_list("action", "by"))
    assert actions == [("referee_link", director.pk), ("revoke_link", director.pk)]


# --- signing in with a link -----------------------------------------------------------------


def test_the_link_shows_whom_it_is_for_and_signs_in_only_on_a_tap(client, tournament, marie):
    page = client.get(link_url(marie.secret))
    assert page.status_code == 200
    assert "Marie Dupont" in page.content.decode() and "Winter Cup" in page.content.decode()
    assert "_auth_user_id" not in client.session  # a link preview opens no session
    client.post(link_url(marie.secret))
    assert int(client.session["_auth_user_id"]) == marie.link.referee.pk
    marie.link.refresh_from_db()
    assert marie.link.last_used_at is not None


def test_an_unknown_link_is_not_found(client):
    assert client.get(link_url("not-a-real-secret")).status_code == 404
    assert client.post(link_url("not-a-real-secret")).status_code == 404


def test_a_link_session_sees_only_its_tournaments_tables(tournament, marie):
    referee = marie.link.referee
    mine = MatchFactory(round__tournament=tournament, referee=referee, table=1)
    other_table = MatchFactory(round=mine.round, tournament=tournament, table=2)
    elsewhere = MatchFactory(round__tournament=TournamentFactory(), referee=referee, table=1)
    client = signed_in_by_link(marie.secret)
    assert list(client.get(reverse("tournaments:my_tables")).context["matches"]) == [mine]
    assert client.get(reverse("tournaments:table", args=[mine.pk])).status_code == 200
    for match in (other_table, elsewhere):
        assert client.get(reverse("tournaments:table", args=[match.pk])).status_code == 403


def test_a_link_never_opens_the_director_pages_even_for_a_director(tournament, director):
    # Suppose a director account got a link anyway (made before it was promoted): the session
    # it opens is signed out, as a site admin's would be: it signs in again with a password.
    referee = make_staff(tournament.club, Membership.Role.REFEREE, "rita")
    fresh = make_referee_link(tournament, referee, by=director)
    client = signed_in_by_link(fresh.secret)
    Membership.objects.filter(player__user=referee).update(role=Membership.Role.DIRECTOR)
    dashboard = reverse("tournaments:director", args=[tournament.club.slug, tournament.slug])
    assert client.get(dashboard).status_code in (302, 403)
    assert client.get(
        reverse("tournaments:director_referees", args=[tournament.club.slug, tournament.slug])
    ).status_code in (302, 403)
    assert "_auth_user_id" not in client.session


def test_a_link_session_writes_through_the_api_only_at_its_own_tables(tournament, marie):
    referee = marie.link.referee
    mine = MatchFactory(round__tournament=tournament, referee=referee, table=1)
    elsewhere = MatchFactory(round__tournament=TournamentFactory(), referee=referee, table=1)
    client = signed_in_by_link(marie.secret)
    api = APIClient()  # the same session, through the API (CSRF is not what this tests)
    api.cookies = client.cookies
    assert api.post(f"/api/v1/matches/{mine.pk}/deals/", MADE, format="json").status_code == 201
    refused = api.post(f"/api/v1/matches/{elsewhere.pk}/deals/", MADE, format="json")
    assert refused.status_code in (403, 404)
    assert not elsewhere.deals.exists()
    assert api.post("/api/v1/tokens/", {"user": referee.pk}, format="json").status_code == 403


def test_revoking_the_link_ends_its_session_and_the_link(tournament, director, marie):
    mine = MatchFactory(round__tournament=tournament, referee=marie.link.referee, table=1)
    client = signed_in_by_link(marie.secret)
    revoke_referee_link(marie.link, by=director)
    table = client.get(reverse("tournaments:table", args=[mine.pk]))
    assert table.status_code == 302 and reverse("login") in table["Location"]
    assert client.get(link_url(marie.secret)).status_code == 410
    assert Client().post(link_url(marie.secret)).status_code == 410


def test_an_account_made_staff_since_loses_its_link_session(tournament, marie):
    client = signed_in_by_link(marie.secret)
    type(marie.link.referee).objects.filter(pk=marie.link.referee.pk).update(is_staff=True)
    assert client.get(reverse("tournaments:my_tables")).status_code == 302


# --- the director's referees page -------------------------------------------------------------


def referees_url(tournament):
    return reverse("tournaments:director_referees", args=[tournament.club.slug, tournament.slug])


def test_the_director_adds_referees_and_sees_each_link_once_with_its_qr_code(
    client, tournament, director
):
    client.force_login(director)
    add = reverse("tournaments:director_add_referees", args=[tournament.club.slug, tournament.slug])
    response = client.post(add, {"text": "Marie Dupont\nPaul Roux"}, follow=True)
    page = response.content.decode()
    assert page.count("data-link-url") == 2 and page.count("<svg") >= 2
    link = RefereeLink.objects.get(referee__username="marie.dupont")
    shown = [line for line in page.splitlines() if "/t/" in line and "data-link-url" in line]
    secret = shown[0].split("/t/")[1].split("/")[0]
    assert RefereeLink.find(secret) in (
        link,
        RefereeLink.objects.get(referee__username="paul.roux"),
    )
    again = client.get(referees_url(tournament)).content.decode()
    assert "data-link-url" not in again  # shown once
    assert 'data-referee="marie.dupont"' in again


def test_the_director_revokes_a_link_from_the_page(client, tournament, director, marie):
    client.force_login(director)
    revoke = reverse(
        "tournaments:director_revoke_link",
        args=[tournament.club.slug, tournament.slug, marie.link.pk],
    )
    client.post(revoke)
    marie.link.refresh_from_db()
    assert marie.link.revoked_at is not None


def test_a_referee_may_not_make_links(tournament, marie):
    client = signed_in_by_link(marie.secret)
    make = reverse(
        "tournaments:director_make_link",
        args=[tournament.club.slug, tournament.slug, marie.link.referee.pk],
    )
    assert client.post(make).status_code == 403
