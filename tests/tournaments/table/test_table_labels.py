"""A table is written as its two sides apart, never as four names in a row (a mêlée's drawn
partnership is itself named "Dupont – Martin")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from club.models import Membership
from tests.factories import MatchFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.templatetags.tournament_tags import sides

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    tournament = TournamentFactory(name="Mêlée du jeudi")
    return MatchFactory(
        round__tournament=tournament,
        ns_team=TeamFactory(tournament=tournament, name="Dupont – Martin"),
        ew_team=TeamFactory(tournament=tournament, name="Moreau – Fournier"),
        table=2,
    )


def test_a_match_names_its_two_sides_apart(match):
    assert str(match) == "Dupont – Martin vs Moreau – Fournier"
    with translation.override("fr"):
        assert str(match) == "Dupont – Martin contre Moreau – Fournier"


def test_the_tag_marks_each_side_and_escapes_the_names(match):
    match.ew_team.name = "<b>Moreau</b>"
    html = sides(match)
    assert '<span class="side">Dupont – Martin</span> <span class="versus">vs</span>' in html
    assert "&lt;b&gt;Moreau&lt;/b&gt;" in html


def test_the_directors_tables_page_writes_the_sides_apart(client, match):
    director = make_staff(match.tournament.club, Membership.Role.DIRECTOR, "dora")
    client.force_login(director)
    tournament = match.tournament
    page = client.get(
        reverse("tournaments:director_tables", args=[tournament.club.slug, tournament.slug])
    ).content.decode()
    assert '<span class="side">Dupont – Martin</span> <span class="versus">vs</span> ' in page
    assert "Dupont – Martin – Moreau – Fournier" not in page
