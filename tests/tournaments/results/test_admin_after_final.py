"""The Django admin refuses what the services refuse (issue 41 item 1): with results final,
swapping a finished match's teams saved and reversed the standings; a played team's first
player changed there though the API answers 409 "has played"."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import MatchFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Match, Tournament
from tournaments.services.deals import enter_deal

pytestmark = pytest.mark.django_db

MADE = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


def finished_long_ago(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(minutes=31),
    )


def as_posted(page: Any) -> dict[str, Any]:
    """What the browser would post back from an admin change page, unchanged."""
    data: dict[str, Any] = {}

    def add(form: Any) -> None:
        for name, field in form.fields.items():
            value = form.initial.get(name, field.initial)
            if value is True:
                data[form.add_prefix(name)] = "on"
            elif value not in (None, False):
                data[form.add_prefix(name)] = getattr(value, "pk", value)

    add(page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management.initial.get(name, 0)
        for form in formset.forms:
            add(form)
    return data


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def played():
    tournament = TournamentFactory(rules={"target": 2000})
    match = MatchFactory(round__tournament=tournament, tournament=tournament)
    enter_deal(match, MADE, by=UserFactory(is_superuser=True, is_staff=True))
    return match


def test_swapping_a_final_matchs_teams_in_the_admin_is_refused(admin_client, played):
    url = f"/admin/tournaments/match/{played.pk}/change/"
    data = as_posted(admin_client.get(url))
    ns, ew = played.ns_team_id, played.ew_team_id
    finished_long_ago(played.tournament)
    data["ns_team"], data["ew_team"] = ew, ns
    assert admin_client.post(url, data).status_code == 403
    played.refresh_from_db()
    assert (played.ns_team_id, played.ew_team_id) == (ns, ew)


def test_a_started_matchs_teams_stay_as_drawn_in_the_admin_before_the_finish(admin_client, played):
    url = f"/admin/tournaments/match/{played.pk}/change/"
    data = as_posted(admin_client.get(url))
    ns, ew = played.ns_team_id, played.ew_team_id
    data["ns_team"], data["ew_team"] = ew, ns
    data["table"] = 7
    assert admin_client.post(url, data).status_code == 302
    played.refresh_from_db()
    assert (played.ns_team_id, played.ew_team_id, played.table) == (ns, ew, 7)


def test_the_round_page_keeps_a_started_matchs_teams(admin_client, played):
    url = f"/admin/tournaments/round/{played.round_id}/change/"
    page = admin_client.get(url)
    data = as_posted(page)
    matches = next(
        i.formset for i in page.context["inline_admin_formsets"] if i.formset.model is Match
    )
    prefix = matches.forms[0].prefix
    ns, ew = played.ns_team_id, played.ew_team_id
    data[f"{prefix}-ns_team"], data[f"{prefix}-ew_team"] = ew, ns
    admin_client.post(url, data)
    assert Match.objects.filter(pk=played.pk, ns_team_id=ns, ew_team_id=ew).exists()


def test_a_played_teams_players_stay_in_the_admin_as_the_api_keeps_them(admin_client, played):
    team = played.ns_team
    first = team.first_player_id
    url = f"/admin/tournaments/team/{team.pk}/change/"
    data = as_posted(admin_client.get(url))
    data["first_player"] = PlayerFactory().pk
    data["name"] = "Renamed"
    assert admin_client.post(url, data).status_code == 302
    team.refresh_from_db()
    assert team.name == "Renamed"  # a name may change any time, as in the API
    assert team.first_player_id == first


def test_a_team_that_has_not_played_changes_players_in_the_admin(admin_client):
    match = MatchFactory()
    team = match.ns_team
    url = f"/admin/tournaments/team/{team.pk}/change/"
    data = as_posted(admin_client.get(url))
    newcomer = PlayerFactory()
    data["first_player"] = newcomer.pk
    assert admin_client.post(url, data).status_code == 302
    team.refresh_from_db()
    assert team.first_player_id == newcomer.pk


def test_every_row_of_a_final_tournament_is_read_only_in_the_admin(admin_client, played):
    tournament = played.tournament
    urls = [
        f"/admin/tournaments/team/{played.ns_team_id}/change/",
        f"/admin/tournaments/round/{played.round_id}/change/",
        f"/admin/tournaments/match/{played.pk}/change/",
    ]
    posted = {url: as_posted(admin_client.get(url)) for url in urls}
    finished_long_ago(tournament)
    for url in urls:
        assert admin_client.get(url).status_code == 200, url  # still shown, read-only
        assert admin_client.post(url, posted[url]).status_code == 403, url
        assert (
            admin_client.post(url.replace("/change/", "/delete/"), {"post": "yes"}).status_code
            == 403
        )
    assert Match.objects.filter(pk=played.pk).exists()


def test_a_new_team_in_a_final_tournament_is_refused_in_the_admin(admin_client, played):
    tournament = played.tournament
    finished_long_ago(tournament)
    first, second = PlayerFactory(), PlayerFactory()
    answer = admin_client.post(
        "/admin/tournaments/team/add/",
        {
            "tournament": tournament.pk,
            "name": "Late comers",
            "seed": 9,
            "first_player": first.pk,
            "second_player": second.pk,
        },
    )
    assert answer.status_code == 200
    assert "The results of this tournament are final" in answer.content.decode()
    assert not tournament.teams.filter(name="Late comers").exists()
