"""The settings of the round-by-round formats: rounds, bye points, the concours's draw, the seed,
checked by the settings service whichever way they come in."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.services.draws import draw_next_round
from tournaments.services.finals import start_final
from tournaments.services.registration import register_teams
from tournaments.services.settings import SettingsRefused, create_tournament, update_tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2027, 3, 6)


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory()


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dir")


def refused(club, director, **values) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    with pytest.raises(SettingsRefused) as raised:
        create_tournament(club, by=director, name="Soirée", starts_on=DAY, **values)
    assert not Tournament.objects.exists()
    return raised.value.errors()


def test_a_swiss_needs_its_number_of_rounds(club, director):
    assert refused(club, director, format="swiss") == {
        "round_count": [
            "Say how many rounds a Swiss, a concours or an individual tournament plays."
        ]
    }
    assert refused(club, director, format="swiss", round_count=0) == {
        "round_count": ["A tournament plays from 1 to 30 rounds."]
    }
    assert refused(club, director, format="concours", round_count="four") == {
        "round_count": ["Expected a whole number."]
    }


def test_a_round_robin_has_no_number_of_rounds_nor_bye_points_nor_draw(club, director):
    errors = refused(club, director, round_count=5, bye_points=100, draw="random")
    assert list(errors) == ["round_count", "bye_points", "draw"]
    assert errors["draw"] == ["Only a concours is drawn at random or by ranking."]


@pytest.mark.parametrize(
    ("values", "errors"),
    [
        ({"bye_points": -1}, {"bye_points": ["A bye scores from 0 to 100000 points."]}),
        ({"bye_points": 1.5}, {"bye_points": ["Expected a whole number."]}),
        (
            {"draw": "alphabetical"},
            {"draw": ["“alphabetical” is not a choice: use random, ranking."]},
        ),
        (
            {"draw_seed": -5},
            {"draw_seed": ["A draw seed is a whole number from 0 to 9223372036854775807."]},
        ),
    ],
)
def test_bad_values_are_named_by_their_field(club, director, values, errors):
    assert refused(club, director, format="concours", round_count=4, **values) == errors


def test_a_concours_is_drawn_at_random_unless_told_and_ranks_by_points_scored(club, director):
    concours = create_tournament(
        club, by=director, name="Concours", starts_on=DAY, format="concours", round_count=4
    )
    assert concours.draw == "random"
    assert concours.tie_breaks == ["points_for", "wins", "point_difference"]
    swiss = create_tournament(
        club, by=director, name="Swiss", starts_on=DAY, format="swiss", round_count=5
    )
    assert (swiss.draw, swiss.tie_breaks) == (
        "",
        ["match_points", "buchholz", "point_difference", "points_for"],
    )
    # A list of its own is kept.
    chosen = create_tournament(
        club,
        by=director,
        name="Chosen",
        starts_on=DAY,
        format="swiss",
        round_count=5,
        tie_breaks=["match_points", "points_for"],
    )
    assert chosen.tie_breaks == ["match_points", "points_for"]


@pytest.mark.parametrize(
    ("rules", "bye_points"),
    [({}, 500), ({"target": 701}, 350), ({"target": None, "max_deals": 6}, 480)],
)
def test_a_bye_scores_half_the_target_or_80_a_deal_by_default(club, director, rules, bye_points):
    swiss = create_tournament(
        club, by=director, name="S", starts_on=DAY, format="swiss", round_count=3, rules=rules
    )
    assert swiss.bye_points is None and swiss.bye_points_in_use == bye_points
    update_tournament(swiss, by=director, bye_points=0)
    assert swiss.bye_points_in_use == 0


def test_changing_the_format_takes_along_what_only_the_old_one_had(club, director):
    tournament = create_tournament(
        club, by=director, name="S", starts_on=DAY, format="concours", round_count=4
    )
    update_tournament(tournament, by=director, format="swiss")
    tournament.refresh_from_db()
    assert (tournament.draw, tournament.round_count) == ("", 4)
    assert tournament.tie_breaks == ["match_points", "buchholz", "point_difference", "points_for"]
    update_tournament(tournament, by=director, format="round_robin")
    tournament.refresh_from_db()
    assert (tournament.round_count, tournament.bye_points) == (None, None)
    assert tournament.tie_breaks == [
        "match_points",
        "head_to_head",
        "point_difference",
        "points_for",
    ]


def test_drawn_rounds_fix_the_seed_and_bound_the_number_of_rounds(club, director):
    tournament = create_tournament(
        club, by=director, name="S", starts_on=DAY, format="swiss", round_count=3
    )
    register_teams(tournament, "A: a a & b b\nB: c c & d d", by=director)
    update_tournament(tournament, by=director, draw_seed=12)
    draw_next_round(tournament, by=director)
    with pytest.raises(SettingsRefused) as raised:
        update_tournament(tournament, by=director, draw_seed=13)
    assert raised.value.status == 409
    assert raised.value.errors() == {
        "draw_seed": ["Rounds have been drawn: the draw seed can no longer change."]
    }
    with pytest.raises(SettingsRefused):
        update_tournament(tournament, by=director, round_count=0)
    update_tournament(tournament, by=director, round_count=1)
    assert Tournament.objects.get().round_count == 1


def test_a_started_final_fixes_the_number_of_rounds(club, director):
    tournament = create_tournament(
        club,
        by=director,
        name="S",
        starts_on=DAY,
        format="swiss",
        round_count=1,
        rules={"target": None, "max_deals": 1},
    )
    register_teams(tournament, "A: a a & b b\nB: c c & d d", by=director)
    from tournaments.services.deals import enter_deal

    match = draw_next_round(tournament, by=director).matches.get()
    enter_deal(
        match, {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 100}}, by=director
    )
    start_final(tournament, size=2, third_place=False, by=director)
    with pytest.raises(SettingsRefused) as raised:
        update_tournament(tournament, by=director, round_count=2)
    assert raised.value.errors() == {
        "round_count": [
            "The knockout final has started: the number of rounds can no longer change."
        ]
    }


def form_data(**values: str) -> dict[str, Any]:
    """What the new-tournament form posts: its initial values, the house rules' defaults."""
    form = TournamentForm(club=None)
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        if isinstance(field.initial, list):
            data[name] = field.initial
        elif not isinstance(field.initial, bool):
            data[name] = "" if field.initial is None else str(field.initial)
    data.update(name="Soirée", starts_on="2027-03-06", rule_declarations="on")
    data.update(values)
    return data


