"""Recompute tasks: sent after commit, coalesced, idempotent, reconciled; admin edits count."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import transaction

from bench.bigtournament import build_round_robin_tournament
from club.models import Membership, Rating
from config.celery_app import app
from tests.factories import MatchFactory, TournamentFactory, make_staff
from tournaments import tasks
from tournaments.changes import record_change
from tournaments.models import Deal, Match, Standing, Tournament
from tournaments.services.deals import enter_deal
from tournaments.standings.names import LIVE_ROUND

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


@pytest.fixture
def match():
    tournament = TournamentFactory(rules={"target": None, "max_deals": 2})
    return MatchFactory(round__tournament=tournament)


@pytest.fixture
def director(match):
    return make_staff(match.tournament.club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def with_a_broker():
    """Tasks go to a (mocked) broker instead of running in process; a clean debounce cache."""
    cache.clear()
    app.conf.task_always_eager = False
    with (
        mock.patch.object(tasks.recompute_tournament, "apply_async") as standings,
        mock.patch.object(tasks.recompute_club_ratings, "apply_async") as ratings,
    ):
        yield standings, ratings
    app.conf.task_always_eager = True
    cache.clear()


def test_the_recompute_is_sent_only_after_the_change_commits(
    match, director, django_capture_on_commit_callbacks, with_a_broker
):
    standings, _ = with_a_broker
    with django_capture_on_commit_callbacks() as callbacks:
        enter_deal(match, MADE, by=director)
        assert not standings.called
    assert not standings.called  # the transaction has not committed yet
    assert len(callbacks) == 1
    callbacks[0]()
    # A lone change is sent at once: the throttle adds no delay to it.
    standings.assert_called_once_with((match.tournament_id,))


def test_a_rolled_back_change_sends_nothing(match, director, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        enter_deal(match, MADE, by=director)
        raise RuntimeError("the request failed after the deal")
    assert callbacks == []
    assert not Deal.objects.exists()


def test_in_process_the_standings_and_ratings_follow_each_deal_at_once(
    match, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(match, MADE, by=director)
    tournament = Tournament.objects.get(pk=match.tournament_id)
    assert tournament.standings_seq == tournament.change_seq == 1
    # The match is still being played: only the live table counts it, provisionally.
    assert not Standing.objects.exclude(round_number=LIVE_ROUND).exists()
    assert set(Standing.objects.values_list("round_number", "in_play")) == {(LIVE_ROUND, 1)}
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(match, MADE, by=director)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    # A row per team after the match's round (the latest), and no live table any more.
    stored = Standing.objects.filter(tournament=tournament)
    assert sorted(stored.values_list("round_number", flat=True)) == [match.round.number] * 2
    assert Rating.objects.filter(club=tournament.club).count() == 4


def test_a_burst_of_ten_changes_sends_two_recomputes_and_the_duplicate_does_nothing(
    match, django_capture_on_commit_callbacks, with_a_broker
):
    standings, ratings = with_a_broker
    for _ in range(10):
        with django_capture_on_commit_callbacks(execute=True):
            record_change(match.tournament_id)
    # The first at once, the nine others ride on one trailing task after the window.
    assert standings.call_args_list == [
        mock.call((match.tournament_id,)),
        mock.call((match.tournament_id,), countdown=tasks.TRAILING_COUNTDOWN_SECONDS),
    ]
    assert tasks.TRAILING_COUNTDOWN_SECONDS <= 0.2
    # The task sent, and a duplicate delivered twice: one recompute, then nothing to do.
    runs = [tasks.recompute_tournament.run(match.tournament_id) for _ in range(2)]
    assert runs == [True, False]
    tournament = Tournament.objects.get(pk=match.tournament_id)
    assert tournament.standings_seq == tournament.change_seq == 10
    assert ratings.call_count == 1


def test_a_task_that_finds_the_tournament_computing_leaves_its_change_to_that_one(
    match, with_a_broker
):
    """Two of the worker's processes never rank one tournament at once: the second task
    leaves word and returns; the first computes once more when it ends, so the change that
    came in during its turn is in the standings all the same."""
    tournament_id = match.tournament_id
    turns: list[str] = []
    real = tasks.recompute_standings

    def recompute(pk: int) -> bool:
        turns.append(f"seq {Tournament.objects.get(pk=pk).change_seq}")
        if len(turns) == 1:
            # A change commits while the first turn computes, and its task is delivered.
            record_change(tournament_id)
            assert tasks.recompute_tournament.run(tournament_id) is False
        return real(pk)

    record_change(tournament_id)
    with mock.patch.object(tasks, "recompute_standings", side_effect=recompute):
        assert tasks.recompute_tournament.run(tournament_id) is True
    assert turns == ["seq 1", "seq 2"]
    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.standings_seq == tournament.change_seq == 2
    # Freed: the next task computes at once (here, nothing left to do).
    assert cache.get(f"belote:computing:{tournament_id}") is None
    assert tasks.recompute_tournament.run(tournament_id) is False


def test_a_task_that_fails_frees_the_tournament_for_its_retry(match, with_a_broker):
    from django.db import OperationalError

    tournament_id = match.tournament_id
    record_change(tournament_id)
    with (
        mock.patch.object(tasks, "recompute_standings", side_effect=OperationalError("gone")),
        pytest.raises(OperationalError),
    ):
        tasks.recompute_tournament.run(tournament_id)
    assert cache.get(f"belote:computing:{tournament_id}") is None
    assert tasks.recompute_tournament.run(tournament_id) is True


def test_a_task_left_word_computes_itself_when_the_turn_was_freed_meanwhile(match, with_a_broker):
    """The holder freed the turn between the other task's two tries: that task computes."""
    tournament_id = match.tournament_id
    record_change(tournament_id)
    key = f"belote:computing:{tournament_id}"
    cache.set(key, 1)
    real_set = cache.set

    def freed_meanwhile(name, *args, **kwargs):
        real_set(name, *args, **kwargs)
        if name == f"{key}:again":
            cache.delete(key)  # the holder ends its turn right after the word was left

    with mock.patch.object(cache, "set", side_effect=freed_meanwhile):
        assert tasks.recompute_tournament.run(tournament_id) is True
    assert Tournament.objects.get(pk=tournament_id).standings_current


