"""A team's category on the director's teams pages, for the director, a referee and a visitor."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.prizes.world import build_world
from tournaments.models import MatchEvent, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    return build_world(play=False, prizes=None)


def edit_url(team: Team) -> str:
    return f"/direct/les-atouts/concours/teams/{team.pk}/"


def form_data(client: Client, team: Team, **changes: str) -> dict[str, object]:
    form = client.get(edit_url(team)).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_director_tags_a_team_on_its_page_and_the_teams_page_shows_it(world):
    client = Client()
    client.force_login(world.director)
    team = Team.objects.get(name="Team C")
    response = client.post(edit_url(team), form_data(client, team, category=" Ladies "))
    assert response.status_code == 302
    assert Team.objects.get(pk=team.pk).category == "Ladies"
    html = client.get("/direct/les-atouts/concours/teams/").content.decode()
    assert '<span class="badge" title="Category">Ladies</span>' in html
    assert MatchEvent.objects.filter(detail__contains="Ladies").exists()


def test_a_category_too_long_is_refused_on_its_field(world):
    client = Client()
    client.force_login(world.director)
    team = Team.objects.get(name="Team C")
    response = client.post(edit_url(team), form_data(client, team, category="L" * 41))
    assert response.status_code == 200
    assert "A category has at most 40 characters." in response.content.decode()
    assert Team.objects.get(pk=team.pk).category == ""


def test_a_referee_and_a_visitor_may_not_tag_a_team(world):
    team = Team.objects.get(name="Team C")
    referee = Client()
    referee.force_login(world.referee)
    assert referee.post(edit_url(team), {"name": "Team C", "category": "Ladies"}).status_code == 403
    assert Client().post(edit_url(team), {"category": "Ladies"}).status_code == 302
    assert Team.objects.get(pk=team.pk).category == ""


def check_in_url(team: Team) -> str:
    return f"/direct/les-atouts/concours/check-in/{team.pk}/"


def test_the_director_tags_a_team_at_check_in(world):
    client = Client()
    client.force_login(world.director)
    team = Team.objects.get(name="Team D")
    response = client.post(check_in_url(team), {"category": "Youth"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'value="Youth"' in response.content.decode()
    assert Team.objects.get(pk=team.pk).category == "Youth"
    # The tag is offered for the next entries, and the tap left the attendance as it was.
    page = client.get("/direct/les-atouts/concours/check-in/").content.decode()
    assert '<option value="Youth">' in page
    assert Team.objects.get(pk=team.pk).attendance == "expected"


def test_a_referee_may_not_tag_a_team_at_check_in(world):
    team = Team.objects.get(name="Team D")
    referee = Client()
    referee.force_login(world.referee)
    assert referee.post(check_in_url(team), {"category": "Youth"}).status_code == 403
    assert Team.objects.get(pk=team.pk).category == ""
