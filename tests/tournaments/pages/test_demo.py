"""The demo command: what it creates, that it runs once, that its deals agree with the engine."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from club.models import Club, Membership, Player
from scoring.engine import Team as Side
from scoring.engine import codec, play_match
from tournaments.models import Deal, Match, Round, SitOut, Team, Tournament
from tournaments.selectors import standings_after
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """The demo loaded once for the module (some 7 s a load), in a transaction rolled back
    after its last test; each test runs in a savepoint inside it, so what one test changes
    is gone before the next."""
    # The module's fixture comes before the tests' own (conftest's fast hasher).
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), transaction.atomic(), fast:
        out = io.StringIO()
        call_command("load_demo", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


def counts() -> dict[str, int]:
    models = [Club, Player, Membership, Tournament, Team, Round, Match, Deal]
    return {m.__name__: m.objects.count() for m in models}


def test_it_creates_a_club_with_staff_and_an_eight_team_tournament(demo):
    club = Club.objects.get(slug="belote-lyon")
    assert "belote-lyon" not in demo and "director" in demo
    assert club.players.count() >= 20
    roles = dict(
        Membership.objects.filter(club=club, player__user__isnull=False).values_list(
            "player__user__username", "role"
        )
    )
    assert roles == {"director": "director", "referee1": "referee", "referee2": "referee"}
    tournament = club.tournaments.get(format=Tournament.Format.ROUND_ROBIN)
    assert tournament.is_public and tournament.status == Tournament.Status.RUNNING
    assert tournament.teams.count() == 8
    assert tournament.rounds.count() == 7
    assert Match.objects.filter(tournament=tournament).count() == 28


def test_the_logins_of_the_readme_work(demo):
    assert authenticate(username="director", password="belote-director") is not None
    assert authenticate(username="referee1", password="belote-referee") is not None
    assert authenticate(username="referee2", password="belote-referee") is not None


def test_three_rounds_are_played_and_every_match_has_a_referee(demo):
    tournament = Tournament.objects.get(slug="tournoi-automne-2026")
    matches = Match.objects.filter(tournament=tournament)
    assert all(m.referee is not None for m in matches)
    played = matches.filter(round__number__lte=3)
    assert set(played.values_list("status", flat=True)) == {Match.Status.FINISHED}
    assert not matches.filter(round__number__gt=3).exclude(status=Match.Status.SCHEDULED).exists()
    assert not Deal.objects.filter(match__round__number__gt=3).exists()
    assert list(tournament.rounds.filter(is_closed=True).values_list("number", flat=True)) == [1, 2]


def test_it_creates_a_running_swiss_evening_with_round_three_under_way(demo):
    swiss = Tournament.objects.get(slug="soiree-suisse-decembre")
    assert swiss.format == Tournament.Format.SWISS and swiss.status == Tournament.Status.RUNNING
    assert swiss.format_in_words == "Swiss, 5 rounds"
    assert swiss.teams.count() == 10
    assert list(swiss.rounds.values_list("number", flat=True)) == [1, 2, 3]
    third = Match.objects.filter(round__tournament=swiss, round__number=3).order_by("table")
    assert [m.status for m in third] == ["finished"] * 3 + ["playing", "scheduled"]
    assert not Match.objects.filter(round__tournament=swiss, round__number__lt=3).exclude(
        status=Match.Status.FINISHED
    )
    # Every table keeps the referee it had in round 1.
    referees = {(m.round.number, m.table): m.referee_id for m in swiss.matches.all()}
    assert all(referees[r, t] == referees[1, t] for r, t in referees)
    recompute_standings(swiss.pk, force=True)
    swiss.refresh_from_db()
    assert len(standings_after(swiss, 2).lines()) == 10


def test_it_creates_a_concours_at_random_with_a_bye_each_party(demo):
    concours = Tournament.objects.get(slug="concours-saint-sylvestre")
    assert concours.format_in_words == "Concours, 4 parties, drawn at random"
    assert concours.tie_breaks == ["points_for", "wins", "point_difference"]
    assert concours.teams.count() == 11
    byes = Match.objects.filter(tournament=concours, ew_team__isnull=True)
    assert byes.count() == 3 and len(set(byes.values_list("ns_team", flat=True))) == 3
    # Matches of six deals and no target: a bye scores 80 a deal, 480.
    bye_team = byes.get(round__number=1).ns_team
    recompute_standings(concours.pk, force=True)
    concours.refresh_from_db()
    line = next(line for line in standings_after(concours, 1).lines() if line.team == bye_team)
    assert (line.played, line.won, line.match_points, line.points_for) == (1, 1, 2, 480)


def test_it_creates_a_melee_of_thirteen_players_with_round_two_under_way(demo):
    melee = Tournament.objects.get(slug="melee-du-jeudi")
    assert melee.format_in_words == "Individual, 4 rounds"
    assert melee.entrants.count() == 13 and not melee.teams.filter(round__isnull=True).exists()
    second = Match.objects.filter(round__tournament=melee, round__number=2).order_by("table")
    assert [m.status for m in second] == ["finished", "playing", "scheduled"]
    # One player sits out each round, never the same one.
    assert list(
        SitOut.objects.filter(round__tournament=melee).values_list("round__number", flat=True)
    ) == [1, 2]
    assert SitOut.objects.filter(round__tournament=melee).values("entrant").distinct().count() == 2
    recompute_standings(melee.pk, force=True)
    melee.refresh_from_db()
    assert sum(line.entrant is not None for line in standings_after(melee, 1).lines()) == 13


def test_running_it_twice_does_not_duplicate(demo):
    before = counts()
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert counts() == before
    assert "already" in out.getvalue()


def test_the_stored_deals_agree_with_the_engines_replay(demo):
    for match in Match.objects.filter(deal_count__gt=0).prefetch_related("deals"):
        deals = list(match.deals.order_by("number"))
        assert [d.number for d in deals] == list(range(1, len(deals) + 1))
        replay = play_match(match.rules or None, match.first_dealer, [d.entry for d in deals])
        assert replay.over == (match.status == Match.Status.FINISHED)
        assert (match.ns_total, match.ew_total) == (replay.totals[Side.NS], replay.totals[Side.EW])
        assert match.winner == getattr(replay.winner, "value", replay.winner or "")
        assert match.deal_count == len(deals)
        for deal, played in zip(deals, replay.deals, strict=True):
            assert deal.result == codec.result_to_json(played.result)
            assert deal.dealer == played.dealer.value
            assert (deal.ns_score, deal.ew_score) == (
                played.result.score[Side.NS],
                played.result.score[Side.EW],
            )
            assert deal.entered_by == match.referee


def test_a_demo_club_made_before_the_evenings_gets_them(demo):
    Tournament.objects.exclude(format=Tournament.Format.ROUND_ROBIN).delete()
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "Added" in out.getvalue()
    assert Tournament.objects.filter(format=Tournament.Format.SWISS).count() == 1
    assert Tournament.objects.filter(format=Tournament.Format.CONCOURS).count() == 1
    assert Tournament.objects.filter(format=Tournament.Format.INDIVIDUAL).count() == 1


# Four tournaments: every round 1 has a table 1, so the tournament comes first.
DEAL_ORDER = ("match__tournament__slug", "match__round__number", "match__table", "number")


def test_it_is_deterministic(demo):
    first = list(Deal.objects.order_by(*DEAL_ORDER).values_list("entry", flat=True))
    # Matches protect their teams: rounds go first, then the club takes the rest along.
    Round.objects.all().delete()
    Club.objects.all().delete()
    call_command("load_demo", stdout=io.StringIO())
    again = list(Deal.objects.order_by(*DEAL_ORDER).values_list("entry", flat=True))
    assert again == first


def test_the_demo_club_has_a_season_with_a_running_series(demo):
    from seasons.models import Season, SeriesLine
    from seasons.services import recompute_series

    season = Season.objects.get(club__slug="belote-lyon")
    series = season.series.get()
    evenings = list(series.tournaments.order_by("starts_on"))
    assert [t.status for t in evenings] == ["finished", "finished", "running"]
    # What the tasks do once the demo's transaction commits (here it never does).
    for evening in evenings:
        recompute_standings(evening.pk)
    assert recompute_series(series.pk)
    assert SeriesLine.objects.filter(series=series, rank=1).exists()
    # A second run adds nothing.
    call_command("load_demo", stdout=io.StringIO())
    assert Season.objects.filter(club__slug="belote-lyon").count() == 1