def test_the_club_ratings_ride_a_longer_window_than_the_standings(match, with_a_broker):
    """A peak of deals recomputes the standings a few times a second; the club's ratings,
    which replay every finished match of the club, once at once and once per window."""
    _, ratings = with_a_broker
    club_id = match.tournament.club_id
    for _ in range(10):
        tasks.schedule_ratings(club_id)
    assert ratings.call_args_list == [
        mock.call((club_id,)),
        mock.call((club_id,), countdown=tasks.CLUB_WINDOW_SECONDS + 0.05),
    ]
    assert tasks.CLUB_WINDOW_SECONDS >= 10 * tasks.WINDOW_SECONDS
    # The standings window has passed long before the ratings' has: still one trailing task.
    cache.delete(f"belote:standings:{match.tournament_id}")
    tasks.schedule_ratings(club_id)
    assert ratings.call_count == 2


def test_after_the_debounce_window_a_new_change_sends_a_new_recompute(
    match, django_capture_on_commit_callbacks, with_a_broker
):
    standings, _ = with_a_broker
    with django_capture_on_commit_callbacks(execute=True):
        record_change(match.tournament_id)
    cache.delete(f"belote:standings:{match.tournament_id}")  # the window has passed
    with django_capture_on_commit_callbacks(execute=True):
        record_change(match.tournament_id)
    assert standings.call_count == 2


def test_the_reconcile_catches_up_every_tournament_that_is_behind_whatever_its_status(db):
    running = build_round_robin_tournament(4, 1, status=Tournament.Status.RUNNING)
    current = build_round_robin_tournament(4, 1, status=Tournament.Status.RUNNING)
    finished = build_round_robin_tournament(4, 1, status=Tournament.Status.FINISHED)
    tasks.recompute_tournament.run(current.pk)
    with mock.patch.object(tasks.recompute_tournament, "delay") as delay:
        assert tasks.reconcile_standings.run() == 2
    assert sorted(c.args[0] for c in delay.call_args_list) == sorted([running.pk, finished.pk])
    # In process (no broker) the reconcile recomputes at once.
    assert tasks.reconcile_standings.delay().get() == 2
    # A row per team after the latest round (a past round is computed when asked).
    assert Standing.objects.filter(tournament=finished, round_number=3).count() == 4
    assert tasks.reconcile_standings.run() == 0


