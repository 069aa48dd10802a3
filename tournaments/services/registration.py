"""Registering players in a club and teams in a tournament, one by one or from pasted lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player

from ..models import Team, Tournament
from .changes import record_change, recording_changes
from .errors import ServiceError

NAME_PART_MAX = 80
TEAM_NAME_MAX = 120
# Letters of any alphabet, spaces, apostrophes, hyphens and dots: "Jean-Luc d'Arcy Jr."
_NAME = re.compile(r"^[^\W\d_]+(?:[ '’.-]+[^\W\d_]+)*\.?$")
# "A & B", "A / B", "A + B" all mean a partnership.
_PARTNERS = re.compile(r"\s*[&/+]\s*")


@dataclass(frozen=True, slots=True)
class LineProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return _("line %(line)d: %(message)s") % {"line": self.line, "message": self.message}


class RegistrationRefused(ServiceError):
    """Pasted lines with mistakes; nothing was registered. `problems` name each line."""

    code = "invalid_lines"

    def __init__(self, problems: list[LineProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(map(str, self.problems)), field="text")


def split_name(text: str) -> tuple[str, str]:
    """ "Marie de la Fontaine" → ("Marie", "de la Fontaine"); "Fontaine, Marie" too."""
    text = " ".join(text.split())
    if "," in text:
        last, _sep, first = text.partition(",")
        return first.strip(), last.strip()
    first, _sep, last = text.partition(" ")
    return first, last


def name_problem(text: str) -> str | None:
    """Why `text` is not a person's name, or None."""
    first, last = split_name(text)
    if not first:
        return _("a name is missing")
    for part in (first, last):
        if len(part) > NAME_PART_MAX:
            return _("“%(name)s” is too long") % {"name": part[:20] + "…"}
    if not all(_NAME.match(word) for word in (first, last) if word):
        return _("“%(name)s” is not a name (letters, spaces, hyphens and apostrophes only)") % {
            "name": text
        }
    return None


def members_named(club: Club, text: str) -> list[Player]:
    """The club's players of that name, ignoring case and spacing (at most two: enough to tell)."""
    first, last = split_name(text)
    return list(
        Player.objects.filter(
            memberships__club=club, first_name__iexact=first, last_name__iexact=last
        )[:2]
    )


def find_member(club: Club, text: str) -> Player | None:
    """The club's player of that name; None if there is none or more than one."""
    found = members_named(club, text)
    return found[0] if len(found) == 1 else None


def ambiguity(club: Club, text: str) -> str | None:
    if len(members_named(club, text)) > 1:
        return _("the club has several members called %(name)s; register that team alone") % {
            "name": text
        }
    return None


def find_or_create_member(club: Club, text: str) -> Player:
    player = find_member(club, text)
    if player is None:
        first, last = split_name(text)
        player = Player.objects.create(first_name=first, last_name=last)
        Membership.objects.create(club=club, player=player, role=Membership.Role.MEMBER)
    return player


