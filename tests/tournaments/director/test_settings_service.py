"""A tournament's settings: checked once by the service, whichever way they come in."""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from club.models import Membership
from scoring.engine import Team, play_match
from tests.factories import ClubFactory, MatchFactory, TournamentFactory, UserFactory, make_staff
from tournaments.errors import NotAllowed
from tournaments.models import Deal, Match, MatchEvent, Tournament
from tournaments.permissions import SYSTEM
from tournaments.selectors import latest_line
from tournaments.services.deals import enter_deal
from tournaments.services.settings import (
    SettingsRefused,
    create_tournament,
    settings_problems,
    update_tournament,
)

pytestmark = pytest.mark.django_db
NS, EW = Team.NS, Team.EW

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 97}, "belote": "NS"}
WITH_A_TIERCE = {
    "taker": "E",
    "trump": "S",
    "points": {"team": "EW", "cards": 85},
    "declarations": {"EW": [{"type": "sequence", "length": 3, "top": "K", "suit": "H"}]},
}


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def director(club):
    return make_staff(club, Membership.Role.DIRECTOR, "dir")


def paths(refused: SettingsRefused) -> list[str]:
    return [problem.path for problem in refused.problems]


def test_a_new_tournament_gets_the_engines_full_house_rules_and_a_slug_from_its_name(
    club, director
):
    tournament = create_tournament(
        club,
        by=director,
        name="  Coupe   d'hiver ",
        starts_on=datetime.date(2026, 12, 5),
        rules={"target": 501},
    )
    assert tournament.name == "Coupe d'hiver"
    assert tournament.slug == "coupe-dhiver"
    assert tournament.rules["target"] == 501
    assert tournament.rules["litige"] == "carry"  # the engine's default, written out
    assert MatchEvent.objects.filter(tournament=tournament, action="created").exists()


def test_every_bad_setting_is_named_by_its_path_and_nothing_is_saved(club, director):
    with pytest.raises(SettingsRefused) as refused:
        create_tournament(
            club,
            by=director,
            name="",
            starts_on="tomorrow",
            rules={"target": "lots", "colour": 1},
            points_win=1,
            points_draw=2,
            tie_breaks=["match_points", "coin_toss"],
        )
    assert paths(refused.value) == [
        "name",
        "slug",
        "starts_on",
        "rules.target",
        "rules.colour",
        "points_draw",
        "tie_breaks.1",
    ]
    assert refused.value.status == 400
    assert not Tournament.objects.exists()


def test_only_a_director_of_the_club_creates_or_changes_its_tournaments(club):
    other_club_director = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "elsewhere")
    for person in (None, UserFactory(), other_club_director):
        with pytest.raises(NotAllowed):
            create_tournament(club, by=person, name="X", starts_on=datetime.date(2026, 1, 1))
    tournament = TournamentFactory(club=club)
    with pytest.raises(NotAllowed):
        update_tournament(tournament, by=other_club_director, points_win=3)


