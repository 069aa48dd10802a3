"""The pages of the evening's changes: withdraw asked first, reinstate, substitutes, the draw
edit page, and calls from the table to the director's tables page."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse

from club.models import Membership
from tests.factories import ClubFactory, MembershipFactory, TeamFactory, make_staff
from tournaments.models import DirectorCall, Match, MatchEvent, Substitution, Team, Tournament
from tournaments.services import generate_round_robin
from tournaments.services.draws import draw_next_round
from tournaments.services.settings import create_tournament
from tournaments.services.status import publish_tournament
from tournaments.services.table_referees import assign_referee

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


@pytest.fixture
def referee(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.REFEREE, "referee")


def evening(club, director, **settings: Any) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Jeudi",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        rules={"target": None, "max_deals": 1},
        **settings,
    )
    for seed in range(1, 5):
        team = TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
        for player in team.players:
            MembershipFactory(club=club, player=player)
    return tournament


def url(name: str, *more: Any) -> str:
    return reverse(f"tournaments:{name}", args=["atouts", "jeudi", *more])


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_withdraw_asks_first_and_says_what_happens(client, club, director, lang):
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    team = tournament.teams.get(seed=1)
    client.force_login(director)
    page = client.get(url("director_withdraw", team.pk), HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    assert b"data-withdraw-preview" in page.content
    assert page.content.count(b"<li>") >= 3  # its three matches become byes
    team.refresh_from_db()
    assert not team.withdrawn  # asking changes nothing
    client.post(url("director_withdraw", team.pk))
    team.refresh_from_db()
    assert team.withdrawn
    teams = client.get(url("director_teams"))
    assert url("director_reinstate", team.pk).encode() in teams.content
    client.post(url("director_reinstate", team.pk))
    team.refresh_from_db()
    assert not team.withdrawn


def test_a_director_adds_a_substitute_from_the_teams_page(client, club, director):
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    team = tournament.teams.get(seed=1)
    into = MembershipFactory(club=club).player
    client.force_login(director)
    page = client.get(url("director_team", team.pk))
    assert b"data-substitutes" in page.content
    body = {"out": team.first_player_id, "in": into.pk, "from_round": 2}
    client.post(url("director_substitute", team.pk), body)
    assert Substitution.objects.filter(team=team, player_in=into, from_round=2).exists()
    match = Match.objects.get(round__number=2, seats__team=team)
    sheet = client.get(match.get_absolute_url())
    assert into.full_name.encode() in sheet.content


def test_a_refused_substitute_is_said_and_stores_nothing(client, club, director):
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    team, other = tournament.teams.get(seed=1), tournament.teams.get(seed=2)
    client.force_login(director)
    body = {"out": team.first_player_id, "in": other.first_player_id, "from_round": 1}
    page = client.post(url("director_substitute", team.pk), body, follow=True)
    assert b"already plays in round 1" in page.content
    assert not Substitution.objects.exists()


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_the_director_edits_a_drawn_round_and_reads_what_it_breaks(client, club, director, lang):
    tournament = evening(club, director, format=Tournament.Format.SWISS, round_count=3)
    round_ = draw_next_round(tournament, by=director)
    first, second = round_.matches.order_by("table")
    client.force_login(director)
    tables = client.get(url("director"), HTTP_ACCEPT_LANGUAGE=lang)
    assert url("director_round_edit", 1).encode() in tables.content
    page = client.get(url("director_round_edit", 1), HTTP_ACCEPT_LANGUAGE=lang)
    assert b"data-swap-form" in page.content
    answer = client.post(
        url("director_round_edit", 1), {"a": first.ns_team_id, "b": second.ns_team_id}, follow=True
    )
    assert answer.status_code == 200
    first.refresh_from_db()
    assert first.ns_team_id == second.ns_team_id
    assert MatchEvent.objects.filter(action="swap").count() == 1


def test_a_started_round_offers_no_edit(client, club, director):
    from tournaments.services.deals import enter_deal

    tournament = evening(club, director, format=Tournament.Format.SWISS, round_count=3)
    round_ = draw_next_round(tournament, by=director)
    match = round_.matches.select_related("tournament", "round").first()
    enter_deal(
        match, {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}, by=director
    )
    client.force_login(director)
    assert url("director_round_edit", 1).encode() not in client.get(url("director")).content
    page = client.get(url("director_round_edit", 1))
    assert b"data-refusal" in page.content and b"data-swap-form" not in page.content


@pytest.mark.parametrize("who", ["anonymous", "referee", "stranger"])
def test_only_directors_open_the_evening_pages(client, club, director, referee, who):
    tournament = evening(club, director, format=Tournament.Format.SWISS, round_count=3)
    draw_next_round(tournament, by=director)
    team = tournament.teams.get(seed=1)
    user = {
        "anonymous": None,
        "referee": referee,
        "stranger": make_staff(ClubFactory(), Membership.Role.DIRECTOR, "stranger"),
    }[who]
    if user is not None:
        client.force_login(user)
    for address in (url("director_round_edit", 1), url("director_withdraw", team.pk)):
        answer = client.get(address)
        assert answer.status_code == (302 if user is None else 403)
    answer = client.post(url("director_round_edit", 1), {"a": 1, "b": 2})
    assert answer.status_code == (302 if user is None else 403)
    assert not MatchEvent.objects.filter(action="swap").exists()


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_the_referee_calls_and_the_director_sees_it_until_answered(
    client, club, director, referee, lang
):
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    publish_tournament(tournament, by=director)  # a draft is its directors' alone
    match = Match.objects.filter(tournament=tournament, ew_team__isnull=False).first()
    assign_referee(match, referee, by=director)
    client.force_login(referee)
    table = client.get(reverse("tournaments:table", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert reverse("tournaments:call_director", args=[match.pk]).encode() in table.content
    client.post(reverse("tournaments:call_director", args=[match.pk]), {"reason": "revoke?"})
    table = client.get(reverse("tournaments:table", args=[match.pk]))
    assert b"data-call-waiting" in table.content
    client.force_login(director)
    # The polling tables page learns of the call though no result changed.
    tournament.refresh_from_db()
    polled = client.get(url("director_tables"), {"seq": tournament.change_seq})
    assert polled.status_code == 200
    tables = client.get(url("director_tables"))
    assert b"data-calls" in tables.content and b"revoke?" in tables.content
    call = DirectorCall.objects.get()
    client.post(url("director_answer_call", call.pk))
    assert b"data-calls" not in client.get(url("director_tables")).content


def test_another_referee_cannot_call_from_a_table(client, club, director, referee):
    tournament = evening(club, director)
    generate_round_robin(tournament, by=director)
    match = Match.objects.filter(tournament=tournament, ew_team__isnull=False).first()
    assign_referee(match, referee, by=director)
    other = make_staff(club, Membership.Role.REFEREE, "other")
    client.force_login(other)
    answer = client.post(reverse("tournaments:call_director", args=[match.pk]), {"reason": "x"})
    assert answer.status_code == 403
    assert not DirectorCall.objects.exists()


def test_a_melee_player_is_replaced_from_the_rounds_draw_page(client, club, director):
    tournament = create_tournament(
        club,
        by=director,
        name="Mêlée",
        slug="jeudi",
        starts_on=datetime.date(2027, 1, 14),
        format=Tournament.Format.INDIVIDUAL,
        round_count=3,
        rules={"target": None, "max_deals": 1},
    )
    from tournaments.services.entrants import register_entrants

    register_entrants(
        tournament,
        "\n".join(f"{n} Martin" for n in ["Anne", "Bea", "Cleo", "Dana", "Emma"]),
        by=director,
    )
    round_ = draw_next_round(tournament, by=director)
    sitting = round_.sit_outs.get().entrant.player
    partnership = Team.objects.filter(round=round_).first()
    client.force_login(director)
    leaving = tournament.entrants.get(player=partnership.first_player)
    asked = client.get(url("director_entrant_withdraw", leaving.pk))
    assert b"data-withdraw-preview" in asked.content
    client.post(url("director_entrant_withdraw", leaving.pk))
    leaving.refresh_from_db()
    assert leaving.withdrawn
    page = client.get(url("director_round_edit", 1))
    assert url("director_substitute", partnership.pk).encode() in page.content
    body = {"out": partnership.first_player_id, "in": sitting.pk, "from_round": 1}
    client.post(url("director_substitute", partnership.pk), body)
    partnership.refresh_from_db()
    assert partnership.first_player == sitting