def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered non-blank lines; a line starting with # is a comment."""
    return [
        (number, line.strip())
        for number, line in enumerate((text or "").splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#")
    ]


@recording_changes()
def register_players(club: Club, text: str) -> list[Player]:
    """One name per line; existing members are found, the others created as members.

    All or nothing: if a line is not a name, nothing is registered and every bad line is
    reported with its number.
    """
    lines = _lines(text)
    problems = [
        LineProblem(n, p) for n, line in lines if (p := name_problem(line) or ambiguity(club, line))
    ]
    if not lines and not problems:
        raise ServiceError(_("Enter one name per line."), field="text")
    if problems:
        raise RegistrationRefused(problems)
    with transaction.atomic():
        players: list[Player] = []
        for _n, line in lines:
            player = find_or_create_member(club, line)
            if player not in players:
                players.append(player)
    return players


@dataclass(frozen=True, slots=True)
class _TeamLine:
    line: int
    name: str
    first: str
    second: str


def _read_team_line(number: int, line: str) -> _TeamLine | LineProblem:
    name, colon, partners = line.partition(":")
    if not colon:
        name, partners = "", line
    names = [part for part in _PARTNERS.split(partners.strip()) if part]
    if len(names) != 2 or len(_PARTNERS.findall(partners.strip())) != 1:
        return LineProblem(
            number, _("write “Team name: First Player & Second Player” (two players joined by &)")
        )
    for player in names:
        if problem := name_problem(player):
            return LineProblem(number, problem)
    first, second = (" ".join(n.split()) for n in names)
    if first.casefold() == second.casefold():
        return LineProblem(number, _("a team needs two different players"))
    name = " ".join(name.split()) or default_team_name(first, second)
    if len(name) > TEAM_NAME_MAX:
        return LineProblem(number, _("the team name is too long"))
    return _TeamLine(number, name, first, second)


def default_team_name(first: str, second: str) -> str:
    """ "Marie Dupont" & "Luc Martin" → "Dupont – Martin"; first names when there is no other."""
    a, b = (split_name(n)[1] or split_name(n)[0] for n in (first, second))
    return f"{a} – {b}"


@recording_changes()
def register_teams(tournament: Tournament, text: str) -> list[Team]:
    """One team per line, "Team name: First Player & Second Player" or "First & Second".

    Players are found among the club's members or created. All or nothing; every bad line
    (unreadable, a player twice, a team name already taken) is reported with its number.
    """
    read = [_read_team_line(n, line) for n, line in _lines(text)]
    if not read:
        raise ServiceError(_("Enter one team per line."), field="text")
    problems = [r for r in read if isinstance(r, LineProblem)]
    entries = [r for r in read if isinstance(r, _TeamLine)]
    with transaction.atomic():
        taken_names = {n.casefold() for n in tournament.teams.values_list("name", flat=True)}
        playing = _players_in(tournament)
        seen_players: dict[str, int] = {}
        for entry in entries:
            if entry.name.casefold() in taken_names:
                problems.append(
                    LineProblem(
                        entry.line,
                        _("the team name “%(name)s” is already taken") % {"name": entry.name},
                    )
                )
            taken_names.add(entry.name.casefold())
            for person in (entry.first, entry.second):
                key = " ".join(split_name(person)).casefold()
                member = find_member(tournament.club, person)
                if problem := ambiguity(tournament.club, person):
                    problems.append(LineProblem(entry.line, problem))
                elif member is not None and member.pk in playing:
                    problems.append(
                        LineProblem(
                            entry.line, _("%(player)s already plays in a team") % {"player": person}
                        )
                    )
                elif key in seen_players:
                    problems.append(
                        LineProblem(
                            entry.line,
                            _("%(player)s is already in the team of line %(other)d")
                            % {"player": person, "other": seen_players[key]},
                        )
                    )
                seen_players.setdefault(key, entry.line)
        if problems:
            raise RegistrationRefused(sorted(problems, key=lambda p: p.line))
        seed = _next_seed(tournament)
        teams = []
        for offset, entry in enumerate(entries):
            teams.append(
                Team.objects.create(
                    tournament=tournament,
                    name=entry.name,
                    first_player=find_or_create_member(tournament.club, entry.first),
                    second_player=find_or_create_member(tournament.club, entry.second),
                    seed=seed + offset,
                )
            )
        record_change(tournament.pk)
    return teams


def _players_in(tournament: Tournament, *, exclude_team: Team | None = None) -> set[int]:
    teams = tournament.teams.filter(withdrawn=False)
    if exclude_team is not None:
        teams = teams.exclude(pk=exclude_team.pk)
    ids: set[int] = set()
    for first, second in teams.values_list("first_player_id", "second_player_id"):
        ids.update((first, second))
    return ids


def _next_seed(tournament: Tournament) -> int:
    return (tournament.teams.aggregate(top=Max("seed"))["top"] or 0) + 1


@recording_changes()
def register_team(
    tournament: Tournament,
    *,
    name: str,
    first_player: Player,
    second_player: Player,
    seed: int | None = None,
) -> Team:
    """One team of two players of the club; the next free seed unless one is given."""
    name = " ".join((name or "").split()) or default_team_name(
        first_player.full_name, second_player.full_name
    )
    if len(name) > TEAM_NAME_MAX:
        raise ServiceError(_("The team name is too long."), field="name")
    if first_player.pk == second_player.pk:
        raise ServiceError(_("A team needs two different players."), field="second_player")
    club_members = set(
        Membership.objects.filter(
            club_id=tournament.club_id, player__in=[first_player, second_player]
        ).values_list("player_id", flat=True)
    )
    for field, player in (("first_player", first_player), ("second_player", second_player)):
        if player.pk not in club_members:
            raise ServiceError(
                _("%(player)s is not a member of %(club)s.")
                % {"player": player, "club": tournament.club},
                field=field,
            )
    if seed is not None and (not isinstance(seed, int) or seed < 1):
        raise ServiceError(_("The seed must be a whole number from 1."), field="seed")
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        playing = _players_in(tournament)
        for field, player in (("first_player", first_player), ("second_player", second_player)):
            if player.pk in playing:
                raise ServiceError(
                    _("%(player)s already plays in a team of this tournament.")
                    % {"player": player},
                    field=field,
                )
        if tournament.teams.filter(name__iexact=name).exists():
            raise ServiceError(_("A team of that name is already registered."), field="name")
        if seed is None:
            seed = _next_seed(tournament)
        elif tournament.teams.filter(seed=seed).exists():
            raise ServiceError(_("Another team has seed %(seed)d.") % {"seed": seed}, field="seed")
        team = Team.objects.create(
            tournament=tournament,
            name=name,
            first_player=first_player,
            second_player=second_player,
            seed=seed,
        )
        record_change(tournament.pk)
    return team


__all__ = [
    "LineProblem",
    "RegistrationRefused",
    "register_players",
    "register_team",
    "register_teams",
]
