"""The director's evening, one test (or a few) per friction found on the walk."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from club.models import Membership, Player
from club.registration import (
    ASK,
    ASK_IF_SIMILAR,
    CREATE,
    NewMembersToConfirm,
    plan_names,
    register_players,
)
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_staff,
)
from tests.tournaments.pages.pages_world import build_world
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Round, Team, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.registration import register_teams
from tournaments.services.schedule import generate_round_robin
from tournaments.services.status import publish_tournament
from tournaments.services.teams import delete_team, edit_team

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture
def club():
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    return club


@pytest.fixture
def director(club):
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


@pytest.fixture
def draft(club):
    return TournamentFactory(club=club, slug="winter-cup", name="Winter Cup", status="draft")


# --- publishing ------------------------------------------------------------------------------


class TestPublishing:
    def test_a_generated_schedule_is_published_in_one_step(self, client, draft, director):
        for seed in (1, 2, 3):
            TeamFactory(tournament=draft, seed=seed)
        generate_round_robin(draft, by=director)
        client.force_login(director)
        page = client.get(reverse("tournaments:director", args=ARGS)).content.decode()
        assert "Publish and start play" in page
        response = client.post(reverse("tournaments:director_publish", args=ARGS), follow=True)
        assert Tournament.objects.get(pk=draft.pk).status == Tournament.Status.RUNNING
        assert "Published: the referees can now enter the deals" in response.content.decode()

    def test_without_a_schedule_there_is_nothing_to_publish(self, draft, director):
        with pytest.raises(ServiceError, match="Generate the schedule first"):
            publish_tournament(draft, by=director)

    def test_the_api_publishes_too(self, draft, director):
        for seed in (1, 2):
            TeamFactory(tournament=draft, seed=seed)
        generate_round_robin(draft, by=director)
        api = APIClient()
        api.force_authenticate(director)
        response = api.post(f"/api/v1/tournaments/{draft.pk}/publish/")
        assert response.status_code == 200 and response.json()["status"] == "running"
        assert api.post(f"/api/v1/tournaments/{draft.pk}/publish/").status_code == 409

    def test_a_draft_is_listed_to_its_directors_only(self, client, draft, director):
        TournamentFactory(club=draft.club, name="Spring Open", status="open")
        for url in (reverse("home"), reverse("club:detail", args=["les-atouts"])):
            page = client.get(url).content.decode()
            assert "Winter Cup" not in page and "Spring Open" in page, url
        listed = APIClient().get("/api/v1/tournaments/").json()["results"]
        assert [t["name"] for t in listed] == ["Spring Open"]
        client.force_login(director)
        assert (
            "Winter Cup" in client.get(reverse("club:detail", args=["les-atouts"])).content.decode()
        )


# --- pasting names ------------------------------------------------------------------------------


class TestNewMembers:
    def test_a_name_close_to_a_members_is_flagged(self, club):
        plan = plan_names(club, ["Marie Lecler", "Paul Roy", "marie leclerc"])
        assert [p.full_name for p in plan.existing] == ["Marie Leclerc"]
        assert [(n.name, [p.full_name for p in n.similar]) for n in plan.new] == [
            ("Marie Lecler", ["Marie Leclerc"]),
            ("Paul Roy", []),
        ]

    def test_pasting_teams_asks_before_creating_members(self, draft):
        with pytest.raises(NewMembersToConfirm) as asked:
            register_teams(
                draft, "Les Tierces: Marie Lecler & Paul Roy", by=SYSTEM, new_members=ASK
            )
        assert "close to Marie Leclerc" in str(asked.value.plan.new[0])
        assert not Team.objects.exists() and Player.objects.count() == 1
        register_teams(draft, "Les Tierces: Marie Lecler & Paul Roy", by=SYSTEM, new_members=CREATE)
        assert Player.objects.count() == 3

    def test_registering_players_asks_only_about_close_names(self, club):
        register_players(club, "Paul Roy", by=SYSTEM, new_members=ASK_IF_SIMILAR)
        with pytest.raises(NewMembersToConfirm):
            register_players(club, "Marie Lecler", by=SYSTEM, new_members=ASK_IF_SIMILAR)

    def test_the_page_asks_and_then_creates(self, client, draft, director):
        client.force_login(director)
        url = reverse("tournaments:director_teams", args=ARGS)
        text = "Les Tierces: Marie Lecler & Paul Roy"
        page = client.post(url, {"text": text}).content.decode()
        assert "Create 2 new members?" in page and "close to Marie Leclerc" in page
        response = client.post(url, {"text": text, "confirm": "1"}, follow=True)
        assert "1 team registered. 2 new members registered." in response.content.decode()

    def test_re_pasting_players_says_they_were_already_members(self, client, club, director):
        client.force_login(director)
        url = reverse("tournaments:director_club", args=["les-atouts"])
        response = client.post(url, {"text": "Marie Leclerc\nPaul Roy"}, follow=True)
        assert "1 new member registered. 1 player was already a member." in (
            response.content.decode()
        )
        response = client.post(url, {"text": "Marie Leclerc\nPaul Roy"}, follow=True)
        page = response.content.decode()
        assert "2 players were already members." in page and "new member" not in page

    def test_the_api_carries_the_question_as_a_flag(self, draft, director):
        api = APIClient()
        api.force_authenticate(director)
        url = f"/api/v1/tournaments/{draft.pk}/teams/"
        text = "Les Tierces: Marie Lecler & Paul Roy"
        asked = api.post(url, {"text": text, "new_players": "ask"}, format="json")
        assert asked.status_code == 409
        assert asked.json()["code"] == "new_members_to_confirm"
        assert asked.json()["errors"]["new_members"][0].startswith(
            "Marie Lecler (new member; close"
        )
        created = api.post(url, {"text": text}, format="json")  # `create` by default
        assert created.status_code == 201


# --- editing and deleting teams ----------------------------------------------------------------


class TestTeams:
    def test_a_team_is_renamed_and_its_players_swapped_before_it_plays(self, draft, club):
        team = TeamFactory(tournament=draft, seed=1)
        for player in team.players:
            MembershipFactory(club=club, player=player)
        marie = Player.objects.get(last_name="Leclerc")
        edit_team(team, by=SYSTEM, name="Les Tierces", second_player=marie)
        team.refresh_from_db()
        assert team.name == "Les Tierces" and team.second_player == marie

    def test_players_are_fixed_once_the_team_has_played(self):
        world = build_world()
        team = world.match.ns_team
        other = world.other_match.ns_team.first_player
        with pytest.raises(Conflict, match="has played"):
            edit_team(team, by=world.director, first_player=other)
        edit_team(team, by=world.director, name="Renamed")  # a name may still change
        assert Team.objects.get(pk=team.pk).name == "Renamed"

    def test_a_player_of_another_team_is_refused(self, draft, club):
        first, second = TeamFactory(tournament=draft, seed=1), TeamFactory(tournament=draft, seed=2)
        for player in (*first.players, *second.players):
            MembershipFactory(club=club, player=player)
        with pytest.raises(ServiceError, match="already plays"):
            edit_team(first, by=SYSTEM, first_player=second.first_player)

    def test_deleting_a_team_before_any_deal_removes_the_schedule_with_it(self, draft, director):
        teams = [TeamFactory(tournament=draft, seed=seed) for seed in (1, 2, 3)]
        generate_round_robin(draft, by=director)
        assert delete_team(teams[0], by=director) is True
        assert not Round.objects.filter(tournament=draft).exists()
        assert list(draft.teams.values_list("pk", flat=True)) == [t.pk for t in teams[1:]]

    def test_a_team_in_a_schedule_with_deals_is_withdrawn_not_deleted(self):
        world = build_world()
        with pytest.raises(Conflict, match="withdraw it instead"):
            delete_team(world.other_match.ns_team, by=world.director)

    def test_the_pages_edit_and_delete(self, client, draft, director, club):
        team = TeamFactory(tournament=draft, seed=1, name="Old")
        for player in team.players:
            MembershipFactory(club=club, player=player)
        client.force_login(director)
        url = reverse("tournaments:director_team", args=[*ARGS, team.pk])
        data = {
            "name": "New",
            "first_player": team.first_player_id,
            "second_player": team.second_player_id,
        }
        assert client.post(url, data).status_code == 302
        assert Team.objects.get(pk=team.pk).name == "New"
        delete = reverse("tournaments:director_team_delete", args=[*ARGS, team.pk])
        assert client.post(delete).status_code == 302 and not Team.objects.exists()

    def test_the_api_edits_and_deletes(self, draft, director):
        team = TeamFactory(tournament=draft, seed=1)
        api = APIClient()
        api.force_authenticate(director)
        response = api.patch(f"/api/v1/teams/{team.pk}/", {"name": "Les Tierces"}, format="json")
        assert response.status_code == 200 and response.json()["name"] == "Les Tierces"
        assert APIClient().delete(f"/api/v1/teams/{team.pk}/").status_code in (401, 403)
        assert api.delete(f"/api/v1/teams/{team.pk}/").status_code == 204


# --- the rest of the walk -------------------------------------------------------------------------


def test_the_tie_break_order_is_chosen_from_named_criteria(client, draft, director):
    client.force_login(director)
    url = reverse("tournaments:director_edit", args=ARGS)
    page = client.get(url).content.decode()
    assert "head-to-head among the tied teams" in page and "Comma-separated" not in page
    form = client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update({f.html_name: f.value() for f in form.rule_fields if f.value() is not None})
    data["tie_breaks"] = ["points_for", "match_points"]  # the order the boxes stand in
    data["rule_declarations"] = "on"
    assert client.post(url, data).status_code == 302
    assert Tournament.objects.get(pk=draft.pk).tie_breaks == ["points_for", "match_points"]


def test_the_header_leads_directors_to_their_pages(client, club, director):
    assert "Director</a>" not in client.get(reverse("home")).content.decode()
    referee = make_staff(club, Membership.Role.REFEREE, "remi")
    client.force_login(referee)
    assert "Director</a>" not in client.get(reverse("home")).content.decode()
    client.force_login(director)
    assert "Director</a>" in client.get(reverse("home")).content.decode()
    response = client.get(reverse("tournaments:director_index"))
    assert response.status_code == 302 and response.url.endswith("/direct/les-atouts/")


def test_a_one_round_schedule_says_one_round(client, draft, director):
    TeamFactory(tournament=draft, seed=1)
    TeamFactory(tournament=draft, seed=2)
    client.force_login(director)
    response = client.post(reverse("tournaments:director_generate", args=ARGS), follow=True)
    assert "Schedule generated: 1 round." in response.content.decode()


def test_the_referee_is_told_the_winner_by_name(client):
    world = build_world()
    client.force_login(world.director)
    page = client.get(reverse("tournaments:table", args=[world.match.pk])).content.decode()
    winner = world.match.ew_team if world.match.winner == "EW" else world.match.ns_team
    assert f"Match over: {winner} won." in page and "North–South win" not in page


def test_the_score_sheets_have_a_line_per_deal_the_match_can_have(client):
    world = build_world()  # max_deals 3
    client.force_login(world.director)
    response = client.get(reverse("tournaments:director_print_sheets", args=ARGS) + "?round=2")
    assert list(response.context["lines"]) == [1, 2, 3]
    Tournament.objects.filter(pk=world.tournament.pk).update(rules={"target": 1000})
    response = client.get(reverse("tournaments:director_print_sheets", args=ARGS) + "?round=2")
    assert len(response.context["lines"]) == 20


def test_the_print_pages_lead_back_to_the_tournament(client):
    world = build_world()
    client.force_login(world.director)
    back = reverse("tournaments:director", args=ARGS)
    for name in ("director_print_sheets", "director_print_standings"):
        page = client.get(reverse(f"tournaments:{name}", args=ARGS)).content.decode()
        assert f'href="{back}">Back to the tournament' in page, name


def test_every_page_names_a_favicon(client, club):
    assert 'rel="icon" href="/static/favicon.svg"' in client.get(reverse("home")).content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url == "/static/favicon.svg"


def test_the_tournament_language_is_checked_by_the_settings_service(draft, director):
    from tournaments.services.settings import SettingsRefused, update_tournament

    update_tournament(draft, by=director, language="fr")
    assert Tournament.objects.get(pk=draft.pk).language == "fr"
    with pytest.raises(SettingsRefused) as refused:
        update_tournament(draft, by=director, language="xx")
    assert refused.value.problems[0].path == "language"
