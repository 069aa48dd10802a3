"""Registering teams in a tournament, one by one or from pasted lines (players are the club's)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from club.models import Membership, Player
from club.registration import (
    CREATE,
    LineProblem,
    NewMembersToConfirm,
    RegistrationRefused,
    Roster,
    name_problem,
    pasted_lines,
    plan_names,
    split_name,
)
from club.text import hidden_character_problem, require_visible_text

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Team, Tournament
from ..permissions import require_director

TEAM_NAME_MAX = 120
# "A & B", "A / B", "A + B" all mean a partnership.
_PARTNERS = re.compile(r"\s*[&/+]\s*")


@dataclass(frozen=True, slots=True)
class TeamLine:
    """One team to register: its two players' names and its name ("" for the default,
    "Last – Last"); `line` numbers it in what the director pasted (problems name it)."""

    first: str
    second: str
    name: str = ""
    line: int = 1


def _check_team_line(entry: TeamLine) -> TeamLine | LineProblem:
    """The team with its names tidied and its name given, or what is wrong with it."""
    number = entry.line
    for player in (entry.first, entry.second):
        if problem := name_problem(player):
            return LineProblem(number, problem)
    first, second = (" ".join(n.split()) for n in (entry.first, entry.second))
    if first.casefold() == second.casefold():
        return LineProblem(number, _("a team needs two different players"))
    # No name given: `_register` makes one from the players', unique in the tournament.
    name = " ".join(entry.name.split())
    if len(name) > TEAM_NAME_MAX:
        return LineProblem(number, _("the team name is too long"))
    if name and (problem := hidden_character_problem(name, label=_("The team name"))):
        return LineProblem(number, problem)
    return TeamLine(first, second, name, number)


def _read_team_line(number: int, line: str) -> TeamLine | LineProblem:
    name, colon, partners = line.partition(":")
    if not colon:
        name, partners = "", line
    names = [part for part in _PARTNERS.split(partners.strip()) if part]
    if len(names) != 2 or len(_PARTNERS.findall(partners.strip())) != 1:
        return LineProblem(
            number, _("write “Team name: First Player & Second Player” (two players joined by &)")
        )
    return _check_team_line(TeamLine(names[0], names[1], name, number))


def check_team_name(name: str) -> None:
    """A team name typed in one by one (a new team, a rename): the checks of a pasted line."""
    if len(name) > TEAM_NAME_MAX:
        raise ServiceError(_("The team name is too long."), field="name")
    require_visible_text(name, field="name", label=_("The team name"))


def require_teams(tournament: Tournament) -> None:
    """An individual tournament registers players alone (services.entrants), never teams."""
    if tournament.is_individual:
        raise Conflict(
            _("An individual tournament registers players alone, not teams."), field="format"
        )


def require_registered(team: Team) -> None:
    """A mêlée's partnership is drawn with its round and goes with it: it is not edited,
    deleted or withdrawn like a registered team (its players are)."""
    if team.is_partnership:
        raise Conflict(
            _(
                "%(team)s is a partnership drawn for one round of an individual tournament: delete the round or withdraw its players instead."
            )
            % {"team": team},
            field="team",
        )


def default_team_name(first: str, second: str) -> str:
    """ "Marie Dupont" & "Luc Martin" → "Dupont – Martin"; first names when there is no other."""
    a, b = (split_name(n)[1] or split_name(n)[0] for n in (first, second))
    return f"{a} – {b}"


def unique_team_name(first: str, second: str, taken: set[str]) -> str:
    """The automatic name of `first` & `second`, made unique among `taken` (casefolded names).

    Two family pairs both "Dupont – Dupont" are told apart by their first names ("Marie &
    Luc Dupont", or "Marie Dupont – Luc Martin"), then by a number: never refused.
    """
    (first_given, first_last), (second_given, second_last) = split_name(first), split_name(second)
    if first_last and first_last.casefold() == second_last.casefold():
        with_first_names = f"{first_given} & {second_given} {first_last}"
    else:
        with_first_names = f"{first} – {second}"
    for name in (default_team_name(first, second), with_first_names):
        if len(name) <= TEAM_NAME_MAX and name.casefold() not in taken:
            return name
    base, number = with_first_names[: TEAM_NAME_MAX - 5].rstrip(), 2
    while f"{base} ({number})".casefold() in taken:
        number += 1
    return f"{base} ({number})"


def register_teams(
    tournament: Tournament, text: str, *, by: Any, new_members: str = CREATE
) -> list[Team]:
    """One team per line, "Team name: First Player & Second Player" or "First & Second":
    the lines read, then registered as `register_team_lines` does (all or nothing; every bad
    line, unreadable or refused, reported with its number)."""
    require_director(by, tournament.club_id)
    require_teams(tournament)
    read = [_read_team_line(n, line) for n, line in pasted_lines(text)]
    if not read:
        raise ServiceError(_("Enter one team per line."), field="text")
    return _register(
        tournament,
        [r for r in read if isinstance(r, TeamLine)],
        [r for r in read if isinstance(r, LineProblem)],
        by=by,
        new_members=new_members,
    )


def register_team_lines(
    tournament: Tournament, lines: Sequence[TeamLine], *, by: Any, new_members: str = CREATE
) -> list[Team]:
    """Register teams given by their players' names (an accepted online entry, a script).

    Players are found among the club's members or created. All or nothing; every bad team
    (a bad name, a player twice, a team name already taken) is reported with its `line`.
    `new_members` (club.registration's ASK or ASK_IF_SIMILAR) stops with NewMembersToConfirm
    before creating members the director has not confirmed (the page asks, then sends CREATE).
    A bounded number of queries, whatever the number of teams.
    """
    require_director(by, tournament.club_id)
    require_teams(tournament)
    if not lines:
        raise ServiceError(_("Enter one team per line."), field="text")
    checked = [_check_team_line(line) for line in lines]
    return _register(
        tournament,
        [c for c in checked if isinstance(c, TeamLine)],
        [c for c in checked if isinstance(c, LineProblem)],
        by=by,
        new_members=new_members,
    )


def _register(
    tournament: Tournament,
    entries: list[TeamLine],
    problems: list[LineProblem],
    *,
    by: Any,
    new_members: str,
) -> list[Team]:
    with changing(tournament.pk):
        taken_names = {n.casefold() for n in tournament.teams.values_list("name", flat=True)}
        playing = players_in(tournament)
        roster = Roster(tournament.club)
        seen_players: dict[str, int] = {}
        for index, entry in enumerate(entries):
            if not entry.name:
                entry = entries[index] = replace(
                    entry, name=unique_team_name(entry.first, entry.second, taken_names)
                )
            elif entry.name.casefold() in taken_names:
                problems.append(
                    LineProblem(
                        entry.line,
                        _("the team name “%(name)s” is already taken") % {"name": entry.name},
                    )
                )
            taken_names.add(entry.name.casefold())
            for person in (entry.first, entry.second):
                key = " ".join(split_name(person)).casefold()
                found = roster.named(person)
                member = found[0] if len(found) == 1 else None
                if problem := roster.ambiguity(person):
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
        plan = plan_names(tournament.club, team_line_players(entries), roster=roster)
        if plan.asks(new_members):
            raise NewMembersToConfirm(plan)
        seed = _next_seed(tournament)
        pairs = [(roster.member(entry.first), roster.member(entry.second)) for entry in entries]
        roster.save()
        teams = Team.objects.bulk_create(
            Team(
                tournament=tournament,
                name=entry.name,
                first_player=first,
                second_player=second,
                seed=seed + offset,
            )
            for offset, (entry, (first, second)) in enumerate(zip(entries, pairs, strict=True))
        )
    return teams


def team_line_players(entries: list[Any]) -> list[str]:
    return [name for entry in entries for name in (entry.first, entry.second)]


def plan_team_players(tournament: Tournament, text: str) -> Any:
    """The club's NamesPlan for the players of the readable lines of `text` (members found,
    new names, close names): what the page tells the director after a registration."""
    read = [_read_team_line(n, line) for n, line in pasted_lines(text)]
    return plan_names(
        tournament.club, team_line_players([r for r in read if isinstance(r, TeamLine)])
    )


def players_in(tournament: Tournament, *, exclude_team: Team | None = None) -> set[int]:
    teams = tournament.teams.filter(withdrawn=False)
    if exclude_team is not None:
        teams = teams.exclude(pk=exclude_team.pk)
    ids: set[int] = set()
    for first, second in teams.values_list("first_player_id", "second_player_id"):
        ids.update((first, second))
    return ids


def _next_seed(tournament: Tournament) -> int:
    return (tournament.teams.aggregate(top=Max("seed"))["top"] or 0) + 1


def register_team(
    tournament: Tournament,
    *,
    by: Any,
    name: str,
    first_player: Player,
    second_player: Player,
    seed: int | None = None,
) -> Team:
    """One team of two players of the club; the next free seed unless one is given."""
    require_director(by, tournament.club_id)
    require_teams(tournament)
    name = " ".join((name or "").split())
    if name:
        check_team_name(name)
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
                # Never the person's name: they may be another club's (issue 28).
                _("Player %(id)s is not a member of %(club)s.")
                % {"id": player.pk, "club": tournament.club},
                field=field,
            )
    if seed is not None and (not isinstance(seed, int) or seed < 1):
        raise ServiceError(_("The seed must be a whole number from 1."), field="seed")
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        playing = players_in(tournament)
        for field, player in (("first_player", first_player), ("second_player", second_player)):
            if player.pk in playing:
                raise ServiceError(
                    _("%(player)s already plays in a team of this tournament.")
                    % {"player": player},
                    field=field,
                )
        if not name:
            taken = {n.casefold() for n in tournament.teams.values_list("name", flat=True)}
            name = unique_team_name(first_player.full_name, second_player.full_name, taken)
        elif tournament.teams.filter(name__iexact=name).exists():
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
    return team


__all__ = [
    "TeamLine",
    "check_team_name",
    "default_team_name",
    "plan_team_players",
    "players_in",
    "register_team",
    "register_team_lines",
    "register_teams",
    "require_registered",
    "require_teams",
    "unique_team_name",
]
