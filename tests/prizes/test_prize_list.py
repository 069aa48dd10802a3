"""The stored prize list: computed from the final standings once the last round is finished,
recomputed when the standings are stored again."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prizes.models import PrizeList
from prizes.selectors import fees_due, last_round_finished
from prizes.services import recompute_prize_list
from tests.factories import TeamFactory
from tests.prizes.world import build_world
from tournaments.models import Team
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


def test_the_fees_due_count_every_team_drawn_whatever_was_paid():
    world = build_world(play=False)
    # Six teams at 10.00, none of them paid yet.
    assert fees_due(world.tournament) == Decimal("60.00")


def test_a_fee_per_player_counts_twice_a_team():
    world = build_world(play=False)
    world.tournament.entry_fee_per = "player"
    assert fees_due(world.tournament) == Decimal("120.00")


def test_a_team_never_drawn_owes_nothing_to_the_pool():
    world = build_world(play=False)
    TeamFactory(tournament=world.tournament, seed=7, name="Late")
    assert fees_due(world.tournament) == Decimal("60.00")


def test_no_prize_list_before_the_last_round_is_finished():
    world = build_world(play=False)
    assert not last_round_finished(world.tournament)
    assert recompute_prize_list(world.tournament.pk) is False
    assert not PrizeList.objects.exists()


def test_the_prize_list_follows_the_final_standings():
    world = build_world()
    assert last_round_finished(world.tournament)
    assert recompute_prize_list(world.tournament.pk) is True
    stored = PrizeList.objects.get(tournament=world.tournament)
    first, second, *_rest, last = world.ranked()
    assert [team.name for team in world.ranked()] == [f"Team {c}" for c in "ABCDEF"]
    # Pool: 20.00 added + half of 60.00 in fees = 50.00; first 50 % = 25.00.
    assert stored.pool == Decimal("50.00")
    paid = [(line["entry"]["id"], line["amount"], line["kind"]) for line in stored.lines]
    assert paid[:2] == [(first.pk, "25.00", ""), (second.pk, "15.00", "")]
    assert (last.pk, None, "Ham") in paid
    assert stored.awarded == Decimal("40.00")
    assert stored.retained == Decimal("10.00")


def test_a_second_computation_from_the_same_standings_stores_nothing():
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    assert recompute_prize_list(world.tournament.pk) is False


def test_a_category_tag_changes_the_list_at_the_next_computation():
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    *_top, fifth, _last = world.ranked()
    Team.objects.filter(pk=fifth.pk).update(category="Ladies")
    assert recompute_prize_list(world.tournament.pk) is True
    lines = PrizeList.objects.get(tournament=world.tournament).lines
    assert {"id": fifth.pk, "name": fifth.name} in [
        line["entry"] for line in lines if line["category"] == "Ladies"
    ]


def test_storing_the_standings_recomputes_the_prize_list(django_capture_on_commit_callbacks):
    world = build_world()
    with django_capture_on_commit_callbacks(execute=True):
        world.tournament.__class__.objects.filter(pk=world.tournament.pk).update(
            change_seq=world.tournament.change_seq + 1
        )
        from tournaments.tasks import recompute_tournament

        recompute_tournament(world.tournament.pk)
    assert PrizeList.objects.filter(tournament=world.tournament).exists()


def test_removing_the_prize_table_removes_the_list():
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    world.tournament.__class__.objects.filter(pk=world.tournament.pk).update(prizes=None)
    assert recompute_prize_list(world.tournament.pk) is True
    assert not PrizeList.objects.exists()


def test_a_recompute_of_the_standings_alone_changes_nothing():
    world = build_world()
    recompute_prize_list(world.tournament.pk)
    recompute_standings(world.tournament.pk, force=True)
    assert recompute_prize_list(world.tournament.pk) is False


def test_byes_do_not_hold_the_prize_list_back():
    # Five teams: every round has a bye, which is never played.
    world = build_world(teams=5)
    assert world.tournament.matches.filter(ew_team__isnull=True).exists()
    assert last_round_finished(world.tournament)
    assert recompute_prize_list(world.tournament.pk) is True
    # A bye counts as drawn: five teams at 10.00 owe 50.00, 25.00 of it in the pool + 20.00.
    assert PrizeList.objects.get().pool == Decimal("45.00")
