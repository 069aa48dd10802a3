"""An individual tournament (mêlée) drawn round by round through the services: partnerships of
one round, tables of four, fair sit-outs, the preview, deleting a round, players withdrawn."""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

import pytest

from club.models import Membership
from tests.factories import ClubFactory, PlayerFactory, make_staff
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Entrant, Match, MatchSeat, Round, SitOut, Team, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import (
    DrawChanged,
    delete_last_round,
    draw_next_round,
    next_round,
)
from tournaments.services.entrants import (
    delete_entrant,
    register_entrants,
    register_members,
    withdraw_entrant,
)
from tournaments.services.finals import start_final
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament
from tournaments.services.teams import delete_team, edit_team
from tournaments.services.withdrawals import withdraw_team

pytestmark = pytest.mark.django_db

ONE_DEAL = {"target": None, "max_deals": 1}
FIRST_NAMES = [
    "Anne",
    "Bea",
    "Cleo",
    "Dana",
    "Emma",
    "Fleur",
    "Gina",
    "Hana",
    "Iris",
    "Jade",
    "Kira",
    "Lola",
    "Mila",
    "Nora",
    "Olga",
    "Pia",
    "Rosa",
    "Sara",
    "Tess",
    "Uma",
    "Vera",
    "Wendy",
    "Xena",
    "Yara",
    "Zoe",
]


def names(n: int) -> str:
    return "\n".join(f"{first} Martin" for first in FIRST_NAMES[:n])


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory()


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def melee(club, director, players: int = 16, **settings) -> Tournament:  # type: ignore[no-untyped-def]
    values = {
        "name": "Mêlée",
        "starts_on": datetime.date(2027, 1, 9),
        "format": Tournament.Format.INDIVIDUAL,
        "round_count": 5,
        "rules": ONE_DEAL,
        "draw_seed": 4242,
        **settings,
    }
    tournament = create_tournament(club, by=director, **values)
    register_entrants(tournament, names(players), by=director)
    return tournament


def play(round_: Round, director: Any) -> None:
    """North–South takes the one deal of every table."""
    for match in round_.matches.select_related("tournament", "round"):
        entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}
        enter_deal(match, entry, by=director)


def tables_of(round_: Round) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [
        (
            (m.ns_team.first_player_id, m.ns_team.second_player_id),
            (m.ew_team.first_player_id, m.ew_team.second_player_id),
        )
        for m in round_.matches.select_related("ns_team", "ew_team").order_by("table")
    ]


def test_an_individual_tournament_starts_with_the_melee_defaults(club, director):
    tournament = melee(club, director)
    assert tournament.is_round_by_round and tournament.is_individual
    assert tournament.tie_breaks == ["points_for", "wins", "point_difference"]
    assert tournament.format_in_words == "Individual, 5 rounds"
    assert tournament.bye_points_in_use == 80  # one deal a match: 80 a deal
    assert list(tournament.entrants.values_list("seed", flat=True)) == list(range(1, 17))


def test_a_round_is_tables_of_four_made_of_two_partnerships_of_that_round(club, director):
    tournament = melee(club, director)
    round_ = draw_next_round(tournament, by=director)
    matches = list(round_.matches.select_related("ns_team", "ew_team").order_by("table"))
    assert [m.table for m in matches] == [1, 2, 3, 4]
    partnerships = Team.objects.filter(round=round_)
    assert partnerships.count() == 8
    assert sorted(partnerships.values_list("seed", flat=True)) == list(range(1, 9))
    seated = [p for m in matches for team in (m.ns_team, m.ew_team) for p in team.players]
    assert len({p.pk for p in seated}) == 16
    # The table's seats: the NS partnership is 2t-1, the EW one 2t, each player once a round.
    assert [(m.ns_team.seed, m.ew_team.seed) for m in matches] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert MatchSeat.objects.filter(round=round_).count() == 8
    assert matches[0].ns_team.name == (
        f"{matches[0].ns_team.first_player.full_name} & {matches[0].ns_team.second_player.full_name}"
    )
    assert not SitOut.objects.exists()


def test_sixteen_players_never_partner_twice_in_five_rounds(club, director):
    tournament = melee(club, director)
    partners: Counter[frozenset[int]] = Counter()
    for _number in range(5):
        round_ = draw_next_round(tournament, by=director)
        for ns, ew in tables_of(round_):
            partners.update([frozenset(ns), frozenset(ew)])
        play(round_, director)
    assert len(partners) == 5 * 8
    assert max(partners.values()) == 1


@pytest.mark.parametrize(("players", "sitting"), [(13, 1), (14, 2), (15, 3)])
def test_sit_outs_go_round_before_anyone_sits_out_twice(club, director, players, sitting):
    rounds = 7
    tournament = melee(club, director, players, round_count=rounds)
    sat_out: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        round_ = draw_next_round(tournament, by=director)
        this_round = list(SitOut.objects.filter(round=round_).values_list("entrant_id", flat=True))
        assert len(this_round) == sitting
        sat_out.update(this_round)
        counts = [sat_out[e] for e in tournament.entrants.values_list("pk", flat=True)]
        # Nobody twice before everyone once: the counts never differ by more than one.
        assert max(counts) - min(counts) <= 1, (number, counts)
        assert round_.matches.count() == players // 4
        play(round_, director)
    assert sum(sat_out.values()) == rounds * sitting


def test_the_preview_is_the_round_then_drawn(club, director):
    tournament = melee(club, director, 14)
    planned = next_round(tournament)
    assert len(planned.matches) == 3 and len(planned.sit_outs) == 2
    assert all(m.ns.pk is None for m in planned.matches)  # nothing stored by a preview
    round_ = draw_next_round(tournament, by=director, expected=planned.fingerprint)
    stored = tables_of(round_)
    assert stored == [
        (
            (m.ns.first_player.pk, m.ns.second_player.pk),
            (m.ew.first_player.pk, m.ew.second_player.pk),
        )
        for m in planned.matches
    ]
    assert {s.entrant for s in SitOut.objects.filter(round=round_)} == set(planned.sit_outs)


