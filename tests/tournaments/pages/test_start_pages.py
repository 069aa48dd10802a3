"""The pages a newcomer lands on: the home page and a tournament with its teams and schedule."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import ClubFactory, TeamFactory, TournamentFactory, UserFactory, make_staff
from tournaments.permissions import SYSTEM
from tournaments.services import generate_round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():  # type: ignore[no-untyped-def]
    club = ClubFactory(name="Club de Belote de Lyon", slug="belote-lyon")
    tournament = TournamentFactory(club=club, name="Tournoi d'hiver", slug="hiver")
    for seed, name in enumerate(
        ["Les As", "Les Rois", "Les Capots", "Atout Cœur", "Les Valets"], 1
    ):
        TeamFactory(tournament=tournament, seed=seed, name=name)
    generate_round_robin(tournament, by=SYSTEM)
    return tournament


@pytest.fixture
def private(tournament):  # type: ignore[no-untyped-def]
    return TournamentFactory(
        club=tournament.club, name="Entraînement du jeudi", slug="jeudi", is_public=False
    )


def detail_url(tournament) -> str:  # type: ignore[no-untyped-def]
    return reverse(
        "tournaments:detail", kwargs={"club_slug": tournament.club.slug, "slug": tournament.slug}
    )


def schedule_url(tournament) -> str:  # type: ignore[no-untyped-def]
    return reverse(
        "tournaments:schedule", kwargs={"club_slug": tournament.club.slug, "slug": tournament.slug}
    )


def test_the_home_page_lists_the_clubs_and_their_public_tournaments(client, tournament, private):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Club de Belote de Lyon" in page
    assert "Tournoi d&#x27;hiver" in page or "Tournoi d'hiver" in page
    assert detail_url(tournament) in page
    assert "Entraînement du jeudi" not in page


def test_the_home_page_works_with_no_club_at_all(client):
    assert client.get("/").status_code == 200


def test_the_tournament_page_lists_its_teams_and_rounds(client, tournament):
    response = client.get(detail_url(tournament))
    assert response.status_code == 200
    page = response.content.decode()
    for name in ["Les As", "Les Rois", "Les Capots", "Atout Cœur", "Les Valets"]:
        assert name in page
    for number in range(1, 6):
        assert f"Round {number}" in page


def test_the_schedule_shows_every_round_with_its_matches(client, tournament):
    response = client.get(schedule_url(tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Round 5" in page
    assert "Les Valets" in page


def test_an_anonymous_visitor_cannot_see_a_private_tournament(client, private):
    assert client.get(detail_url(private)).status_code == 404
    assert client.get(schedule_url(private)).status_code == 404


def test_a_referee_cannot_see_a_private_tournament_but_its_director_can(client, private):
    client.force_login(make_staff(private.club, Membership.Role.REFEREE))
    assert client.get(detail_url(private)).status_code == 404
    client.force_login(make_staff(private.club, Membership.Role.DIRECTOR))
    response = client.get(detail_url(private))
    assert response.status_code == 200
    assert "Entraînement du jeudi" in response.content.decode()


def test_an_unknown_tournament_is_not_found(client, tournament):
    url = reverse("tournaments:detail", kwargs={"club_slug": "belote-lyon", "slug": "nope"})
    assert client.get(url).status_code == 404


def test_the_admin_shows_every_model_to_a_site_admin(client, tournament):
    from django.contrib import admin

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(reverse("admin:index")).status_code == 200
    match = tournament.matches.exclude(ew_team=None).first()
    objects = {
        "tournament": tournament,
        "match": match,
        "round": match.round,
        "team": match.ns_team,
    }
    for model in admin.site._registry:
        meta = model._meta
        if meta.app_label not in {"club", "tournaments"}:
            continue
        changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert client.get(changelist).status_code == 200, changelist
        assert client.get(changelist, {"q": "Les"}).status_code == 200, changelist
        if meta.model_name in objects:
            change = reverse(
                f"admin:{meta.app_label}_{meta.model_name}_change",
                args=[objects[meta.model_name].pk],
            )
            assert client.get(change).status_code == 200, change


def test_the_admin_shows_deals_but_leaves_their_changes_to_the_table_page(client):
    from django.contrib.auth import get_user_model

    from tests.factories import MatchFactory
    from tournaments.services.deals import enter_deal

    admin_user = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    match = MatchFactory()
    deal = enter_deal(
        match, {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}, by=admin_user
    )
    client.force_login(admin_user)
    url = f"/admin/tournaments/deal/{deal.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    client.post(url, {"number": 5, "ns_score": 999})
    deal.refresh_from_db()
    assert (deal.number, deal.ns_score) == (1, 98)
    assert client.get("/admin/tournaments/deal/add/").status_code == 403


def test_the_site_serves_its_own_stylesheet_scripts_and_api_docs_assets(client):
    for url in (
        "/static/css/site.css",
        "/static/js/vendor/htmx.min.js",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        response.close()
