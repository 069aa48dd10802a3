"""The pages, second pass (issue 24): what a real evening showed, one test per friction."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import Membership, Player
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, make_staff
from tests.tournaments.pages.pages_world import build_world
from tournaments.models import Match, Tournament
from tournaments.services.settings import create_tournament

pytestmark = pytest.mark.django_db
ROUND_ROBIN_LIST = ["match_points", "head_to_head", "point_difference", "points_for"]
FORM = {
    "name": "Swiss Night",
    "slug": "",
    "starts_on": "2026-12-05",
    "format": "swiss",
    "round_count": 4,
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "is_public": "on",
    "rule_declarations": "on",
    "rule_declaration_comparison": "per_category",
    "rule_litige": "carry",
    "rule_rounding": "none",
    "rule_all_pass": "redeal",
    "rule_direction": "clockwise",
    "rule_capot_value": 252,
    "rule_target": 1000,
    "rule_max_deals": "",
    "rule_both_reach_target": "highest",
    "rule_draws": "allowed",
}


@pytest.fixture
def world():
    return build_world()


def args(tournament):
    return [tournament.club.slug, tournament.slug]


# --- 1. the tie-break list: what the form shows is what is saved ------------------------------


def test_a_tie_break_list_sent_with_a_swiss_is_saved_as_sent(client):
    club = ClubFactory(slug="les-atouts")
    client.force_login(make_staff(club, Membership.Role.DIRECTOR, "dora"))
    page = client.get(reverse("tournaments:director_new", args=["les-atouts"]))
    assert page.context["form"]["tie_breaks"].value() == ROUND_ROBIN_LIST  # the first format's
    assert "data-tie-break-defaults" in page.content.decode()
    response = client.post(
        reverse("tournaments:director_new", args=["les-atouts"]),
        {**FORM, "tie_breaks": ROUND_ROBIN_LIST},
    )
    assert response.status_code == 302
    assert Tournament.objects.get(slug="swiss-night").tie_breaks == ROUND_ROBIN_LIST


def test_a_swiss_made_without_a_list_takes_its_own(world):
    swiss = create_tournament(
        world.tournament.club,
        by=world.director,
        name="S",
        starts_on=datetime.date(2026, 12, 5),
        format="swiss",
        round_count=3,
    )
    assert swiss.tie_breaks == ["match_points", "buchholz", "point_difference", "points_for"]


# --- 5. the big screen ---------------------------------------------------------------------


def test_the_big_screen_shows_a_qr_code_and_tells_htmx_to_add_no_style(client, world):
    html = client.get(reverse("tournaments:screen", args=args(world.tournament))).content.decode()
    assert "<svg" in html.split("data-find-table")[1]
    assert 'name="htmx-config"' in html and '"includeIndicatorStyles": false' in html


# --- 6. the director's pages ---------------------------------------------------------------


def test_the_directors_pages_are_grouped_before_during_and_after_the_evening(client, world):
    client.force_login(world.director)
    html = client.get(reverse("tournaments:director", args=args(world.tournament))).content
    html = html.decode()
    before, during, after = (
        html.index("Before the evening"),
        html.index("During the evening"),
        html.index("After the evening"),
    )
    assert before < html.index("Settings and house rules") < during
    assert during < html.index("Rounds and tables, live") < after < html.index("Results (CSV)")
    assert 'aria-current="page">Rounds and tables, live' in html


def test_a_swiss_with_teams_and_no_round_says_to_draw_one(client, world):
    swiss = create_tournament(
        world.tournament.club,
        by=world.director,
        name="Swiss",
        starts_on=datetime.date(2026, 12, 5),
        format="swiss",
        round_count=3,
    )
    client.force_login(world.director)
    for name in ("director", "director_referees", "director_print_sheets"):
        html = client.get(reverse(f"tournaments:{name}", args=args(swiss))).content.decode()
        assert "No schedule yet" not in html, name
    html = client.get(reverse("tournaments:director", args=args(swiss))).content.decode()
    assert "No round drawn yet" in html


def test_every_table_finished_offers_to_finish_the_tournament(client, world):
    client.force_login(world.director)
    url = reverse("tournaments:director", args=args(world.tournament))
    finish = reverse("tournaments:director_finish", args=args(world.tournament))
    assert "data-finish" not in client.get(url).content.decode()
    # The card's action refuses what the card would not offer: a table still plays.
    client.post(finish)
    world.tournament.refresh_from_db()
    assert world.tournament.status == Tournament.Status.RUNNING
    Match.objects.filter(tournament=world.tournament).update(status=Match.Status.FINISHED)
    html = client.get(url).content.decode()
    assert "data-finish" in html and "Finish the tournament" in html
    assert f'action="{finish}"' in html
    response = client.post(finish)
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.status == Tournament.Status.FINISHED


def test_a_flagged_typo_is_fixed_in_one_click(client, world):
    club = world.tournament.club
    MembershipFactory(club=club, player=PlayerFactory(first_name="Marie", last_name="Leclerc"))
    client.force_login(world.director)
    url = reverse("tournaments:director_club", args=[club.slug])
    response = client.post(url, {"text": "Marie Leclrc"})
    html = response.content.decode()
    assert "Use the member Marie Leclerc" in html
    # The button's form sends the list with the member's name in place of the typo.
    assert ">Marie Leclerc</textarea>" in html
    client.post(url, {"text": "Marie Leclerc"})
    assert not Player.objects.filter(last_name="Leclrc").exists()


def test_the_referee_links_have_copy_and_share_buttons(client, world):
    client.force_login(world.director)
    response = client.post(
        reverse("tournaments:director_add_referees", args=args(world.tournament)),
        {"text": "Paul Martin"},
        follow=True,
    )
    html = response.content.decode()
    assert "data-copy=" in html and "data-share=" in html


def test_deleting_a_round_asks_first(client, world):
    swiss = create_tournament(
        world.tournament.club,
        by=world.director,
        name="Swiss",
        starts_on=datetime.date(2026, 12, 5),
        format="swiss",
        round_count=3,
    )
    from tournaments.services.draws import draw_next_round
    from tournaments.services.registration import register_teams

    register_teams(swiss, "A: Ann One & Bob Two\nB: Cy Three & Di Four", by=world.director)
    draw_next_round(swiss, by=world.director)
    client.force_login(world.director)
    html = client.get(reverse("tournaments:director", args=args(swiss))).content.decode()
    form = html.split("/delete/")[1].split(">")[0]
    assert "data-confirm=" in form


def test_signing_in_from_the_home_page_lands_a_referee_on_my_tables(client, world):
    html = client.get(reverse("home")).content.decode()
    assert 'href="/accounts/login/"' in html
    response = client.post(
        reverse("login"),
        {"username": world.referee.username, "password": "belote-pass"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("tournaments:my_tables")


def test_signing_in_lands_a_director_on_the_director_pages(client, world):
    response = client.post(
        reverse("login"),
        {"username": world.director.username, "password": "belote-pass"},
        follow=True,
    )
    club = world.tournament.club
    assert response.redirect_chain[-1][0] == reverse(
        "tournaments:director_club", kwargs={"club_slug": club.slug}
    )


def test_the_landing_after_sign_in_asks_an_anonymous_visitor_to_sign_in(client, db):
    response = client.get(reverse("tournaments:signed_in"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_my_tables_lists_the_tables_to_play_first(client, world):
    Match.objects.filter(pk=world.other_match.pk).update(referee=world.referee)
    assert world.match.status == Match.Status.FINISHED
    client.force_login(world.referee)
    matches = client.get(reverse("tournaments:my_tables")).context["matches"]
    assert [m.pk for m in matches] == [world.other_match.pk, world.match.pk]
