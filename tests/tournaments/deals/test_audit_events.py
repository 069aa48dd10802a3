"""Audit events: one writer (`MatchEvent.record`), one code per action, a label in every language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from club.models import Membership
from tests.factories import TeamFactory, TournamentFactory, make_staff
from tournaments.models import Match, MatchEvent
from tournaments.permissions import SYSTEM
from tournaments.services import assign_referee, generate_round_robin
from tournaments.services.table_referees import assign_table_referee

ROOT = Path(__file__).resolve().parents[3]


def test_only_match_event_record_creates_an_event():
    """No module of the apps writes an event but through `MatchEvent.record`."""
    writers = []
    for path in sorted(ROOT.glob("tournaments/**/*.py")) + sorted(ROOT.glob("club/**/*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("create", "bulk_create", "get_or_create")
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "objects"
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "MatchEvent"
            ):
                writers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert writers == []  # MatchEvent.record itself writes with `cls.objects.create`


def test_an_event_is_one_of_the_actions():
    with pytest.raises(TypeError):
        MatchEvent.record(tournament=1, action="referee", by=SYSTEM)  # type: ignore[arg-type]


def test_every_action_has_a_translated_label():
    english = {action: str(action.label) for action in MatchEvent.Action}
    for lang in ("nl", "fr", "fi"):
        with translation.override(lang):
            same = [a.value for a in MatchEvent.Action if str(a.label) == english[a]]
        assert same == [], lang


@pytest.mark.django_db
def test_a_match_referee_and_a_table_referee_are_two_actions():
    tournament = TournamentFactory()
    for seed in range(1, 5):
        TeamFactory(tournament=tournament, seed=seed, name=f"Team {seed}")
    director = make_staff(tournament.club, Membership.Role.DIRECTOR)
    referee = make_staff(tournament.club, Membership.Role.REFEREE)
    generate_round_robin(tournament, by=SYSTEM)
    match = Match.objects.filter(tournament=tournament, table=1).first()
    assign_referee(match, referee, by=director)
    assign_table_referee(tournament, 2, referee, by=director)
    events = list(
        MatchEvent.objects.filter(tournament=tournament)
        .filter(action__in=[MatchEvent.Action.REFEREE, MatchEvent.Action.TABLE_REFEREE])
        .order_by("pk")
        .values_list("action", "match_id", "by")
    )
    assert events == [
        (MatchEvent.Action.REFEREE, match.pk, director.pk),
        (MatchEvent.Action.TABLE_REFEREE, None, director.pk),
    ]
    with translation.override("fr"):
        labels = [e.get_action_display() for e in MatchEvent.objects.filter(by=director)]
    assert labels == ["arbitre changé", "arbitre de la table changé"]
