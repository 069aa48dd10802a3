"""Director pages: only the club's directors get in; each action calls its service."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import ClubFactory, TeamFactory, TournamentFactory, make_staff
from tests.tournaments.pages.pages_world import build_world
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]
PAGES = [
    "director",
    "director_edit",
    "director_teams",
    "director_referees",
    "director_tables",
    "director_print_sheets",
    "director_print_standings",
    "director_export_standings",
    "director_export_results",
]


@pytest.fixture
def world():
    return build_world()


@pytest.mark.parametrize("name", PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, world, name):
    response = client.get(reverse(f"tournaments:{name}", args=ARGS))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("name", PAGES)
def test_a_referee_of_the_club_is_refused(client, world, name):
    client.force_login(world.other_referee)
    assert client.get(reverse(f"tournaments:{name}", args=ARGS)).status_code == 403


@pytest.mark.parametrize("name", PAGES)
def test_the_director_opens_every_page(client, world, name):
    client.force_login(world.director)
    assert client.get(reverse(f"tournaments:{name}", args=ARGS)).status_code == 200


def test_a_director_of_another_club_is_refused(client, world):
    stranger = make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger")
    client.force_login(stranger)
    assert client.get(reverse("tournaments:director", args=ARGS)).status_code == 403
    assert client.get(reverse("tournaments:director_club", args=["les-atouts"])).status_code == 403


def test_the_director_creates_a_tournament_with_house_rules(client):
    club = ClubFactory(slug="les-atouts")
    client.force_login(make_staff(club, Membership.Role.DIRECTOR, "dora"))
    form = client.get(reverse("tournaments:director_new", args=["les-atouts"])).content.decode()
    assert "Whether sequences and fours score" in form  # one line of explanation per rule
    data = {
        "name": "Spring Open",
        "slug": "",
        "starts_on": "2026-12-05",
        "format": "round_robin",
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "is_public": "on",
        "tie_breaks": ["match_points", "point_difference"],
        "rule_declarations": "on",
        "rule_declaration_comparison": "per_category",
        "rule_litige": "made",
        "rule_rounding": "nearest_ten",
        "rule_all_pass": "redeal",
        "rule_direction": "counterclockwise",
        "rule_capot_value": 252,
        "rule_target": 501,
        "rule_max_deals": "",
        "rule_both_reach_target": "taker",
        "rule_draws": "play_on",
    }
    response = client.post(reverse("tournaments:director_new", args=["les-atouts"]), data)
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="spring-open")
    assert tournament.rules["litige"] == "made" and tournament.rules["target"] == 501
    assert (
        tournament.rules["max_deals"] is None
        and tournament.rules["direction"] == "counterclockwise"
    )
    assert tournament.rules["draws"] == "play_on"
    assert tournament.tie_breaks == ["match_points", "point_difference"]


def test_a_bad_house_rule_is_reported_on_its_field(client):
    club = ClubFactory(slug="les-atouts")
    client.force_login(make_staff(club, Membership.Role.DIRECTOR, "dora"))
    data = {
        "name": "Odd",
        "starts_on": "2026-12-05",
        "format": "round_robin",
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "rule_declaration_comparison": "per_category",
        "rule_litige": "carry",
        "rule_rounding": "none",
        "rule_all_pass": "redeal",
        "rule_direction": "clockwise",
        "rule_capot_value": 5,
        "rule_target": "",
        "rule_max_deals": "",
        "rule_both_reach_target": "highest",
        "rule_draws": "allowed",
        "tie_breaks": "luck",
    }
    response = client.post(reverse("tournaments:director_new", args=["les-atouts"]), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert "rule_capot_value" in form.errors and "tie_breaks" in form.errors
    assert not Tournament.objects.filter(slug="odd").exists()


def test_the_director_pastes_players_and_teams_then_generates_the_schedule(client):
    club = ClubFactory(slug="les-atouts")
    TournamentFactory(club=club, slug="winter-cup", status="draft")
    client.force_login(make_staff(club, Membership.Role.DIRECTOR, "dora"))
    response = client.post(
        reverse("tournaments:director_club", args=["les-atouts"]),
        {"text": "Anne Martin\nBruno Petit\n"},
    )
    assert response.status_code == 302
    text = "Les As: Anne Martin & Bruno Petit\nCarla Roux & Denis Blanc\nEmma Noir & Felix Gris\n"
    response = client.post(reverse("tournaments:director_teams", args=ARGS), {"text": text})
    # Four players are not members yet: the page lists them and asks before creating them.
    assert [n.name for n in response.context["to_confirm"].new] == [
        "Carla Roux",
        "Denis Blanc",
        "Emma Noir",
        "Felix Gris",
    ]
    response = client.post(
        reverse("tournaments:director_teams", args=ARGS), {"text": text, "confirm": "1"}
    )
    assert response.status_code == 302
    response = client.post(reverse("tournaments:director_generate", args=ARGS), {"draw_lots": ""})
    assert response.status_code == 302
    assert (
        Match.objects.filter(tournament__slug="winter-cup").count() == 6
    )  # 3 rounds, 2 each with the bye


def test_a_bad_team_line_is_reported_and_nothing_registered(client, world):
    client.force_login(world.director)
    response = client.post(
        reverse("tournaments:director_teams", args=ARGS), {"text": "Lonely 42\n"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["text"]


def test_generating_again_after_deals_is_refused_with_a_message(client, world):
    client.force_login(world.director)
    response = client.post(reverse("tournaments:director_generate", args=ARGS), follow=True)
    assert "can no longer be regenerated" in response.content.decode()


def test_the_director_assigns_a_referee_to_a_table(client, world):
    client.force_login(world.director)
    match = world.tournament.matches.filter(round__number=2).order_by("table").first()
    url = reverse("tournaments:director_referees", args=ARGS) + "?round=2"
    response = client.post(url, {f"match_{match.pk}": str(world.referee.pk)})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.referee == world.referee


def test_switching_round_tabs_saves_what_was_chosen_first(client, world):
    client.force_login(world.director)
    match = world.tournament.matches.filter(round__number=2).order_by("table").first()
    url = reverse("tournaments:director_referees", args=ARGS) + "?round=2"
    response = client.post(url, {f"match_{match.pk}": str(world.other_referee.pk), "goto": "3"})
    assert response["Location"].endswith("?round=3")
    match.refresh_from_db()
    assert match.referee == world.other_referee


def test_one_referee_takes_a_table_in_every_open_round_at_once(client, world):
    client.force_login(world.director)
    url = reverse("tournaments:director_referees", args=ARGS)
    response = client.post(url + "?round=1", {"table_2": str(world.referee.pk)})
    assert response.status_code == 302
    at_table_2 = world.tournament.matches.filter(table=2, ew_team__isnull=False)
    assert set(at_table_2.values_list("referee", flat=True)) == {world.referee.pk}
    assert at_table_2.count() == 3  # four teams: three rounds


def test_the_director_closes_and_reopens_a_match_and_a_round(client, world):
    client.force_login(world.director)
    pk = world.other_match.pk
    client.post(reverse("tournaments:director_match", args=[*ARGS, pk, "close"]))
    assert Match.objects.get(pk=pk).is_closed
    client.post(reverse("tournaments:director_match", args=[*ARGS, pk, "reopen"]))
    assert not Match.objects.get(pk=pk).is_closed
    close = reverse("tournaments:director_round", args=[*ARGS, 1, "close"])
    # Table 2 has not started and table 1's sheet is not confirmed: the page asks first.
    asked = client.post(close)
    assert asked.status_code == 200 and b"data-round-not-ready" in asked.content
    assert "table 2" in asked.content.decode() and "table 1" in asked.content.decode()
    assert not world.tournament.rounds.get(number=1).is_closed
    client.post(close, {"force": "1"})
    assert world.tournament.rounds.get(number=1).is_closed
    client.post(reverse("tournaments:director_round", args=[*ARGS, 1, "reopen"]))
    assert not world.tournament.rounds.get(number=1).is_closed
    assert (
        client.post(reverse("tournaments:director_round", args=[*ARGS, 1, "explode"])).status_code
        == 404
    )


def test_the_director_withdraws_a_team(client, world):
    client.force_login(world.director)
    team = world.other_match.ns_team
    client.post(reverse("tournaments:director_withdraw", args=[*ARGS, team.pk]))
    team.refresh_from_db()
    assert team.withdrawn


def test_a_get_on_an_action_is_refused(client, world):
    client.force_login(world.director)
    assert client.get(reverse("tournaments:director_generate", args=ARGS)).status_code == 405


def test_the_live_tables_answer_no_content_while_nothing_changed(client, world):
    client.force_login(world.director)
    url = reverse("tournaments:director_tables", args=ARGS)
    assert client.get(url, {"seq": world.tournament.change_seq}).status_code == 204
    page = client.get(url, {"seq": 0}).content.decode()
    assert "finished" in page and "not started" in page


def test_score_sheets_carry_a_qr_code_to_the_tables_entry_page(client, world):
    client.force_login(world.director)
    page = client.get(reverse("tournaments:director_print_sheets", args=ARGS) + "?round=1")
    text = page.content.decode()
    assert text.count("<svg") >= 2
    assert f"http://testserver/matches/{world.match.pk}/table/" in text


def test_the_csv_exports_hold_standings_and_results(client, world):
    client.force_login(world.director)
    standings = client.get(reverse("tournaments:director_export_standings", args=ARGS))
    assert standings["Content-Type"].startswith("text/csv")
    lines = standings.content.decode("utf-8-sig").strip().splitlines()
    assert lines[0].startswith("after_round,rank,team") and len(lines) == 5
    results = client.get(reverse("tournaments:director_export_results", args=ARGS))
    assert len(results.content.decode("utf-8-sig").strip().splitlines()) == 1 + 6


def test_a_tournament_of_another_club_is_not_reachable_through_this_club(client, world):
    other = TournamentFactory(slug="elsewhere")
    TeamFactory(tournament=other)
    client.force_login(world.director)
    assert (
        client.get(reverse("tournaments:director", args=["les-atouts", "elsewhere"])).status_code
        == 404
    )


def test_the_house_rules_are_locked_once_deals_are_entered(client, world):
    client.force_login(world.director)
    url = reverse("tournaments:director_edit", args=ARGS)
    before = world.tournament.change_seq
    form = client.get(url).context["form"]
    assert form.rules_locked and form.fields["rule_litige"].disabled
    data = {name: form[name].value() for name in form.fields}
    data.update({"rule_litige": "made", "points_win": 3, "tie_breaks": "match_points"})
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    assert client.post(url, data).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.house_rules.litige.value == "carry"
    assert world.tournament.points_win == 3
    assert world.tournament.change_seq > before  # the standings are recomputed


def test_score_sheets_default_to_the_first_round_still_to_finish(client, world):
    client.force_login(world.director)
    url = reverse("tournaments:director_print_sheets", args=ARGS)
    assert client.get(url).content.decode().count('class="sheet-page"') == 2
    assert client.get(url + "?round=all").content.decode().count('class="sheet-page"') == 6
