"""`manage.py load_demo`: a demo club with staff, a round robin of 8 teams with three rounds
played, a Swiss evening, a concours and an individual evening (mêlée) under way, and a
season whose Thursday mêlée series counts two earlier mêlées and the one under way.

Deterministic (the deals come from `random.Random(seed)`, the draws from fixed seeds) and
idempotent: the club's slug and each tournament's are the keys, so a second run changes
nothing (and a demo club made before the evenings existed gets them). Every
row is made through the services, so the demo also exercises them: registration, schedule,
draws, referees, the engine's scoring. It lives in seasons/, the app on top of the
evening's: tournaments/ never imports a season.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club.models import Club, Membership, Player
from scoring.demo import plausible_deal
from seasons.services import save_season, save_series
from tournaments.models import Match, Side, Tournament
from tournaments.services.confirmations import confirm_sheet
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round
from tournaments.services.entrants import register_entrants
from tournaments.services.registration import register_teams
from tournaments.services.round_closing import close_round
from tournaments.services.schedule import generate_round_robin
from tournaments.services.settings import create_tournament
from tournaments.services.status import set_status
from tournaments.services.table_referees import assign_referee

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

# The round-by-round evenings: (settings, teams, rounds played, tables of the next round played).
SWISS = {
    "name": "Soirée suisse de décembre",
    "slug": "soiree-suisse-decembre",
    "starts_on": datetime.date(2026, 12, 11),
    "format": Tournament.Format.SWISS,
    "round_count": 5,
    "rules": {"target": 501},
    "draw_seed": 1211,
}
SWISS_TEAMS = """
Les Belotiers: Gérard Roussel & Femke de Jong
Carré de Valets: Sylvie Garnier & Ruud Meijer
Les Tierces: Olivier Lemoine & Inge Mulder
Rebelote: Martine Gauthier & Joost de Boer
Les Quintes: Patrick Renard & Sanne Dekker
Dix de Der: Christine Caron & Wouter Vos
Les Atouts Maîtres: Laurent Picard & Eva Peters
La Der des Ders: Monique Roy & Bas Hendriks
Capot Royal: Didier Barbier & Lisa Koster
Les Cœurs Vaillants: Brigitte Arnaud & Tim Willems
"""
CONCOURS = {
    "name": "Concours de la Saint-Sylvestre",
    "slug": "concours-saint-sylvestre",
    "starts_on": datetime.date(2026, 12, 31),
    "format": Tournament.Format.CONCOURS,
    "round_count": 4,
    "draw": Tournament.Draw.RANDOM,
    "rules": {"target": None, "max_deals": 6},
    "draw_seed": 1231,
}
CONCOURS_TEAMS = """
Les Piques: Jacques Mallet & Noor Smits
Les Trèfles: Odile Benoît & Daan Bosman
Les Carreaux: Henri Collet & Fleur Kuiper
Les Cœurs: Paulette Masson & Jesse Prins
Belote et Re: Raymond Fabre & Lieke Post
Les Dames de Pique: Josiane Leroy & Niels Dijkstra
Le Roi d'Atout: Serge Marty & Mirjam Huisman
Les As Volants: Danielle Perret & Koen Maas
Tout Atout: Michel Hubert & Roos Verbeek
Sans Atout: Evelyne Royer & Lars Brouwer
Les Valets Rusés: André Lacroix & Tessa Scholten
"""
# An individual evening: thirteen players, three tables a round and one sitting out.
MELEE = {
    "name": "Mêlée du jeudi",
    "slug": "melee-du-jeudi",
    "starts_on": datetime.date(2027, 1, 14),
    "format": Tournament.Format.INDIVIDUAL,
    "round_count": 4,
    "rules": {"target": None, "max_deals": 4},
    "draw_seed": 114,
}
MELEE_PLAYERS = """
Gisèle Bonnet
Hendrik Smit
Yvette Dumas
Bram Visscher
Albert Lemaire
Merel de Graaf
Suzanne Vidal
Jeroen Kok
Ginette Rolland
Stijn Peeters
Marcel Chauvin
Ilse Hoekstra
Roger Poulain
"""
EVENINGS = [
    (SWISS, SWISS_TEAMS, 2, 3),
    (CONCOURS, CONCOURS_TEAMS, 2, 2),
    (MELEE, MELEE_PLAYERS, 1, 1),
]
# The season and its running series: the Thursday mêlées (the two before MELEE are short,
# two rounds of two deals, so the demo stays quick), ranked by place (docs/seasons.md).
SEASON: dict[str, Any] = {
    "name": "2026–27",
    "starts_on": datetime.date(2026, 9, 1),
    "ends_on": datetime.date(2027, 6, 30),
}
EARLIER_MELEES: list[dict[str, Any]] = [
    {**MELEE, "name": f"Mêlée du jeudi {day}", "slug": slug, "starts_on": date, "round_count": 2}
    | {"rules": {"target": None, "max_deals": 2}, "draw_seed": seed}
    for day, slug, date, seed in (
        ("17 décembre", "melee-jeudi-17-decembre", datetime.date(2026, 12, 17), 1217),
        ("7 janvier", "melee-jeudi-7-janvier", datetime.date(2027, 1, 7), 107),
    )
]
SERIES: dict[str, Any] = {
    "name": "Mêlée du jeudi",
    "rules": {
        "points": "place",
        "place_points": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
        "participation_points": 1,
        "best_of": 2,
        "min_evenings": 2,
        "handicap": "rating",
    },
}


class Command(BaseCommand):
    help = "Create the demo club, its staff and a tournament with three rounds played (once)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="seed of the demo's deals")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        club = Club.objects.filter(slug=CLUB["slug"]).first()
        if club is not None:
            added = add_evenings(club, seed)
            added += add_season(club, seed)
            if added:
                names = ", ".join(f"“{t}”" for t in added)
                self.stdout.write(self.style.SUCCESS(f"Added {names} to {club}."))
            else:
                self.stdout.write(
                    f"The demo club “{CLUB['name']}” is already there; nothing to do."
                )
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
    add_evenings(club, rng.randrange(1 << 30))
    add_season(club, rng.randrange(1 << 30))
    return tournament


@transaction.atomic
def add_season(club: Club, seed: int) -> list[Tournament]:
    """The season, its two earlier mêlées (finished) and the Thursday series counting them
    and the mêlée under way, if the club does not have the season yet."""
    if club.seasons.filter(name=SEASON["name"]).exists():  # type: ignore[attr-defined]
        return []
    director = get_user_model().objects.get(username=DIRECTOR[0])
    season = save_season(club=club, by=director, **SEASON)
    earlier = []
    for number, settings in enumerate(EARLIER_MELEES):
        rng = random.Random(seed + number)
        evening = create_tournament(club, by=director, **settings)
        register_entrants(evening, MELEE_PLAYERS, by=director)
        set_status(evening, Tournament.Status.RUNNING, by=director)
        for _round in range(settings["round_count"]):
            drawn = draw_next_round(evening, by=director)
            for match in drawn.matches.filter(ew_team__isnull=False).order_by("table"):
                assign_referee(match, director, by=director)
                play_out(match, rng)
                confirm_both(match)
        set_status(evening, Tournament.Status.FINISHED, by=director)
        earlier.append(evening)
    melees = [*earlier, *club.tournaments.filter(slug=MELEE["slug"])]  # type: ignore[attr-defined]
    save_series(season=season, tournaments=melees, by=director, **SERIES)
    return earlier


@transaction.atomic
def add_evenings(club: Club, seed: int) -> list[Tournament]:
    """The Swiss evening, the concours and the mêlée the club does not have yet, each under way.

    Round 1's tables get a referee each; later rounds keep them table by table (the draw
    does that). The rounds before the last drawn are played out; in the last, the first
    tables are over, the next one is playing, the others wait.
    """
    users = get_user_model().objects
    director = users.get(username=DIRECTOR[0])
    staff = [*(users.get(username=r[0]) for r in REFEREES), director]
    added = []
    for number, (settings, teams, played, next_played) in enumerate(EVENINGS):
        if club.tournaments.filter(slug=settings["slug"]).exists():  # type: ignore[attr-defined]
            continue
        rng = random.Random(seed + number)
        evening = create_tournament(club, by=director, **settings)
        if evening.is_individual:
            register_entrants(evening, teams, by=director)
        else:
            register_teams(evening, teams, by=director)
        set_status(evening, Tournament.Status.RUNNING, by=director)
        for round_number in range(1, played + 2):
            drawn = draw_next_round(evening, by=director)
            tables = list(drawn.matches.filter(ew_team__isnull=False).order_by("table"))
            if round_number == 1:
                for match in tables:
                    referee = staff[((match.table or 1) - 1) % len(staff)]
                    assign_referee(match, referee, by=director)
            if round_number <= played:
                for match in tables:
                    play_out(match, rng)
                    confirm_both(match)
                continue
            for match in tables[:next_played]:
                play_out(match, rng)
                confirm_both(match)
            for match in tables[next_played : next_played + 1]:
                for _deal in range(2):
                    enter_deal(match, plausible_deal(rng), by=match.referee)
        added.append(evening)
    return added


def confirm_both(match: Match) -> None:
    """Both teams confirm the finished sheet on the referee's phone, as at a real table."""
    for side in Side:
        confirm_sheet(match, side=side, agree=True, by=match.referee)


def play_out(match: Match, rng: random.Random) -> None:
    """Enter deals at the match's table, as its referee, until the engine says it is over."""
    for _ in range(DEALS_AT_MOST):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        enter_deal(match, plausible_deal(rng), by=match.referee)
    raise RuntimeError(f"match {match} did not end within {DEALS_AT_MOST} deals")
