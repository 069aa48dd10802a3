"""factory_boy factories shared by the tests; each builds only what it is asked for."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from club.models import Club, Membership, Player
from tournaments.models import Match, Round, Team, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("belote-pass")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Lyon"


# Club surnames, not Faker's: a random English surname ("West", "Best", "Price") can be a word
# of the game or of the pages, and the untranslated-text checks would then fail by chance.
SURNAMES = [
    "Martin",
    "Bernard",
    "Dubois",
    "Robert",
    "Richard",
    "Petit",
    "Durand",
    "Leroy",
    "Moreau",
    "Laurent",
    "Lefebvre",
    "Michel",
    "Garcia",
    "Bertrand",
    "Roux",
    "Vincent",
    "Fournier",
    "Morel",
    "Girard",
    "Mercier",
    "Dupont",
    "Lambert",
    "Bonnet",
    "Fontaine",
    "Rousseau",
    "Blanc",
    "Guerin",
    "Muller",
    "Henry",
    "Chevalier",
    "Janssens",
    "Peeters",
    "Maes",
    "Jacobs",
    "Mertens",
    "Willems",
    "Claes",
    "Goossens",
    "Wouters",
    "Dekker",
    "Jansen",
    "Visser",
    "Smit",
    "Meijer",
    "Mulder",
    "Bos",
    "Vos",
    "Peters",
    "Hendriks",
    "Dijkstra",
    "Kok",
    "Brouwer",
    "Koster",
    "Prins",
    "Huisman",
    "Kuipers",
    "Veenstra",
    "Korhonen",
    "Virtanen",
    "Nieminen",
    "Laine",
    "Heikkinen",
    "Koskinen",
    "Lehtonen",
]


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Player{n}")
    last_name = factory.Sequence(lambda n: SURNAMES[n % len(SURNAMES)])


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Membership.Role.MEMBER


def make_staff(club: Club, role: str, username: str | None = None):  # type: ignore[no-untyped-def]
    """A user with a player and a membership of `role` in `club`; returns the user."""
    user = UserFactory(**({"username": username} if username else {}))
    player = PlayerFactory(user=user, first_name=user.username.title())
    MembershipFactory(club=club, player=player, role=role)
    return user


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    starts_on = datetime.date(2026, 11, 28)
    status = Tournament.Status.RUNNING
    rules = factory.LazyFunction(dict)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    first_player = factory.SubFactory(PlayerFactory)
    second_player = factory.SubFactory(PlayerFactory)
    seed = factory.Sequence(lambda n: n + 1)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class MatchFactory(factory.django.DjangoModelFactory):
    """A match at table 1 of a new round between two new teams of the round's tournament."""

    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    tournament = factory.SelfAttribute("round.tournament")
    table = factory.Sequence(lambda n: n + 1)
    ns_team = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..tournament"))
    ew_team = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..tournament"))


def seat_teams(tournament: Tournament, teams, number: int = 1) -> None:  # type: ignore[no-untyped-def]
    """Draw `teams` into round `number` of `tournament`, two a table (the last one alone has
    a bye): the teams sat at a table that evening, as a series reads who played."""
    played = RoundFactory(tournament=tournament, number=number)
    for table, start in enumerate(range(0, len(teams), 2), 1):
        pair = teams[start : start + 2]
        MatchFactory(
            round=played,
            table=table,
            ns_team=pair[0],
            ew_team=pair[1] if len(pair) > 1 else None,
        )
