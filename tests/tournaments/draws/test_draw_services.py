"""Drawing round by round through the services: when a round may be drawn, what it keeps from
the round before, deleting the last one, and the knockout final."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tournaments.errors import Conflict, NotAllowed, ServiceError
from tournaments.models import Bracket, Match, MatchEvent, Round, Tournament
from tournaments.selectors.results import table_of
from tournaments.services.deals import close_match, enter_deal, reopen_match
from tournaments.services.draws import (
    AllRoundsDrawn,
    DrawChanged,
    RoundNotOver,
    delete_last_round,
    draw_next_round,
    next_round,
)
from tournaments.services.finals import start_final
from tournaments.services.registration import register_teams
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import create_tournament
from tournaments.services.table_referees import assign_referee
from tournaments.services.withdrawals import withdraw_team

pytestmark = pytest.mark.django_db

SIX = "\n".join(
    f"{name}: {name} One & {name} Two" for name in ("Ana", "Bob", "Cid", "Dom", "Eve", "Fay")
)
FIVE = SIX.rsplit("\n", 1)[0]
ONE_DEAL = {"target": None, "max_deals": 1}


def deal(side: str, cards: int = 100) -> dict[str, Any]:
    taker = "N" if side == "NS" else "E"
    return {"taker": taker, "trump": "H", "points": {"team": side, "cards": cards}}


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory()


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def referees(club):  # type: ignore[no-untyped-def]
    return [make_staff(club, Membership.Role.REFEREE, f"referee{n}") for n in (1, 2, 3)]


def evening(club, director, teams=SIX, **settings) -> Tournament:  # type: ignore[no-untyped-def]
    values = {
        "name": "Soirée",
        "starts_on": datetime.date(2027, 1, 9),
        "format": Tournament.Format.SWISS,
        "round_count": 3,
        "rules": ONE_DEAL,
        "draw_seed": 99,
        **settings,
    }
    tournament = create_tournament(club, by=director, **values)
    register_teams(tournament, teams, by=director)
    return tournament


def names(round_: Round) -> list[tuple[int | None, str, str | None]]:
    return [
        (m.table, m.ns_team.name, m.ew_team.name if m.ew_team else None)
        for m in round_.matches.select_related("ns_team", "ew_team").order_by("table")
    ]


def better_seed_wins(round_: Round, by: Any) -> None:
    """The better seed takes every deal of every match of the round, to its end."""
    for match in round_.matches.filter(ew_team__isnull=False).select_related("ns_team", "ew_team"):
        side = "NS" if match.ns_team.seed < match.ew_team.seed else "EW"
        while match.status != Match.Status.FINISHED:
            enter_deal(match, deal(side), by=by)


def test_the_same_seed_and_the_same_results_draw_the_same_rounds(club, director):
    first, second = evening(club, director), evening(club, director, name="Soirée bis")
    for _round in range(3):
        drawn = [draw_next_round(t, by=director) for t in (first, second)]
        assert names(drawn[0]) == names(drawn[1])
        for round_ in drawn:
            better_seed_wins(round_, director)
    assert first.draw_seed == second.draw_seed == 99


def test_a_tournament_gets_its_own_random_seed_when_none_is_given(club, director):
    seeds = {
        create_tournament(
            club, by=director, name=f"T{n}", starts_on=datetime.date(2027, 1, 9)
        ).draw_seed
        for n in range(3)
    }
    assert len(seeds) == 3 and all(0 <= seed < 2**63 for seed in seeds)


def test_the_preview_is_the_round_that_is_drawn(club, director):
    tournament = evening(club, director)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    preview = next_round(tournament)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    drawn = draw_next_round(tournament, by=director, expected=preview.fingerprint)
    assert names(drawn) == [
        (m.table, m.ns.name, m.ew.name if m.ew else None) for m in preview.matches
    ]


def test_a_draw_that_changed_since_the_preview_is_refused(club, director):
    tournament = evening(club, director)
    first = draw_next_round(tournament, by=director)
    better_seed_wins(first, director)
    preview = next_round(tournament)
    withdraw_team(tournament.teams.get(name="Fay"), by=director)
    with pytest.raises(DrawChanged):
        draw_next_round(tournament, by=director, expected=preview.fingerprint)
    assert tournament.rounds.count() == 1


def test_round_two_waits_for_every_match_of_round_one_finished_or_closed(club, director):
    tournament = evening(club, director)
    first = draw_next_round(tournament, by=director)
    matches = list(first.matches.order_by("table"))
    enter_deal(matches[0], deal("NS"), by=director)
    with pytest.raises(RoundNotOver, match="tables 2, 3 are still to finish") as refused:
        draw_next_round(tournament, by=director)
    assert refused.value.status == 409
    enter_deal(matches[1], deal("EW"), by=director)
    # A director closes the last table unplayed: it counts nothing, and the round is over.
    close_match(matches[2], by=director)
    assert draw_next_round(tournament, by=director).number == 2


def test_no_round_is_drawn_past_the_last(club, director):
    tournament = evening(club, director, round_count=1)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    with pytest.raises(AllRoundsDrawn, match="The tournament's 1 round is drawn"):
        draw_next_round(tournament, by=director)


def test_each_table_keeps_its_referee_from_round_to_round(club, director, referees):
    tournament = evening(club, director)
    first = draw_next_round(tournament, by=director)
    for match, referee in zip(first.matches.order_by("table"), referees, strict=True):
        assign_referee(match, referee, by=director)
    better_seed_wins(first, director)
    # Moved: table 3's referee is now the director, and stays so.
    assign_referee(first.matches.get(table=3), director, by=director)
    second = draw_next_round(tournament, by=director)
    assert [m.referee for m in second.matches.order_by("table")] == [*referees[:2], director]


def test_an_odd_number_of_teams_gives_a_bye_to_a_new_team_each_round(club, director):
    tournament = evening(club, director, teams=FIVE)
    byes = []
    for _round in range(3):
        drawn = draw_next_round(tournament, by=director)
        bye = drawn.matches.get(ew_team__isnull=True)
        assert bye.table is None and bye.referee is None
        byes.append(bye.ns_team.name)
        better_seed_wins(drawn, director)
    assert len(set(byes)) == 3


def test_a_bye_counts_as_a_won_match_worth_bye_points(club, director):
    tournament = evening(club, director, teams=FIVE, bye_points=70)
    drawn = draw_next_round(tournament, by=director)
    bye_team = drawn.matches.get(ew_team__isnull=True).ns_team_id
    better_seed_wins(drawn, director)
    line = next(line for line in table_of(tournament)[1] if line.team_id == bye_team)
    assert (line.played, line.won, line.match_points) == (1, 1, 2)
    assert (line.points_for, line.points_against, line.point_difference, line.deals) == (
        70,
        0,
        70,
        0,
    )


def test_a_swiss_pairs_winners_with_winners(club, director):
    tournament = evening(club, director)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    winners = set(
        Match.objects.filter(tournament=tournament, round__number=1).values_list(
            "ns_team__seed", "ew_team__seed"
        )
    )
    won = {min(pair) for pair in winners}
    second = draw_next_round(tournament, by=director)
    mixed = [m for m in second.matches.all() if (m.ns_team.seed in won) != (m.ew_team.seed in won)]
    # Three winners: two meet, the third meets a loser.
    assert len(won) == 3 and len(mixed) == 1


def test_a_withdrawn_team_is_not_drawn(club, director):
    tournament = evening(club, director)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    withdraw_team(tournament.teams.get(name="Fay"), by=director)
    second = draw_next_round(tournament, by=director)
    drawn = {name for row in names(second) for name in row[1:] if name}
    assert drawn == {"Ana", "Bob", "Cid", "Dom", "Eve"}


def test_the_last_round_can_be_deleted_until_its_first_deal_and_drawn_again(club, director):
    tournament = evening(club, director)
    first = draw_next_round(tournament, by=director)
    better_seed_wins(first, director)
    second = draw_next_round(tournament, by=director)
    before = names(second)
    with pytest.raises(Conflict, match="Only the last round can be deleted"):
        delete_last_round(first, by=director)
    delete_last_round(second, by=director)
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]
    assert MatchEvent.objects.filter(tournament=tournament, action="delete_round").exists()
    again = draw_next_round(tournament, by=director)
    assert names(again) == before
    enter_deal(again.matches.first(), deal("NS"), by=director)
    with pytest.raises(Conflict, match="Deals have been entered in Round 2"):
        delete_last_round(again, by=director)


def test_only_a_director_draws_or_deletes(club, director, referees):
    tournament = evening(club, director)
    with pytest.raises(NotAllowed):
        draw_next_round(tournament, by=referees[0])
    first = draw_next_round(tournament, by=director)
    with pytest.raises(NotAllowed):
        delete_last_round(first, by=referees[0])
    with pytest.raises(NotAllowed):
        start_final(tournament, size=2, third_place=False, by=referees[0])


def test_a_round_robin_is_generated_and_a_swiss_drawn_never_the_other_way(club, director):
    robin = evening(club, director, format=Tournament.Format.ROUND_ROBIN, round_count=None)
    with pytest.raises(Conflict, match="generated at once"):
        draw_next_round(robin, by=director)
    swiss = evening(club, director, name="Swiss")
    with pytest.raises(ServiceError, match="drawn one round at a time"):
        generate_round_robin(swiss, by=director)
    generate_round_robin(robin, by=director)
    with pytest.raises(AllRoundsDrawn, match="start a final"):
        draw_next_round(robin, by=director)


# --- the knockout final ----------------------------------------------------------------------


def swiss_played(club, director, rounds=3, **settings) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = evening(club, director, round_count=rounds, **settings)
    for _round in range(rounds):
        better_seed_wins(draw_next_round(tournament, by=director), director)
    return tournament


def test_a_final_waits_for_the_last_qualifying_round(club, director):
    tournament = evening(club, director)
    with pytest.raises(Conflict, match="none is drawn yet"):
        start_final(tournament, size=4, third_place=False, by=director)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    with pytest.raises(Conflict, match="1 of 3 are drawn"):
        start_final(tournament, size=4, third_place=False, by=director)
    better_seed_wins(draw_next_round(tournament, by=director), director)
    third = draw_next_round(tournament, by=director)
    with pytest.raises(RoundNotOver, match="round 3 still has matches to finish"):
        start_final(tournament, size=4, third_place=False, by=director)
    better_seed_wins(third, director)
    assert start_final(tournament, size=4, third_place=False, by=director).size == 4


@pytest.mark.parametrize(
    ("size", "third_place", "field", "message"),
    [
        (3, False, "size", "A final is played by 2, 4, 8, 16 teams."),
        (8, False, "size", "Only 6 teams can play the final: choose a smaller one."),
        (2, True, "third_place", "A third-place match needs a final of 4 teams or more."),
    ],
)
def test_a_final_refuses_a_size_it_cannot_play(club, director, size, third_place, field, message):
    tournament = swiss_played(club, director)
    with pytest.raises(ServiceError) as refused:
        start_final(tournament, size=size, third_place=third_place, by=director)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert not Bracket.objects.exists()


def test_the_final_seeds_the_top_of_the_standings_and_pairs_one_against_the_last(club, director):
    tournament = swiss_played(club, director)
    top = [line.team_id for line in table_of(tournament)[3]][:4]
    bracket = start_final(tournament, size=4, third_place=True, by=director)
    assert (bracket.seeds, bracket.after_round) == (top, 3)
    semis = draw_next_round(tournament, by=director)
    assert (semis.number, semis.stage, str(semis)) == (4, "semi_finals", "Semi-finals")
    pairs = [(m.ns_team_id, m.ew_team_id) for m in semis.matches.order_by("table")]
    assert pairs == [(top[0], top[3]), (top[1], top[2])]


def test_a_level_knockout_match_plays_on_and_its_winner_goes_through(club, director):
    tournament = swiss_played(club, director, rules={"target": None, "max_deals": 2})
    start_final(tournament, size=4, third_place=False, by=director)
    semis = draw_next_round(tournament, by=director)
    match, other = semis.matches.order_by("table")
    assert (tournament.rules["draws"], match.rules["draws"]) == ("allowed", "play_on")
    enter_deal(match, {"taker": "N", "trump": "S", "capot": "NS"}, by=director)
    enter_deal(match, {"taker": "E", "trump": "S", "capot": "EW"}, by=director)
    match.refresh_from_db()
    # Past max_deals, 252 all: a qualifying match would be a draw; a knockout one goes on.
    assert (match.ns_total, match.ew_total, match.status) == (252, 252, Match.Status.PLAYING)
    enter_deal(other, deal("NS"), by=director)
    enter_deal(other, deal("NS"), by=director)
    # Closed level, it has no winner: the final cannot be drawn.
    close_match(match, by=director)
    with pytest.raises(RoundNotOver, match="Semi-finals: table 1 has no winner yet"):
        draw_next_round(tournament, by=director)
    reopen_match(match, by=director)
    enter_deal(match, deal("EW"), by=director)
    match.refresh_from_db()
    assert (match.winner, match.status, match.deal_count) == ("EW", Match.Status.FINISHED, 3)
    final = draw_next_round(tournament, by=director)
    assert {final.matches.get().ns_team_id, final.matches.get().ew_team_id} == {
        match.ew_team_id,
        other.ns_team_id,
    }
    with pytest.raises(AllRoundsDrawn, match="Every round of the final is drawn"):
        draw_next_round(tournament, by=director)


def test_a_final_can_be_seeded_again_until_its_first_round_is_drawn(club, director):
    tournament = swiss_played(club, director)
    start_final(tournament, size=4, third_place=True, by=director)
    start_final(tournament, size=2, third_place=False, by=director)
    assert Bracket.objects.get().size == 2
    final = draw_next_round(tournament, by=director)
    with pytest.raises(Conflict, match="The final has started"):
        start_final(tournament, size=4, third_place=False, by=director)
    # Deleting its first round (no deal yet) lets the director choose again.
    delete_last_round(final, by=director)
    assert start_final(tournament, size=4, third_place=False, by=director).size == 4


def test_a_final_after_a_round_robin_numbers_its_rounds_after_the_schedule(club, director):
    tournament = evening(
        club, director, teams=FIVE, format=Tournament.Format.ROUND_ROBIN, round_count=None
    )
    for round_ in generate_round_robin(tournament, by=director):
        better_seed_wins(round_, director)
    start_final(tournament, size=2, third_place=False, by=director)
    final = draw_next_round(tournament, by=director)
    assert (final.number, str(final)) == (6, "Final")
    assert names(final) == [(1, "Ana", "Bob")]
    with pytest.raises(ServiceError, match="The final has started"):
        generate_round_robin(tournament, by=director)
