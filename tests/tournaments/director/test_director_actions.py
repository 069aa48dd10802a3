"""Each director's action shows exactly when it would succeed: the dashboard, the API's
`actions` and the service's guard read the same `<action>_refusal`."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tests.tournaments.pages.test_format_pages import play
from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import Round, Tournament
from tournaments.services import round_closing
from tournaments.services import status as tournament_status
from tournaments.services.actions import available_actions
from tournaments.services.deals import close_match
from tournaments.services.draws import delete_last_round, draw_next_round
from tournaments.services.finals import start_final
from tournaments.services.registration import register_teams
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import create_tournament

pytestmark = pytest.mark.django_db

TEAMS = "\n".join(f"{n}: {n} One & {n} Two" for n in ("Ana", "Bob", "Cid", "Dom"))


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="les-atouts", name="Les Atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


def make(club, director, **settings: Any) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = create_tournament(
        club,
        by=director,
        name="Soirée",
        slug="soiree",
        starts_on=datetime.date(2027, 2, 5),
        rules={"target": None, "max_deals": 1},
        draw_seed=5,
        **settings,
    )
    register_teams(tournament, TEAMS, by=director)
    return tournament


def dashboard(client, tournament: Tournament) -> str:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:director", args=[tournament.club.slug, tournament.slug])
    return client.get(url).content.decode()


def test_a_round_robin_offers_its_final_only_once_its_matches_are_over(client, club, director):
    """The dashboard showed "Start the final" as soon as a round robin's schedule existed;
    the service then refused (the qualifying rounds not over). Both now read one refusal."""
    tournament = make(club, director)
    generate_round_robin(tournament, by=director)
    client.force_login(director)
    page = dashboard(client, tournament)
    assert "Start the final" not in page
    assert "The qualifying rounds are not over: round 1, 2, 3 still has matches" in page
    with pytest.raises(ServiceError) as refused:
        start_final(tournament, size=2, third_place=False, by=director)
    assert refused.value.code == "round_not_finished"
    for round_ in tournament.rounds.order_by("number"):
        play(round_, director)
    assert "Start the final" in dashboard(client, tournament)
    start_final(tournament, size=2, third_place=False, by=director)


def _attempt(name: str, tournament: Tournament, by: Any) -> ServiceError | None:
    """Run the action for real, and roll it back: its error, or None when it succeeded."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    last = tournament.rounds.order_by("-number").first()
    current = tournament.rounds.filter(is_closed=False).order_by("number").first()
    actions = {
        "publish": lambda: tournament_status.publish_tournament(tournament, by=by),
        "generate": lambda: generate_round_robin(tournament, by=by),
        "draw": lambda: draw_next_round(tournament, by=by),
        "delete_round": lambda: delete_last_round(last, by=by),  # type: ignore[arg-type]
        "close_round": lambda: round_closing.close_round(current, by=by),  # type: ignore[arg-type]
        "start_final": lambda: start_final(tournament, size=2, third_place=False, by=by),
        "finish": lambda: tournament_status.finish_tournament(tournament, by=by),
    }
    if (
        name in ("delete_round", "close_round")
        and (last if name == "delete_round" else current) is None
    ):
        return ServiceError("no round")
    try:
        with transaction.atomic():
            actions[name]()
            raise _RolledBack
    except _RolledBack:
        return None
    except ServiceError as error:
        return error


class _RolledBack(Exception):
    pass


def _agree(tournament: Tournament, by: Any) -> None:
    tournament = Tournament.objects.get(pk=tournament.pk)
    refusals = available_actions(
        tournament, selectors.tables(tournament), teams=tournament.teams.count()
    )
    for name, refusal in refusals.items():
        outcome = _attempt(name, tournament, by)
        assert (refusal is None) == (outcome is None), (name, refusal, outcome)
        if (
            refusal is not None
            and outcome is not None
            and name not in ("delete_round", "close_round")
        ):
            assert refusal.code == outcome.code, name


@pytest.mark.parametrize("format", [Tournament.Format.ROUND_ROBIN, Tournament.Format.SWISS])
def test_every_refusal_agrees_with_its_service_along_a_tournament(club, director, format):
    swiss = format == Tournament.Format.SWISS
    tournament = make(club, director, format=format, **({"round_count": 2} if swiss else {}))
    _agree(tournament, director)
    if swiss:
        draw_next_round(tournament, by=director)
    else:
        generate_round_robin(tournament, by=director)
    _agree(tournament, director)
    tournament_status.publish_tournament(tournament, by=director)
    first = tournament.rounds.get(number=1)
    match = first.matches.filter(ew_team__isnull=False).first()
    play(first, director)
    close_match(match, by=director)
    _agree(tournament, director)
    for round_ in Round.objects.filter(tournament=tournament, number__gt=1):
        play(round_, director)
    if swiss:
        draw_next_round(tournament, by=director)
        play(tournament.rounds.get(number=2), director)
    _agree(tournament, director)
    start_final(tournament, size=2, third_place=False, by=director)
    final = draw_next_round(tournament, by=director)
    _agree(tournament, director)
    play(final, director)
    _agree(tournament, director)
    tournament_status.finish_tournament(tournament, by=director)
    _agree(tournament, director)
