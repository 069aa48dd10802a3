"""`manage.py backup` leaves secrets out; `manage.py restore` brings the rest back as it was."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import CommandError, call_command

from club.models import ApiToken, Membership, Player
from club.tokens import issue_own_token
from tests.factories import MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.models import Deal, DealAudit, Match, Standing, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db(transaction=True)

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


@pytest.fixture
def site():  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(rules={"target": None, "max_deals": 2})
    match = MatchFactory(round__tournament=tournament, tournament=tournament)
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "director")
    director.set_password("director-password")
    director.save()
    enter_deal(match, MADE, by=director, submission_key="k1")
    enter_deal(match, MADE, by=director)
    recompute_standings(tournament.pk, force=True)
    issue_own_token(by=UserFactory(username="referee-phone"))
    session = SessionStore()
    session["_auth_user_id"] = str(director.pk)
    session.create()
    return tournament


def backup() -> str:
    out = io.StringIO()
    call_command("backup", stdout=out)
    return out.getvalue()


def test_a_backup_holds_no_token_session_or_sign_in_attempt(site):
    dump = json.loads(backup())

    models = {row["model"] for row in dump}
    assert {"tournaments.deal", "club.player", "auth.user"} <= models
    assert not models & {"club.apitoken", "sessions.session", "axes.accessattempt"}
    assert ApiToken.objects.get().digest not in json.dumps(dump)


def test_a_backup_restored_into_an_empty_database_gives_the_same_site(site, tmp_path):
    before = {
        "deals": list(Deal.objects.order_by("match_id", "number").values_list("entry", "ns_score")),
        "standings": sorted(Standing.objects.values_list("team__name", "rank", "match_points")),
        "players": sorted(Player.objects.values_list("first_name", "last_name")),
        "audit": DealAudit.objects.count(),
    }
    path = tmp_path / "belote.json"
    call_command("backup", output=str(path))
    call_command("flush", interactive=False, verbosity=0)
    assert not Deal.objects.exists()

    call_command("restore", str(path), stdout=io.StringIO())

    assert (
        list(Deal.objects.order_by("match_id", "number").values_list("entry", "ns_score"))
        == (before["deals"])
    )
    assert (
        sorted(Standing.objects.values_list("team__name", "rank", "match_points"))
        == (before["standings"])
    )
    assert sorted(Player.objects.values_list("first_name", "last_name")) == before["players"]
    assert DealAudit.objects.count() == before["audit"]
    assert get_user_model().objects.get(username="director").check_password("director-password")
    assert not ApiToken.objects.exists()
    # The restored site goes on: a new tournament and its match get new keys.
    match = MatchFactory(round__tournament=TournamentFactory())
    assert Match.objects.filter(pk=match.pk).exists()
    assert Tournament.objects.count() == 2


def test_a_restore_keeps_the_admin_log_and_every_timestamp_exactly(site, tmp_path):
    """Issue 28 item 13: the admin's log was left out, times were cut to milliseconds."""
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType

    director = get_user_model().objects.get(username="director")
    LogEntry.objects.create(
        user=director,
        content_type=ContentType.objects.get_for_model(Tournament),
        object_id=str(site.pk),
        object_repr=str(site),
        action_flag=CHANGE,
        change_message="Changed the house rules",
    )
    Deal.objects.filter(number=1).update(
        entered_at=datetime.datetime(2026, 11, 28, 20, 15, 7, 123456, tzinfo=datetime.UTC)
    )

    def times():  # type: ignore[no-untyped-def]
        return {
            "deals": list(Deal.objects.order_by("pk").values_list("entered_at", "updated_at")),
            "audit": list(DealAudit.objects.order_by("pk").values_list("at", flat=True)),
            "matches": list(Match.objects.order_by("pk").values_list("finished_at", "updated_at")),
            "users": list(get_user_model().objects.order_by("pk").values_list("date_joined")),
            "tournaments": list(
                Tournament.objects.values_list("created_at", "standings_computed_at")
            ),
            "log": list(
                LogEntry.objects.values_list(
                    "action_time", "user__username", "object_id", "change_message"
                )
            ),
        }

    before = times()
    assert before["deals"][0][0].microsecond == 123456
    path = tmp_path / "belote.json"
    call_command("backup", output=str(path))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), stdout=io.StringIO())
    assert times() == before
    assert LogEntry.objects.get().content_type.model_class() is Tournament


def test_a_restore_refuses_a_database_that_holds_data(site, tmp_path):
    path = tmp_path / "belote.json"
    call_command("backup", output=str(path))
    with pytest.raises(CommandError, match="empty"):
        call_command("restore", str(path))
