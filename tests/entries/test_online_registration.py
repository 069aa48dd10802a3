"""Online registration through the services: capacity and waiting list, private key, accepting
with the club's members, pairing players who want a partner, closing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import Membership, Player
from club.registration import CREATE, NewMembersToConfirm
from entries import selectors as evening
from entries.models import Registration
from entries.services.online import (
    accept_registration,
    cancel_registration,
    close_registration,
    pair_registrations,
    register_online,
)
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.errors import (
    AlreadyRegistered,
    Conflict,
    NotAllowed,
    RegistrationClosed,
    ServiceError,
    TournamentFull,
)
from tournaments.models import Team, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.settings import update_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def open_tournament(club, **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("registration", Tournament.RegistrationMode.OPEN)
    kwargs.setdefault("status", Tournament.Status.OPEN)
    return TournamentFactory(club=club, **kwargs)


def register(tournament, *players, **kwargs):  # type: ignore[no-untyped-def]
    return register_online(tournament, by=None, players=list(players), **kwargs)


def test_a_team_registers_without_an_account_and_gets_a_private_key(club):
    tournament = open_tournament(club)
    entry = register(tournament, "Marie Dupont", "Luc Martin", email="marie@example.org")
    assert entry.status == Registration.Status.REGISTERED
    assert len(entry.key) >= 20
    assert entry.names == "Marie Dupont & Luc Martin"
    assert not Team.objects.exists()  # a team only once a director accepts it


def test_past_the_capacity_entries_wait_in_order_of_arrival(club):
    tournament = open_tournament(club, capacity=2)
    register(tournament, "Anne Roux", "Paul Roux")
    register(tournament, "Marie Dupont", "Luc Martin")
    third = register(tournament, "Jean Petit", "Eva Petit")
    fourth = register(tournament, "Ana Lima", "Rui Lima")
    assert third.status == fourth.status == Registration.Status.WAITING
    assert evening.waiting_position(third) == 1
    assert evening.waiting_position(fourth) == 2


def test_a_cancellation_moves_the_first_of_the_waiting_list_up(club):
    tournament = open_tournament(club, capacity=1)
    first = register(tournament, "Anne Roux", "Paul Roux")
    waiting = register(tournament, "Marie Dupont", "Luc Martin")
    moved = cancel_registration(first, by=None, key=first.key)
    assert moved == [waiting]
    waiting.refresh_from_db()
    first.refresh_from_db()
    assert waiting.status == Registration.Status.REGISTERED
    assert first.status == Registration.Status.CANCELLED


def test_two_players_looking_for_a_partner_fill_one_place(club):
    tournament = open_tournament(club, capacity=2)
    register(tournament, "Anne Roux", "Paul Roux")
    register(tournament, "Marie Dupont", partner_wanted=True)
    register(tournament, "Luc Martin", partner_wanted=True)
    late = register(tournament, "Eva Petit", partner_wanted=True)
    assert late.status == Registration.Status.WAITING
    assert evening.places(tournament).left == 0


def test_teams_pasted_by_the_director_take_places_too(club):
    tournament = open_tournament(club, capacity=1)
    TeamFactory(tournament=tournament)
    assert register(tournament, "Anne Roux", "Paul Roux").status == Registration.Status.WAITING


@pytest.mark.parametrize(
    "changes",
    [
        {"registration": Tournament.RegistrationMode.CLOSED},
        {"registration_closes_at": timezone.now() - datetime.timedelta(minutes=1)},
        {"is_public": False},
        {"status": Tournament.Status.FINISHED},
    ],
)
def test_registration_is_refused_once_closed_and_stores_nothing(club, changes):
    tournament = open_tournament(club, **changes)
    with pytest.raises(RegistrationClosed) as refused:
        register(tournament, "Anne Roux", "Paul Roux")
    assert refused.value.code == "registration_closed"
    assert refused.value.status == 409
    assert not Registration.objects.exists()


@pytest.mark.parametrize(
    ("players", "kwargs", "field"),
    [
        (["Anne Roux"], {}, "players"),
        (["Anne Roux", "Paul Roux", "Eva Roux"], {}, "players"),
        (["Anne Roux", "Paul Roux"], {"partner_wanted": True}, "players"),
        (["Anne Roux", "anne  roux"], {}, "players.1"),
        (["Anne Roux", "R2D2"], {}, "players.1"),
        (["Anne Roux", "Paul Roux"], {"email": "not an address"}, "email"),
        (["Anne Roux", "Paul Roux"], {"phone": "call me"}, "phone"),
    ],
)
def test_bad_input_names_the_field_and_stores_nothing(club, players, kwargs, field):
    tournament = open_tournament(club)
    with pytest.raises(ServiceError) as refused:
        register(tournament, *players, **kwargs)
    assert refused.value.field == field
    assert not Registration.objects.exists()


def test_a_name_already_registered_is_refused(club):
    tournament = open_tournament(club)
    register(tournament, "Anne Roux", "Paul Roux")
    with pytest.raises(AlreadyRegistered) as refused:
        register(tournament, "Eva Petit", "anne roux")
    assert refused.value.field == "players.1"
    assert Registration.objects.count() == 1


def test_an_individual_tournament_registers_one_player_never_asking_for_a_partner(club):
    tournament = open_tournament(club, format=Tournament.Format.INDIVIDUAL, round_count=3)
    assert register(tournament, "Anne Roux").status == Registration.Status.REGISTERED
    with pytest.raises(ServiceError) as refused:
        register(tournament, "Paul Roux", partner_wanted=True)
    assert refused.value.field == "partner_wanted"


def test_only_a_director_or_the_key_holder_cancels(club, director):
    tournament = open_tournament(club)
    entry = register(tournament, "Anne Roux", "Paul Roux")
    with pytest.raises(NotAllowed):
        cancel_registration(entry, by=None, key="wrong")
    other = make_staff(ClubFactory(), Membership.Role.DIRECTOR)
    with pytest.raises(NotAllowed):
        cancel_registration(entry, by=other)
    cancel_registration(entry, by=director)
    with pytest.raises(Conflict):
        cancel_registration(entry, by=director)


def test_accepting_matches_the_names_to_the_clubs_members(club, director):
    tournament = open_tournament(club)
    marie = PlayerFactory(first_name="Marie", last_name="Dupont")
    MembershipFactory(club=club, player=marie)
    entry = register(tournament, "marie dupont", "Luc Martin")
    team = accept_registration(entry, by=director, new_members=CREATE)
    assert team.first_player == marie
    assert team.second_player.full_name == "Luc Martin"
    entry.refresh_from_db()
    assert entry.status == Registration.Status.ACCEPTED
    assert entry.team == team


def test_two_family_pairs_accepted_online_are_told_apart_by_the_events_naming_rule(club, director):
    tournament = open_tournament(club)
    first = register(tournament, "Marie Dupont", "Luc Dupont")
    second = register(tournament, "Anne Dupont", "Paul Dupont")
    names = [accept_registration(e, by=director, new_members=CREATE).name for e in (first, second)]
    assert names == ["Dupont – Dupont", "Anne & Paul Dupont"]


def test_a_name_close_to_a_members_is_asked_about_never_created_silently(club, director):
    tournament = open_tournament(club)
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    entry = register(tournament, "Marie Lecler", "Luc Martin")
    with pytest.raises(NewMembersToConfirm):
        accept_registration(entry, by=director)
    assert not Team.objects.exists()
    assert not Player.objects.filter(last_name="Lecler").exists()


def test_players_looking_for_a_partner_are_paired_then_accepted_as_one_team(club, director):
    tournament = open_tournament(club)
    anne = register(tournament, "Anne Roux", partner_wanted=True)
    luc = register(tournament, "Luc Martin", partner_wanted=True)
    with pytest.raises(Conflict) as refused:
        accept_registration(anne, by=director, new_members=CREATE)
    assert refused.value.field == "paired_with"
    suggested = evening.partner_suggestions(tournament)
    assert suggested["arrival"] == [(anne, luc)]
    pair_registrations(anne, luc, by=director)
    team = accept_registration(luc, by=director, new_members=CREATE)
    assert {p.full_name for p in team.players} == {"Anne Roux", "Luc Martin"}
    assert set(Registration.objects.values_list("status", flat=True)) == {"accepted"}


def test_a_waiting_entry_is_accepted_only_when_a_place_is_free(club, director):
    tournament = open_tournament(club, capacity=1)
    register(tournament, "Anne Roux", "Paul Roux")
    waiting = register(tournament, "Marie Dupont", "Luc Martin")
    with pytest.raises(TournamentFull) as refused:
        accept_registration(waiting, by=director, new_members=CREATE)
    assert refused.value.field == "capacity"
    assert not Team.objects.exists()
    update_tournament(tournament, by=director, capacity=2)
    waiting.refresh_from_db()
    assert waiting.status == Registration.Status.REGISTERED  # moved up into the new place


def test_cancelling_an_accepted_entry_frees_its_team_until_it_is_drawn(club, director):
    tournament = open_tournament(club, capacity=1)
    entry = register(tournament, "Anne Roux", "Paul Roux")
    waiting = register(tournament, "Marie Dupont", "Luc Martin")
    accept_registration(entry, by=director, new_members=CREATE)
    assert cancel_registration(entry, by=None, key=entry.key) == [waiting]
    assert not Team.objects.exists()


def test_closing_registration_refuses_what_comes_after(club, director):
    tournament = open_tournament(club)
    close_registration(tournament, by=director)
    with pytest.raises(RegistrationClosed):
        register(tournament, "Anne Roux", "Paul Roux")


def test_only_a_director_accepts_or_pairs(club):
    tournament = open_tournament(club)
    a = register(tournament, "Anne Roux", partner_wanted=True)
    b = register(tournament, "Luc Martin", partner_wanted=True)
    referee = make_staff(club, Membership.Role.REFEREE)
    with pytest.raises(NotAllowed):
        pair_registrations(a, b, by=referee)
    with pytest.raises(NotAllowed):
        accept_registration(a, by=None)


def test_the_system_may_accept(club):
    tournament = open_tournament(club)
    entry = register(tournament, "Anne Roux", "Paul Roux")
    assert accept_registration(entry, by=SYSTEM, new_members=CREATE).name == "Roux – Roux"


# --- accept all ----------------------------------------------------------------------------


def test_accept_all_accepts_the_registered_in_order_and_says_what_it_left_and_why(club, director):
    from entries.services.online import accept_all

    tournament = open_tournament(club, capacity=4)  # 3.5 places taken, then the list
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    first = register(tournament, "Luc Martin", "Eva Roux")
    typo = register(tournament, "Marie Lecler", "Paul Petit")
    alone = register_online(tournament, by=None, players=["Tom Noir"], partner_wanted=True)
    third = register(tournament, "Ida Blanc", "Jean Blanc")
    waiting = register(tournament, "Léa Gris", "Marc Gris")
    assert waiting.status == Registration.Status.WAITING

    report = accept_all(tournament, by=director)

    assert [team.name for team in report.accepted] == ["Martin – Roux", "Blanc – Blanc"]
    assert [(r.pk, "Marie Lecler" in reason) for r, reason in report.refused] == [
        (typo.pk, True),
        (alone.pk, False),
    ]
    assert "looking for a partner" in report.refused[1][1]
    statuses = dict(Registration.objects.values_list("pk", "status"))
    assert statuses == {
        first.pk: "accepted",
        typo.pk: "registered",
        alone.pk: "registered",
        third.pk: "accepted",
        waiting.pk: "waiting",
    }
    assert not Player.objects.filter(last_name="Lecler").exists()


def test_accept_all_takes_a_pair_once_and_is_for_directors_only(club, director):
    from entries.services.online import accept_all

    tournament = open_tournament(club)
    a = register_online(tournament, by=None, players=["Tom Noir"], partner_wanted=True)
    b = register_online(tournament, by=None, players=["Ida Blanc"], partner_wanted=True)
    pair_registrations(a, b, by=director)
    with pytest.raises(NotAllowed):
        accept_all(tournament, by=make_staff(club, Membership.Role.REFEREE, "rita"))
    report = accept_all(tournament, by=director)
    assert [team.name for team in report.accepted] == ["Noir – Blanc"]
    assert report.refused == []
    assert Team.objects.filter(tournament=tournament).count() == 1
