"""`manage.py load_demo`: a demo club with staff, a tournament of 8 teams and three rounds played.

Deterministic (the deals come from `random.Random(seed)`) and idempotent: the club's slug
is the key, so a second run changes nothing. Every row is made through the services, so
the demo also exercises them: registration, schedule, referees, the engine's scoring.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club.models import Club, Membership, Player
from tournaments.demo import plausible_deal
from tournaments.models import Match, Side, Tournament
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import enter_deal
from tournaments.services.director import assign_referee, close_round, set_status
from tournaments.services.registration import register_teams
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import create_tournament

CLUB = {"name": "Club de Belote de Lyon", "slug": "belote-lyon", "city": "Lyon"}
DIRECTOR = ("director", "belote-director", "Hélène", "Marchand")
REFEREES = [
    ("referee1", "belote-referee", "Bernard", "Lefèvre"),
    ("referee2", "belote-referee", "Annelies", "Verhoeven"),
]
TEAMS = """
Les As de Fourvière: Marie Dupont & Jean-Luc Moreau
Les Rois de la Croix-Rousse: Sophie Bernard & Pieter de Vries
La Belote Gagnante: Camille Rousseau & Thomas Girard
Les Capots: Élodie Fontaine & Maarten Jansen
Atout Cœur: Nathalie Lambert & Julien Faure
Les Dix de Der: Isabelle Mercier & Sander Bakker
Les Valets de Trèfle: Claire Chevalier & Antoine Blanc
Les Neuf d'Atout: Anouk Visser & François Dubois
"""
EXTRA_MEMBERS = [("Lotte", "van Dijk"), ("Yves", "Perrin")]
TOURNAMENT = {
    "name": "Tournoi d'automne 2026",
    "slug": "tournoi-automne-2026",
    "starts_on": datetime.date(2026, 11, 28),
}
ROUNDS_PLAYED = 3
ROUNDS_CLOSED = 2
DEALS_AT_MOST = 60  # a safety net: with the default target of 1000 a match takes ~12 deals


class Command(BaseCommand):
    help = "Create the demo club, its staff and a tournament with three rounds played (once)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="seed of the demo's deals")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        if Club.objects.filter(slug=CLUB["slug"]).exists():
            self.stdout.write(f"The demo club “{CLUB['name']}” is already there; nothing to do.")
            return
        tournament = load_demo(random.Random(seed))
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {tournament.club} with “{tournament}”: {tournament.teams.count()} teams, "
                f"{tournament.rounds.count()} rounds, {ROUNDS_PLAYED} played. "
                f"Sign in as {DIRECTOR[0]} / {DIRECTOR[1]} or "
                f"{REFEREES[0][0]}, {REFEREES[1][0]} / {REFEREES[0][1]}."
            )
        )


def staff_member(club: Club, username: str, password: str, first: str, last: str, role: str) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username, defaults={"first_name": first, "last_name": last}
    )
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    player = Player.objects.filter(user=user).first() or Player.objects.create(
        first_name=first, last_name=last, user=user
    )
    Membership.objects.update_or_create(club=club, player=player, defaults={"role": role})
    return user


@transaction.atomic
def load_demo(rng: random.Random) -> Tournament:
    """Build the whole demo in one transaction, so a failure leaves nothing half made."""
    club = Club.objects.create(**CLUB)
    director = staff_member(club, *DIRECTOR, role=Membership.Role.DIRECTOR)
    referees = [staff_member(club, *r, role=Membership.Role.REFEREE) for r in REFEREES]
    for first, last in EXTRA_MEMBERS:
        Membership.objects.create(
            club=club, player=Player.objects.create(first_name=first, last_name=last)
        )
    tournament = create_tournament(club, by=director, **TOURNAMENT)
    set_status(tournament, Tournament.Status.OPEN, by=director)
    register_teams(tournament, TEAMS, by=director)
    rounds = generate_round_robin(tournament, by=director)
    set_status(tournament, Tournament.Status.RUNNING, by=director)
    for round in rounds:
        for match in round.matches.filter(ew_team__isnull=False).order_by("table"):
            referee = referees[((match.table or 1) - 1) % len(referees)]
            assign_referee(match, referee, by=director)
    for round in rounds[:ROUNDS_PLAYED]:
        for match in round.matches.filter(ew_team__isnull=False).order_by("table"):
            play_out(match, rng)
            # The teams confirm on the referee's phone; in the round still open, table 1's
            # EW players have not answered yet (the director's page shows it).
            waiting = round.number > ROUNDS_CLOSED and match.table == 1
            for side in [Side.NS] if waiting else list(Side):
                confirm_sheet(match, side=side, agree=True, by=match.referee)
        if round.number <= ROUNDS_CLOSED:
            close_round(round, by=director)
    return tournament


def play_out(match: Match, rng: random.Random) -> None:
    """Enter deals at the match's table, as its referee, until the engine says it is over."""
    for _ in range(DEALS_AT_MOST):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        enter_deal(match, plausible_deal(rng), by=match.referee)
    raise RuntimeError(f"match {match} did not end within {DEALS_AT_MOST} deals")