def test_match_points_change_after_deals_records_a_change_and_re_ranks(
    director, club, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(club=club, rules={"target": None, "max_deals": 1})
    match = MatchFactory(round__tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(match, MADE, by=director)
    assert latest_line(tournament, match.ns_team).match_points == 2
    before = Tournament.objects.get(pk=tournament.pk).change_seq
    with django_capture_on_commit_callbacks(execute=True):
        update_tournament(tournament, by=director, points_win=3, points_loss=1)
    tournament.refresh_from_db()
    assert tournament.change_seq == before + 1
    assert tournament.match_points == (3, 1, 1)
    # The recompute ran in process, with the new points.
    assert latest_line(tournament, match.ns_team).match_points == 3


def test_the_house_rules_are_locked_for_a_director_once_a_deal_is_scored(director, club):
    tournament = TournamentFactory(club=club)
    enter_deal(MatchFactory(round__tournament=tournament), MADE, by=director)
    with pytest.raises(SettingsRefused) as refused:
        update_tournament(tournament, by=director, rules={"target": 500})
    assert refused.value.status == 409
    assert paths(refused.value) == ["rules"]
    tournament.refresh_from_db()
    assert tournament.house_rules.target == 1000
    # The same rules, written another way, are no change.
    update_tournament(tournament, by=director, rules={"litige": "carry"})


def test_the_format_is_locked_once_rounds_exist(director, club):
    tournament = TournamentFactory(club=club)
    MatchFactory(round__tournament=tournament)
    with pytest.raises(SettingsRefused) as refused:
        update_tournament(tournament, by=director, format="double_round_robin")
    assert (refused.value.status, paths(refused.value)) == (409, ["format"])


def test_only_a_site_admin_may_re_score(director, club):
    tournament = TournamentFactory(club=club)
    with pytest.raises(Exception, match="site admin"):
        update_tournament(tournament, by=director, rescore=True, rules={"target": 500})


def _admin_form(tournament, **changes):
    site_admin = UserFactory(is_superuser=True, is_staff=True)
    request = RequestFactory().post("/admin/")
    request.user = site_admin
    model_admin = admin.site._registry[Tournament]
    form_class = model_admin.get_form(request, tournament, change=True)
    data = {
        "club": tournament.club_id,
        "name": tournament.name,
        "slug": tournament.slug,
        "starts_on": tournament.starts_on.isoformat(),
        "format": tournament.format,
        "rules": '{"target": null, "max_deals": 2, "rounding": "none"}',
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "tie_breaks": '["match_points"]',
        "status": tournament.status,
        "is_public": "on",
        "correction_minutes": tournament.correction_minutes,
        "registration": tournament.registration,
        "check_in": tournament.check_in,
        "entry_fee_per": tournament.entry_fee_per,
        **changes,
    }
    return model_admin, request, form_class(data, instance=tournament)


def test_an_admin_change_of_house_rules_after_deals_re_scores_every_match(director, club):
    tournament = TournamentFactory(
        club=club, rules={"target": None, "max_deals": 2, "rounding": "none"}
    )
    match = MatchFactory(round__tournament=tournament)
    enter_deal(match, MADE, by=director)
    enter_deal(match, WITH_A_TIERCE, by=director)
    match.refresh_from_db()
    # NS 97 + belote 20 = 117 v 65, made; then EW 85 + tierce 20 = 105 v 77, made.
    assert (match.ns_total, match.ew_total) == (117 + 77, 65 + 105)

    model_admin, request, form = _admin_form(
        tournament, rules='{"target": null, "max_deals": 2, "rounding": "nearest_ten"}'
    )
    assert form.is_valid(), form.errors
    model_admin.save_model(request, form.save(commit=False), form, change=True)

    match.refresh_from_db()
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    replayed = play_match(
        {"target": None, "max_deals": 2, "rounding": "nearest_ten"},
        match.first_dealer,
        [d.entry for d in deals],
    )
    # Stored results equal a replay of the deals under the new rules: 117 → 120, 77 → 80 …
    assert (match.ns_total, match.ew_total) == (replayed.totals[NS], replayed.totals[EW])
    assert (match.ns_total, match.ew_total) == (120 + 80, 70 + 110)
    assert [(d.ns_score, d.ew_score) for d in deals] == [(120, 70), (80, 110)]
    assert match.status == Match.Status.FINISHED and match.winner == "NS"


def test_an_admin_change_that_the_deals_cannot_be_read_under_is_refused(director, club):
    tournament = TournamentFactory(
        club=club, rules={"target": None, "max_deals": 2, "rounding": "none"}
    )
    match = MatchFactory(round__tournament=tournament)
    enter_deal(match, WITH_A_TIERCE, by=director)
    _model_admin, _request, form = _admin_form(
        tournament, rules='{"target": null, "max_deals": 2, "declarations": false}'
    )
    assert not form.is_valid()
    assert "no longer reads" in str(form.errors["rules"])
    tournament.refresh_from_db()
    assert tournament.house_rules.declarations is True


def test_the_admin_form_is_the_service_check_and_the_model_calls_no_service(club):
    tournament = Tournament(club=club, name="X", slug="x", starts_on=datetime.date(2026, 1, 1))
    tournament.rules = {"target": "lots"}
    tournament.tie_breaks = ["nope"]
    tournament.full_clean()  # the model keeps its own field checks, and calls no service
    assert settings_problems(tournament)[0].path == "rules.target"
    _model_admin, _request, form = _admin_form(
        TournamentFactory(club=club), rules='{"target": "lots"}', tie_breaks='["nope"]'
    )
    assert not form.is_valid()
    assert {"rules", "tie_breaks"} <= set(form.errors)
    assert form.errors["rules"][0].startswith("target: ")
    with pytest.raises(ValidationError):
        Tournament(club=club, name="", slug="x", starts_on=datetime.date(2026, 1, 1)).full_clean()


def test_a_tournament_is_played_by_four(club):
    tournament = Tournament(club=club, name="X", slug="x", starts_on=datetime.date(2026, 1, 1))
    tournament.rules = {"players": 3}
    [problem] = settings_problems(tournament)
    assert problem.path == "rules.players"
    assert problem.message == "A tournament match is played by four, in two partnerships."


def test_the_system_actor_is_allowed_and_recorded_as_nobody(club):
    tournament = create_tournament(
        club, by=SYSTEM, name="Demo", starts_on=datetime.date(2026, 1, 1)
    )
    assert MatchEvent.objects.get(tournament=tournament).by is None