def test_beat_reconciles_every_twenty_seconds_and_the_worker_on_each_connection(settings):
    from config.celery_app import ReconcileOnConnect

    schedule = settings.CELERY_BEAT_SCHEDULE["reconcile-standings"]
    assert schedule["task"] == tasks.reconcile_standings.name
    assert schedule["schedule"] == 20
    assert ReconcileOnConnect in app.steps["consumer"]
    consumer = mock.Mock()
    ReconcileOnConnect(consumer).start(consumer)
    consumer.app.send_task.assert_called_once_with(tasks.reconcile_standings.name)


def test_an_admin_edit_of_a_match_records_its_changes_and_sends_one_recompute(
    match, django_capture_on_commit_callbacks, with_a_broker
):
    standings, _ = with_a_broker
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        match.status = Match.Status.FINISHED
        match.ns_total, match.ew_total, match.winner = 300, 200, "NS"
        match.save()
        match.save()
        match.save()
    assert Tournament.objects.get(pk=match.tournament_id).change_seq == 3  # one per save
    assert standings.call_count == 2  # the throttle: at once, then one trailing for the rest


def test_an_admin_deletion_of_a_deal_records_a_change_and_the_services_count_once(
    match, director, django_capture_on_commit_callbacks
):
    enter_deal(match, MADE, by=director)
    assert Tournament.objects.get(pk=match.tournament_id).change_seq == 1
    Deal.objects.get(match=match).delete()
    assert Tournament.objects.get(pk=match.tournament_id).change_seq == 2


def test_an_admin_deletion_of_a_match_and_its_deals_sends_one_recompute(
    match, director, django_capture_on_commit_callbacks, with_a_broker
):
    standings, _ = with_a_broker
    enter_deal(match, MADE, by=director)
    enter_deal(match, MADE, by=director)
    before = Tournament.objects.get(pk=match.tournament_id).change_seq
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        Match.objects.get(pk=match.pk).delete()
    assert Tournament.objects.get(pk=match.tournament_id).change_seq > before + 2
    assert standings.call_count == 2  # the match and its two deals: at once, then trailing


def test_a_recompute_of_a_tournament_that_is_gone_does_nothing(db):
    assert tasks.recompute_tournament.run(424242) is False


def test_an_unreachable_broker_does_not_fail_the_change_that_was_committed(
    match, django_capture_on_commit_callbacks, with_a_broker
):
    standings, _ = with_a_broker
    standings.side_effect = OSError("connection refused")
    with django_capture_on_commit_callbacks(execute=True):
        record_change(match.tournament_id)
    assert Tournament.objects.get(pk=match.tournament_id).change_seq == 1
    standings.side_effect = None
    with django_capture_on_commit_callbacks(execute=True):
        record_change(match.tournament_id)
    assert standings.call_count == 2  # the failed send left no key behind


def test_changes_only_emit_a_hook_and_the_task_module_listens_to_it(
    match, django_capture_on_commit_callbacks
):
    from tournaments.changes import change_committed

    heard: list[int] = []

    def listener(sender, *, tournament_id, **kwargs):  # type: ignore[no-untyped-def]
        heard.append(tournament_id)

    change_committed.connect(listener)
    try:
        with (
            mock.patch.object(tasks, "schedule_recompute") as recompute,
            django_capture_on_commit_callbacks(execute=True),
        ):
            record_change(match.tournament_id)
    finally:
        change_committed.disconnect(listener)
    assert heard == [match.tournament_id]
    # Subscribed in AppConfig.ready: changes.py itself imports no task.
    recompute.assert_called_once_with(match.tournament_id)


def _publications(tournament_id: int, capture) -> int:  # type: ignore[no-untyped-def]
    """How many times one recompute task publishes the tournament's live versions."""
    with mock.patch.object(tasks, "publish_live") as publish, capture(execute=True) as callbacks:
        assert tasks.recompute_tournament.run(tournament_id) is True
    assert len(callbacks) == publish.call_count
    return publish.call_count


def test_a_tie_break_change_is_published_once(with_a_broker, django_capture_on_commit_callbacks):
    """One round is ranked and written (the latest), and the versions published once: the
    pages pinned to a past round compute it again under its new digest."""
    tournament = build_round_robin_tournament(6, 2, seed=3)
    assert tasks.recompute_tournament.run(tournament.pk) is True
    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=["match_points", "points_for"])
    record_change(tournament.pk)
    assert _publications(tournament.pk, django_capture_on_commit_callbacks) == 1

    Match.objects.filter(tournament=tournament, round__number=5).update(ns_total=1)
    record_change(tournament.pk)
    assert _publications(tournament.pk, django_capture_on_commit_callbacks) == 1
