"""Check-in and entry fees through the services: one mark per entry, self check-in at the door,
draws that take only the entries present, the evening's cash."""

from __future__ import annotations

from decimal import Decimal

import pytest

from club.models import Membership
from entries import selectors as evening
from entries.services.check_in import check_in, self_check_in, withdraw_absent
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tournaments.errors import Conflict, EntriesNotCheckedIn, NotAllowed, ServiceError
from tournaments.models import Attendance, Entrant, Match, Tournament
from tournaments.services.draws import draw_next_round, next_round
from tournaments.services.schedule import generate_round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def evening_of(club, n_teams=4, **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("check_in", Tournament.CheckIn.ON)
    tournament = TournamentFactory(club=club, **kwargs)
    for seed in range(1, n_teams + 1):
        TeamFactory(
            tournament=tournament,
            seed=seed,
            name=f"Team {seed}",
            first_player=PlayerFactory(first_name=f"First{seed}", last_name="Dupont"),
            second_player=PlayerFactory(first_name=f"Second{seed}", last_name="Martin"),
        )
    return tournament


def test_every_entry_is_expected_until_checked_in(club, director):
    tournament = evening_of(club)
    team = tournament.teams.get(seed=1)
    assert team.attendance == Attendance.EXPECTED
    check_in(team, by=director, present=True)
    team.refresh_from_db()
    assert team.is_present and team.checked_in_at is not None
    check_in(team, by=director, present=None)
    team.refresh_from_db()
    assert team.attendance == Attendance.EXPECTED and team.checked_in_at is None


def test_a_payment_marks_the_entry_present_and_records_the_fee(club, director):
    tournament = evening_of(club, entry_fee=Decimal("5.00"), entry_fee_per="player")
    team = tournament.teams.get(seed=1)
    check_in(team, by=director, paid="cash")
    team.refresh_from_db()
    assert team.is_present and team.paid == "cash" and team.fee_paid == Decimal("10.00")
    waived = tournament.teams.get(seed=2)
    check_in(waived, by=director, paid="waived")
    waived.refresh_from_db()
    assert waived.fee_paid is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"paid": "cheque"}, "paid"),
        ({"present": "yes"}, "present"),
        ({"present": False, "paid": "cash"}, "paid"),
    ],
)
def test_bad_marks_name_the_field_and_store_nothing(club, director, kwargs, field):
    tournament = evening_of(club)
    team = tournament.teams.get(seed=1)
    with pytest.raises(ServiceError) as refused:
        check_in(team, by=director, **kwargs)
    assert refused.value.field == field
    team.refresh_from_db()
    assert team.attendance == Attendance.EXPECTED and team.paid == ""


def test_only_a_director_checks_in(club):
    tournament = evening_of(club)
    referee = make_staff(club, Membership.Role.REFEREE)
    with pytest.raises(NotAllowed):
        check_in(tournament.teams.first(), by=referee, present=True)


def test_self_check_in_forgives_typos_and_checks_the_whole_team_in(club):
    tournament = evening_of(club)
    found = evening.self_check_in_matches(tournament, "frist3 dupon")
    player, team = found[0]
    assert player.full_name == "First3 Dupont" and team.seed == 3
    self_check_in(team, by=None, door=tournament.door_key)
    team.refresh_from_db()
    assert team.is_present


def test_self_check_in_leaves_an_absent_entry_to_the_director(club, director):
    tournament = evening_of(club)
    team = tournament.teams.get(seed=1)
    check_in(team, by=director, present=False)
    with pytest.raises(Conflict):
        self_check_in(team, by=None, door=tournament.door_key)


def test_self_check_in_can_be_turned_off(club):
    tournament = evening_of(club, self_check_in=False)
    with pytest.raises(Conflict) as refused:
        self_check_in(tournament.teams.first(), by=None, door=tournament.door_key)
    assert refused.value.field == "self_check_in"


def test_self_check_in_without_the_doors_code_is_refused(club):
    """Issue 41 item 3: anyone checked any entry in by its id, from anywhere."""
    tournament = evening_of(club)
    team = tournament.teams.get(seed=1)
    for door in ("", "guess", tournament.door_key[:-1]):
        with pytest.raises(NotAllowed) as refused:
            self_check_in(team, by=None, door=door)
        assert refused.value.field == "door"
    team.refresh_from_db()
    assert not team.is_present


def test_a_draw_takes_only_the_entries_present_and_the_preview_says_who_is_left_out(club, director):
    tournament = evening_of(club, n_teams=5, format=Tournament.Format.SWISS, round_count=3)
    for seed in (1, 2, 3, 4):
        check_in(tournament.teams.get(seed=seed), by=director, present=True)
    planned = next_round(tournament)
    assert planned.left_out == (("Team 5", "not checked in"),)
    round_ = draw_next_round(tournament, by=director)
    drawn = set(Match.objects.filter(round=round_).values_list("ns_team__seed", "ew_team__seed"))
    assert {seed for pair in drawn for seed in pair} == {1, 2, 3, 4}


def test_an_individual_draw_takes_only_the_players_present(club, director):
    tournament = TournamentFactory(
        club=club, format=Tournament.Format.INDIVIDUAL, round_count=2, check_in="on"
    )
    for seed in range(1, 6):
        Entrant.objects.create(tournament=tournament, player=PlayerFactory(), seed=seed)
    for entrant in tournament.entrants.filter(seed__lte=4):
        check_in(entrant, by=director, present=True)
    planned = next_round(tournament)
    assert not planned.sit_outs
    assert [reason for _name, reason in planned.left_out] == ["not checked in"]


def test_a_round_robin_with_entries_not_checked_in_asks_first(club, director):
    tournament = evening_of(club, n_teams=4)
    for seed in (1, 2, 3):
        check_in(tournament.teams.get(seed=seed), by=director, present=True)
    with pytest.raises(EntriesNotCheckedIn) as asked:
        generate_round_robin(tournament, by=director)
    assert asked.value.expected == ["Team 4"]
    assert not tournament.rounds.exists()
    generate_round_robin(tournament, by=director, leave_out_expected=True)
    seeds = set(tournament.matches.values_list("ns_team__seed", flat=True)) | set(
        tournament.matches.exclude(ew_team=None).values_list("ew_team__seed", flat=True)
    )
    assert seeds == {1, 2, 3}


def test_an_absent_entry_is_withdrawn_in_one_step(club, director):
    tournament = evening_of(club)
    team = tournament.teams.get(seed=2)
    check_in(team, by=director, present=False)
    assert withdraw_absent(team, by=director).withdrawn


def test_the_cash_summary_sums_each_method_and_lists_who_is_present_unpaid(club, director):
    tournament = evening_of(club, entry_fee=Decimal("6.50"))
    teams = list(tournament.teams.order_by("seed"))
    check_in(teams[0], by=director, paid="cash")
    check_in(teams[1], by=director, paid="card")
    check_in(teams[2], by=director, paid="waived")
    check_in(teams[3], by=director, present=True)
    summary = evening.cash_summary(tournament)
    assert summary.received["cash"] == Decimal("6.50")
    assert summary.received["card"] == Decimal("6.50")
    assert summary.counts["waived"] == 1
    assert summary.total == Decimal("13.00")
    assert [(entry.name, due) for entry, due in summary.unpaid] == [("Team 4", Decimal("6.50"))]