def test_the_form_leaves_out_what_the_chosen_format_has_no_use_for(club, director):
    data = form_data(format="swiss", round_count="5", bye_points="", draw="ranking")
    form = TournamentForm(data, club=club)
    assert form.is_valid(), form.errors
    assert {"round_count": 5, "bye_points": None}.items() <= form.settings().items()
    assert "draw" not in form.settings()
    swiss = form.save(by=director)
    assert (swiss.format, swiss.round_count, swiss.draw) == ("swiss", 5, "")


def test_the_form_shows_a_refusal_beside_the_number_of_rounds(club, director):
    form = TournamentForm(form_data(format="concours", round_count=""), club=club)
    assert form.is_valid(), form.errors
    with pytest.raises(SettingsRefused) as raised:
        form.save(by=director)
    form.show(raised.value)
    assert form.errors == {
        "round_count": [
            "Say how many rounds a Swiss, a concours or an individual tournament plays."
        ]
    }


def test_the_format_reads_in_words(club, director):
    make = create_tournament
    swiss = make(club, by=director, name="A", starts_on=DAY, format="swiss", round_count=5)
    concours = make(
        club,
        by=director,
        name="B",
        starts_on=DAY,
        format="concours",
        round_count=1,
        draw="ranking",
    )
    robin = make(club, by=director, name="C", starts_on=DAY, format="double_round_robin")
    assert swiss.format_in_words == "Swiss, 5 rounds"
    assert concours.format_in_words == "Concours, 1 party, drawn by ranking"
    assert robin.format_in_words == "Double round robin"
