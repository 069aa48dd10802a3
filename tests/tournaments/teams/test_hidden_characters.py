"""One check for hidden characters in everything a person types that others read (issue 28
item 7): bidirectional overrides, control characters and zero-width characters are refused
in tournament and club names, dispute remarks, token names, team names and renames and the
reason for reopening results, with the field named in the error; nothing is stored."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from club.founding import create_club
from club.models import ApiToken, Club, Membership
from club.text import hidden_character_problem
from club.tokens import issue_own_token
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    make_staff,
)
from tournaments.errors import ServiceError
from tournaments.models import Match, MatchConfirmation, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import register_team
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.settings import SettingsRefused, create_tournament, update_tournament
from tournaments.services.teams import edit_team

pytestmark = pytest.mark.django_db

HIDDEN = {
    "right-to-left override": "\u202e",
    "first strong isolate": "\u2068",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "byte order mark": "\ufeff",
    "bell": "\x07",
    "escape": "\x1b",
    "line separator": "\u2028",
}


@pytest.mark.parametrize("char", HIDDEN.values(), ids=HIDDEN.keys())
def test_every_hidden_character_is_found_and_named_by_its_code(char):
    problem = hidden_character_problem(f"Les{char}Atouts", label="The team name")
    assert problem and problem.startswith("The team name") and f"U+{ord(char):04X}" in problem


def test_visible_text_of_any_alphabet_passes_and_free_text_keeps_its_lines():
    for text in ("Les Atouts", "Zoë & Chloé", "Ōtani – Müller", "فريق", "Команда 1", "🂡 club"):
        assert hidden_character_problem(text) is None
    assert hidden_character_problem("line one\nline two", multiline=True) is None
    assert hidden_character_problem("line one\nline two") is not None


@pytest.mark.parametrize("char", ["\u202e", "\x07", "\u200b"])
def test_a_tournament_name_is_refused_on_create_and_on_change(char):
    tournament = TournamentFactory(name="Winter Cup")
    with pytest.raises(SettingsRefused) as refused:
        update_tournament(tournament, by=SYSTEM, name=f"Winter{char}Cup")
    assert refused.value.field == "name"
    tournament.refresh_from_db()
    assert tournament.name == "Winter Cup"
    with pytest.raises(SettingsRefused) as refused:
        create_tournament(
            tournament.club, by=SYSTEM, name=f"Spring{char}Cup", starts_on=tournament.starts_on
        )
    assert "name" in refused.value.errors()
    assert Tournament.objects.count() == 1


def test_a_tournament_name_is_refused_through_the_api_naming_the_field():
    tournament = TournamentFactory()
    director = make_staff(tournament.club, Membership.Role.DIRECTOR, "dora")
    api = APIClient()
    api.force_authenticate(director)
    refused = api.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": "Cup\u202egnp.exe"}, format="json"
    )
    assert refused.status_code == 400 and "U+202E" in refused.json()["errors"]["name"][0]


@pytest.mark.parametrize("field", ["name", "city"])
def test_a_club_name_or_city_is_refused_naming_the_field(field):
    values = {"name": "Les Atouts", "city": "Lyon", field: "Les\u202eAtouts"}
    with pytest.raises(ServiceError) as refused:
        create_club(
            name=values["name"],
            city=values["city"],
            director_username="dora",
            director_name="Dora Lefevre",
            director_password="a long enough password 42",
            by=SYSTEM,
        )
    assert field in refused.value.errors()
    assert not Club.objects.exists()


def test_a_dispute_remark_is_refused_and_no_answer_stored():
    referee = UserFactory()
    match = MatchFactory(referee=referee, status=Match.Status.FINISHED)
    with pytest.raises(ServiceError) as refused:
        confirm_sheet(match, side="NS", agree=False, by=SYSTEM, remark="wrong\u202e score")
    assert refused.value.field == "remark"
    assert not MatchConfirmation.objects.exists()


def test_a_remark_over_two_lines_is_kept():
    match = MatchFactory(status=Match.Status.FINISHED)
    confirm_sheet(match, side="NS", agree=False, by=SYSTEM, remark="deal 3:\nbelote missed")
    assert MatchConfirmation.objects.get().remark == "deal 3:\nbelote missed"


def test_a_token_name_is_refused_naming_the_field():
    user = UserFactory()
    with pytest.raises(ServiceError) as refused:
        issue_own_token(by=user, name="laptop\u202e")
    assert refused.value.field == "name"
    assert not ApiToken.objects.exists()
    api = APIClient()
    api.force_authenticate(user)
    answered = api.post("/api/v1/me/tokens/", {"name": "phone\u200b"}, format="json")
    assert answered.status_code == 400 and "name" in answered.json()["errors"]


def test_a_team_rename_with_a_zero_width_character_is_refused_and_the_name_kept():
    tournament = TournamentFactory()
    first, second = PlayerFactory(), PlayerFactory()
    for player in (first, second):
        MembershipFactory(club=tournament.club, player=player)
    team = register_team(
        tournament, by=SYSTEM, name="Les Atouts", first_player=first, second_player=second
    )
    with pytest.raises(ServiceError) as refused:
        edit_team(team, by=SYSTEM, name="Les\u200bAtouts")
    assert refused.value.field == "name" and "U+200B" in refused.value.message
    team.refresh_from_db()
    assert team.name == "Les Atouts"
