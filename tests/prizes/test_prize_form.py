"""The prize table on the director's tournament form: saved as the setting, each problem named
by its line and field, for the director, a referee and a visitor."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.prizes.world import build_world
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db

EDIT = "/direct/les-atouts/concours/edit/"


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    return build_world(play=False, prizes=None)


def posted(client: Client, prizes: object) -> tuple[int, str]:
    form = client.get(EDIT).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data["prizes"] = prizes if isinstance(prizes, str) else json.dumps(prizes)
    data["tie_breaks"] = list(form["tie_breaks"].value())
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    response = client.post(EDIT, data)
    return response.status_code, response.content.decode()


def test_the_director_saves_a_prize_table(world):
    client = Client()
    client.force_login(world.director)
    table = {"pool": {"percent_of_fees": 60}, "rounding": 5, "lines": [{"place": 1, "percent": 50}]}
    status, _html = posted(client, table)
    assert status == 302
    assert Tournament.objects.get().prizes == table


def test_the_form_names_the_line_and_the_field_of_a_problem(world):
    client = Client()
    client.force_login(world.director)
    table = {"lines": [{"place": 1, "amount": 10}, {"place": 2, "amount": 5, "percent": 5}]}
    status, html = posted(client, table)
    assert status == 200
    assert "Line 2, percent of the pool: Give an amount or a percentage, not both." in html
    assert Tournament.objects.get().prizes is None


def test_a_category_no_team_has_is_named_on_its_line(world):
    client = Client()
    client.force_login(world.director)
    table = {"lines": [{"category": "Ladies", "place": 1, "amount": 10}]}
    assert "Line 1, category: No entry has the category “Ladies”." in posted(client, table)[1]
    Team.objects.filter(name="Team C").update(category="Ladies")
    assert posted(client, table)[0] == 302


def test_text_that_is_not_json_is_refused_on_the_field(world):
    client = Client()
    client.force_login(world.director)
    status, html = posted(client, "{place: 1")
    assert status == 200 and "Enter a valid JSON." in html


def test_the_form_carries_the_editor_and_its_words(world):
    client = Client()
    client.force_login(world.director)
    html = client.get(EDIT).content.decode()
    assert "data-prize-editor" in html and 'id="prize-words"' in html
    assert "js/prize-table.js" in html


def test_a_referee_and_a_visitor_do_not_reach_the_form(world):
    client = Client()
    client.force_login(world.referee)
    assert client.get(EDIT).status_code == 403
    assert Client().get(EDIT).status_code == 302
