"""A tournament's Rules tab: its house rules in words, match points, tie-breaks, and links into the rule book."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.engine.rules import RULE_NAMES
from tests.factories import TournamentFactory
from tests.tournaments.pages.pages_world import build_world

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture
def world():
    return build_world()


def rules_page(client, language="en"):
    client.cookies["django_language"] = language
    response = client.get(reverse("tournaments:rules", args=ARGS))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_tab_says_each_house_rule_in_words(client, world):
    page = rules_page(client)
    assert "Number of deals" in page and "<strong>3</strong>" in page
    assert "Litige" in page and "carried in the pot to the next deal" in page
    assert '<a href="/clubs/les-atouts/winter-cup/rules/" aria-current="page">Rules</a>' in page


def test_the_rules_tab_marks_the_rules_this_tournament_changed(client, world):
    page = rules_page(client)
    assert page.count('class="rule rule-changed"') == 2  # no target, three deals
    assert 'class="rule rule-changed" id="rule-max_deals"' in page
    assert 'class="rule rule-changed" id="rule-target"' in page
    assert 'class="rule" id="rule-litige"' in page


def test_every_house_rule_links_to_its_section_of_the_rule_book(client, world):
    page = rules_page(client)
    for name in RULE_NAMES:
        if name == "players":  # a tournament match is always played by four
            assert 'href="/rules/#players"' not in page
            continue
        assert f'href="/rules/#{name}"' in page, name
    assert '<dt><a href="/rules/#capot_value">Value of a capot</a></dt>' in page


def test_the_rules_tab_shows_the_match_points_and_the_tie_breaks_in_order(client, world):
    world.tournament.points_win, world.tournament.points_draw = 3, 1
    world.tournament.tie_breaks = ["match_points", "wins", "point_difference"]
    world.tournament.save()
    page = rules_page(client)
    assert "win 3, draw 1, loss 0" in page
    tie_breaks = page[page.index("Tie-break order") :]
    positions = [tie_breaks.index(f"<li>{name}</li>") for name in ("match points", "matches won")]
    assert positions == sorted(positions)
    assert "<li>point difference</li>" in tie_breaks
    assert "<li>points for</li>" not in tie_breaks


@pytest.mark.parametrize(
    ("language", "heading", "link", "tie_breaks"),
    [
        ("en", "House rules", "the rule book</a>", "Tie-break order"),
        ("nl", "Huisregels", "het spelreglement</a>", "Volgorde van de tiebreaks"),
        ("fr", "Règles maison", "le règlement</a>", "Ordre des départages"),
    ],
)
def test_the_rules_tab_answers_in_the_visitors_language(
    client, world, compiled_catalogues, language, heading, link, tie_breaks
):
    page = rules_page(client, language)
    assert f'<h2 id="rules-title">{heading}</h2>' in page
    assert link in page and tie_breaks in page


def test_a_private_tournaments_rules_are_hidden_from_outsiders(client, world):
    hidden = TournamentFactory(club=world.tournament.club, slug="closed-cup", is_public=False)
    url = reverse("tournaments:rules", args=["les-atouts", hidden.slug])
    assert client.get(url).status_code == 404
    client.force_login(world.director)
    assert client.get(url).status_code == 200


def test_an_unknown_tournament_has_no_rules_page(client, world):
    url = reverse("tournaments:rules", args=["les-atouts", "no-such-cup"])
    assert client.get(url).status_code == 404


def test_the_rules_tab_issues_a_fixed_number_of_queries(
    client, world, django_assert_max_num_queries
):
    with django_assert_max_num_queries(1):
        rules_page(client)
    client.force_login(world.director)
    with django_assert_max_num_queries(4):
        rules_page(client)


def test_the_overview_names_only_the_changed_rules_and_links_to_the_rules_tab(client, world):
    page = client.get(world.tournament.get_absolute_url()).content.decode()
    assert "Number of deals: <strong>3</strong>" in page
    assert "carried in the pot to the next deal" not in page
    assert 'href="/clubs/les-atouts/winter-cup/rules/"' in page