def test_a_draw_changed_since_the_preview_is_refused(club, director):
    tournament = melee(club, director, 14)
    shown = next_round(tournament)
    withdraw_entrant(Entrant.objects.get(tournament=tournament, seed=1), by=director)
    with pytest.raises(DrawChanged):
        draw_next_round(tournament, by=director, expected=shown.fingerprint)
    assert not tournament.rounds.exists()


def test_the_same_seed_and_results_draw_the_same_round_again(club, director):
    tournament = melee(club, director, 15)
    play(draw_next_round(tournament, by=director), director)
    second = draw_next_round(tournament, by=director)
    drawn = tables_of(second)
    sitting = set(SitOut.objects.filter(round=second).values_list("entrant_id", flat=True))
    delete_last_round(second, by=director)
    assert not Team.objects.filter(round__number=2).exists()
    assert not SitOut.objects.filter(round__number=2).exists()
    again = draw_next_round(tournament, by=director)
    assert tables_of(again) == drawn
    assert set(SitOut.objects.filter(round=again).values_list("entrant_id", flat=True)) == sitting


def test_a_withdrawn_player_is_drawn_no_more(club, director):
    tournament = melee(club, director, 13)
    play(draw_next_round(tournament, by=director), director)
    gone = Entrant.objects.get(tournament=tournament, seed=5)
    withdraw_entrant(gone, by=director)
    round_ = draw_next_round(tournament, by=director)
    seated = {p for ns, ew in tables_of(round_) for p in (*ns, *ew)}
    assert gone.player_id not in seated
    assert len(seated) == 12 and not SitOut.objects.filter(round=round_).exists()
    with pytest.raises(Conflict):
        withdraw_entrant(gone, by=director)


def test_fewer_than_four_players_cannot_be_drawn(club, director):
    tournament = melee(club, director, 3)
    with pytest.raises(ServiceError) as refused:
        draw_next_round(tournament, by=director)
    assert refused.value.field == "entrants"
    assert "four players" in refused.value.message


def test_an_individual_tournament_has_no_knockout_final(club, director):
    tournament = melee(club, director, 8, round_count=1)
    play(draw_next_round(tournament, by=director), director)
    with pytest.raises(Conflict) as refused:
        start_final(tournament, size=4, third_place=False, by=director)
    assert "played by teams" in refused.value.message


def test_players_register_alone_and_teams_are_refused(club, director):
    tournament = melee(club, director, 4)
    with pytest.raises(Conflict):
        register_teams(tournament, "Ana: Ana One & Ana Two", by=director)
    member = PlayerFactory(first_name="Zélie", last_name="Roux")
    Membership.objects.create(club=club, player=member)
    (entrant,) = register_members(tournament, [member], by=director)
    assert entrant.seed == 5
    with pytest.raises(ServiceError) as twice:
        register_members(tournament, [member], by=director)
    assert "Already registered: Zélie Roux." in twice.value.message
    with pytest.raises(ServiceError) as pasted:
        register_entrants(tournament, "Zélie Roux\nNew Person\nNew Person", by=director)
    assert [str(p) for p in pasted.value.problems] == [  # type: ignore[attr-defined]
        "line 1: Zélie Roux is already registered",
        "line 3: New Person is already on line 2",
    ]


def test_a_player_drawn_in_a_round_is_withdrawn_not_deleted(club, director):
    tournament = melee(club, director, 5)
    late = Entrant.objects.get(tournament=tournament, seed=5)
    draw_next_round(tournament, by=director)
    drawn = Entrant.objects.filter(tournament=tournament).exclude(
        pk__in=SitOut.objects.values("entrant")
    )
    with pytest.raises(Conflict):
        delete_entrant(drawn.first(), by=director)
    delete_last_round(tournament.rounds.get(), by=director)
    delete_entrant(late, by=director)
    assert tournament.entrants.count() == 4


def test_a_team_tournament_registers_no_player_alone(club, director):
    swiss = create_tournament(
        club,
        by=director,
        name="Suisse",
        starts_on=datetime.date(2027, 1, 9),
        format=Tournament.Format.SWISS,
        round_count=3,
    )
    with pytest.raises(Conflict):
        register_entrants(swiss, "Anne Martin", by=director)


def test_the_match_of_two_partnerships_is_a_match_like_any_other(club, director):
    tournament = melee(club, director, 8)
    round_ = draw_next_round(tournament, by=director)
    match = round_.matches.order_by("table").first()
    assert isinstance(match, Match)
    enter_deal(
        match, {"taker": "E", "trump": "S", "points": {"team": "EW", "cards": 120}}, by=director
    )
    match.refresh_from_db()
    assert (match.status, match.winner, match.ns_total, match.ew_total) == (
        "finished",
        "EW",
        162 - 120,
        120,
    )


def test_a_partnership_is_not_edited_deleted_or_withdrawn_like_a_team(club, director):
    tournament = melee(club, director, 8)
    round_ = draw_next_round(tournament, by=director)
    partnership = Team.objects.filter(round=round_).first()
    assert partnership is not None
    for refused in (
        lambda: edit_team(partnership, by=director, name="Other"),
        lambda: delete_team(partnership, by=director),
        lambda: withdraw_team(partnership, by=director),
    ):
        with pytest.raises(Conflict) as raised:
            refused()
        assert "withdraw its players instead" in raised.value.message
    assert Team.objects.filter(round=round_).count() == 4
