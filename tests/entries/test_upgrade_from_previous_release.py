"""A database made by the previous release (registrations in tournaments/) migrated by this
one: every registration, check-in and payment is where it was, read through the new models
and the API (`tournaments_registration` stays the table: entries/ took the model, not the
rows).

Run alone: .venv/bin/python -m pytest tests/entries/test_upgrade_from_previous_release.py -q
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from club.models import Membership
from entries.models import Registration
from tests.api.conftest import client_for
from tests.factories import make_staff
from tournaments.models import Team, Tournament

# The latest migrations of the release before entries/ (main at d32a6de).
PREVIOUS_RELEASE = [
    ("tournaments", "0019_past_rounds_not_stored"),
    ("club", "0003_seasons_and_series"),
    ("pad", "0001_friendly_games"),
]
# The apps that release did not have: none of their migrations had run.
NEW_APPS = ("entries", "seasons", "live")


def migrate(targets):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def previous_release():  # type: ignore[no-untyped-def]
    """Migrate back to the previous release; its models as they were (the historical apps)."""
    executor = MigrationExecutor(connection)
    new = [(app, None) for app in NEW_APPS if app in executor.loader.migrated_apps]
    executor.migrate(PREVIOUS_RELEASE + new)
    executor.loader.build_graph()
    return executor.loader.project_state(PREVIOUS_RELEASE).apps


def latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_registrations_check_ins_and_payments_survive_the_move_to_entries():
    old = previous_release()
    club = old.get_model("club", "Club").objects.create(name="Lyon", slug="lyon", city="Lyon")
    Player = old.get_model("club", "Player")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        club=club,
        name="Thursday",
        slug="thursday",
        starts_on=datetime.date(2026, 11, 26),
        status="open",
        rules={},
        registration="open",
        capacity=2,
        check_in="on",
        entry_fee=Decimal("5.00"),
    )
    OldTeam = old.get_model("tournaments", "Team")
    present = OldTeam.objects.create(
        tournament=tournament,
        name="Dupont – Martin",
        seed=1,
        first_player=Player.objects.create(first_name="Marie", last_name="Dupont"),
        second_player=Player.objects.create(first_name="Luc", last_name="Martin"),
        attendance="present",
        checked_in_at=datetime.datetime(2026, 11, 26, 19, 40, tzinfo=datetime.UTC),
        paid="cash",
        fee_paid=Decimal("5.00"),
    )
    absent = OldTeam.objects.create(
        tournament=tournament,
        name="Petit – Roux",
        seed=2,
        first_player=Player.objects.create(first_name="Anne", last_name="Petit"),
        second_player=Player.objects.create(first_name="Paul", last_name="Roux"),
        attendance="absent",
    )
    OldRegistration = old.get_model("tournaments", "Registration")
    accepted = OldRegistration.objects.create(
        tournament=tournament,
        key="accepted-key",
        player="Marie Dupont",
        partner="Luc Martin",
        status="accepted",
        team=present,
    )
    registered = OldRegistration.objects.create(
        tournament=tournament,
        key="registered-key",
        player="Jean Blanc",
        partner_wanted=True,
        email="jean@example.org",
    )
    waiting = OldRegistration.objects.create(
        tournament=tournament,
        key="waiting-key",
        player="Eva Noir",
        partner="Max Gris",
        status="waiting",
        phone="+33 6 12 34 56 78",
    )

    latest()

    assert list(
        Registration.objects.order_by("pk").values_list(
            "pk", "key", "status", "player", "partner", "partner_wanted", "team_id"
        )
    ) == [
        (accepted.pk, "accepted-key", "accepted", "Marie Dupont", "Luc Martin", False, present.pk),
        (registered.pk, "registered-key", "registered", "Jean Blanc", "", True, None),
        (waiting.pk, "waiting-key", "waiting", "Eva Noir", "Max Gris", False, None),
    ]
    assert Registration.objects.get(pk=registered.pk).email == "jean@example.org"
    assert Registration.objects.get(pk=waiting.pk).phone == "+33 6 12 34 56 78"
    assert list(Team.objects.order_by("seed").values_list("attendance", "paid", "fee_paid")) == [
        ("present", "cash", Decimal("5.00")),
        ("absent", "", None),
    ]

    new_tournament = Tournament.objects.get(pk=tournament.pk)
    director = client_for(make_staff(new_tournament.club, Membership.Role.DIRECTOR, "dora"))
    base = f"/api/v1/tournaments/{tournament.pk}"
    listed = director.get(f"{base}/registrations/").json()
    assert [(r["id"], r["players"], r["status"], r["position"], r["team"]) for r in listed] == [
        (accepted.pk, ["Marie Dupont", "Luc Martin"], "accepted", None, present.pk),
        (registered.pk, ["Jean Blanc"], "registered", None, None),
        (waiting.pk, ["Eva Noir", "Max Gris"], "waiting", 1, None),
    ]
    check_ins = director.get(f"{base}/check-ins/").json()
    assert [(c["entry"], c["attendance"], c["paid"], c["fee_paid"]) for c in check_ins] == [
        (present.pk, "present", "cash", "5.00"),
        (absent.pk, "absent", None, None),
    ]
    assert check_ins[0]["checked_in_at"].startswith("2026-11-26T")
    cash = director.get(f"{base}/cash/").json()
    assert (cash["received"]["cash"], cash["counts"]["cash"], cash["total"]) == ("5.00", 1, "5.00")
    assert (cash["unpaid"], cash["unpaid_total"]) == ([], "0.00")
    # The entry's holder still reaches it with its private key.
    holder = client_for(None)
    answer = holder.get(f"/api/v1/registrations/{waiting.pk}/?key=waiting-key")
    assert (answer.status_code, answer.json()["position"]) == (200, 1)
