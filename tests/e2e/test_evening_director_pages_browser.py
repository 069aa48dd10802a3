"""Issue 38 in Debian's chromium, at 360x740 and on a laptop: a walk-in substitute typed in on
the team's page (a close name asked about, then removed again), a drawn team offered Withdraw
only, the dashboard and the big screen after the finish, and a draft's link to its status.
Every step is saved under artifacts/screenshots/third-pass-*.png."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import Membership, Player
from tests.e2e.conftest import requires_chromium, sign_in, submit
from tests.e2e.test_accessibility_browser import check
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, TeamFactory, make_staff
from tournaments.models import Match, Substitution, Tournament
from tournaments.services import generate_round_robin
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament
from tournaments.services.status import finish_tournament

pytestmark = [
    pytest.mark.browser,
    requires_chromium,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("compiled_translations"),
]
SIZES = pytest.mark.parametrize("size", ["phone", "laptop"])
NS_MAKES = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1280, "height": 800}}


def club_and_director():  # type: ignore[no-untyped-def]
    club = ClubFactory(slug="les-atouts", name="Les Atouts")
    return club, make_staff(club, Membership.Role.DIRECTOR, "dora")


def axe_clean(page) -> None:  # type: ignore[no-untyped-def]
    """No serious or critical axe violation on the page as it stands (the walk's check)."""
    from axe_playwright_python.sync_playwright import Axe

    assert check(page, Axe()) == []


def no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@SIZES
def test_a_walk_in_substitute_is_typed_in_asked_about_and_removed(
    page, live_server, screenshot, size
):
    page.set_viewport_size(VIEWPORTS[size])
    club, director = club_and_director()
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        status=Tournament.Status.RUNNING,
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    generate_round_robin(tournament, by=director)
    marie = PlayerFactory(first_name="Marie", last_name="Dupont")
    MembershipFactory(club=club, player=marie)
    team = tournament.teams.get(seed=1)
    url = reverse("tournaments:director_team", args=["les-atouts", "jeudi", team.pk])
    sign_in(page, live_server.url, "dora", url)
    offered = page.locator("#sub-in option").all_inner_texts()
    assert offered == ["—", "Marie Dupont"]
    page.select_option("#sub-out", str(team.first_player_id))
    page.fill("#sub-round", "2")
    page.fill("#sub-first", "Marie")
    page.fill("#sub-last", "Dupond")
    screenshot(page, f"third-pass-{size}-01-walk-in-typed")
    submit(page, "form:has(#sub-first) button[type=submit]")
    assert page.get_by_text("close to Marie Dupont, already a member").is_visible()
    no_sideways_scroll(page)
    axe_clean(page)
    screenshot(page, f"third-pass-{size}-02-close-name-asked")
    submit(page, "[data-create-member]")
    sub = Substitution.objects.get(team=team)
    assert (sub.player_in.full_name, sub.from_round) == ("Marie Dupond", 2)
    assert Player.objects.filter(first_name="Marie").count() == 2
    screenshot(page, f"third-pass-{size}-03-substitute-added")
    teams = reverse("tournaments:director_teams", args=["les-atouts", "jeudi"])
    page.goto(live_server.url + teams)
    line = page.locator(f"[data-substitution='{sub.pk}']")
    assert line.inner_text() == f"From round 2: Marie Dupond in place of {team.first_player}"
    no_sideways_scroll(page)
    axe_clean(page)
    screenshot(page, f"third-pass-{size}-04-teams-list")
    page.goto(live_server.url + url)
    page.once("dialog", lambda dialog: dialog.accept())
    submit(page, f"li[data-substitution='{sub.pk}'] button")
    assert not Substitution.objects.exists()
    screenshot(page, f"third-pass-{size}-05-removed")


@SIZES
def test_a_drawn_team_is_offered_withdraw_not_delete(page, live_server, screenshot, size):
    page.set_viewport_size(VIEWPORTS[size])
    club, director = club_and_director()
    tournament = create_tournament(
        club,
        by=director,
        name="Concours",
        slug="concours",
        starts_on=datetime.date(2027, 1, 9),
        format=Tournament.Format.CONCOURS,
        round_count=3,
        draw_seed=99,
    )
    names = ("Ana", "Bob", "Cid", "Dom", "Eve")
    register_teams(tournament, "\n".join(f"{n}: {n} One & {n} Two" for n in names), by=director)
    draw_next_round(tournament, by=director)
    bye = Match.objects.get(tournament=tournament, ew_team__isnull=True).ns_team
    sign_in(page, live_server.url, "dora", "/direct/les-atouts/concours/teams/")
    row = page.locator("ol.list li", has_text=bye.name)
    assert row.get_by_role("link", name=f"Withdraw {bye.name}").is_visible()
    assert row.get_by_role("button", name=f"Delete {bye.name}").count() == 0
    no_sideways_scroll(page)
    screenshot(page, f"third-pass-{size}-06-drawn-teams")


@SIZES
def test_after_the_finish_the_dashboard_and_the_big_screen_say_so(
    page, live_server, screenshot, size
):
    page.set_viewport_size(VIEWPORTS[size])
    club, director = club_and_director()
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        status=Tournament.Status.RUNNING,
        rules={"target": None, "max_deals": 1},
    )
    register_teams(
        tournament, "Ana One & Ana Two\nBob One & Bob Two\nCid One & Cid Two", by=director
    )
    generate_round_robin(tournament, by=director)
    for match in Match.objects.filter(tournament=tournament, ew_team__isnull=False):
        enter_deal(match, NS_MAKES, by=director)
    finish_tournament(tournament, by=director)
    sign_in(page, live_server.url, "dora", "/direct/les-atouts/jeudi/")
    assert page.locator("#status-select").count() == 0
    assert page.get_by_role("button", name="Reopen the results").is_visible()
    no_sideways_scroll(page)
    axe_clean(page)
    screenshot(page, f"third-pass-{size}-07-finished-dashboard")
    if size == "laptop":
        page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live_server.url + "/clubs/les-atouts/jeudi/screen/")
    assert page.get_by_role("heading", name="Final standings").is_visible()
    assert page.get_by_text("Find your table").count() == 0
    assert "Round" not in page.locator(".screen-head").inner_text()
    axe_clean(page)
    screenshot(page, f"third-pass-{size}-08-finished-screen", full_page=False)


@SIZES
def test_a_drafts_entries_page_links_to_the_status(page, live_server, screenshot, size):
    page.set_viewport_size(VIEWPORTS[size])
    club, _director = club_and_director()
    Tournament.objects.create(
        club=club,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        registration="open",
    )
    sign_in(page, live_server.url, "dora", "/direct/les-atouts/jeudi/registrations/")
    screenshot(page, f"third-pass-{size}-09-draft-entries")
    page.click("[data-publish-link]")
    page.wait_for_url("**/direct/les-atouts/jeudi/#status-select")
    page.select_option("#status-select", "open")
    submit(page, "form:has(#status-select) button[type=submit]")
    page.goto(live_server.url + "/clubs/les-atouts/jeudi/register/")
    assert page.locator("form").filter(has=page.locator("[name=player]")).count() == 1
    no_sideways_scroll(page)
    screenshot(page, f"third-pass-{size}-10-register-open")
