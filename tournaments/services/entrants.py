"""Registering the players of an individual tournament (mêlée): pasted names or club members.

Players come alone: each is an `Entrant` (seed, withdrawal, a line in the standings); their
partners are drawn every round. The names are the club's, as for teams (club.registration):
members are found by name, new names become members once the director confirms them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Max, Q
from django.utils import timezone
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

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Entrant, MatchEvent, SitOut, Team, Tournament
from ..permissions import require_director
from .withdrawals import reinstate_refusal, withdraw_refusal

__all__ = [
    "delete_entrant",
    "plan_entrant_names",
    "register_entrant_names",
    "register_entrants",
    "register_members",
    "reinstate_entrant",
    "require_individual",
    "withdraw_entrant",
]


def require_individual(tournament: Tournament) -> None:
    """Players register alone only in an individual tournament."""
    if not tournament.is_individual:
        raise Conflict(
            _("Players register alone only in an individual tournament; this one registers teams."),
            field="format",
        )


def _next_seed(tournament: Tournament) -> int:
    return (tournament.entrants.aggregate(top=Max("seed"))["top"] or 0) + 1


def _store(tournament: Tournament, players: Iterable[Player], by: Any) -> list[Entrant]:
    seed = _next_seed(tournament)
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, player=player, seed=seed + offset)
        for offset, player in enumerate(players)
    )
    if entrants:
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.REGISTER,
            detail=", ".join(e.name for e in entrants),
            by=by,
        )
    return entrants


def register_entrants(
    tournament: Tournament, text: str, *, by: Any, new_members: str = CREATE
) -> list[Entrant]:
    """One player per line, "First Last" (or "Last, First"), next seeds in line order.

    Players are found among the club's members or created. All or nothing: every bad line
    (not a name, a name of two members, a player already registered or pasted twice) is
    reported with its number. `new_members` (club.registration's ASK or ASK_IF_SIMILAR)
    stops with NewMembersToConfirm before creating members the director has not confirmed.
    A bounded number of queries, whatever the number of lines.
    """
    require_director(by, tournament.club_id)
    require_individual(tournament)
    lines = pasted_lines(text)
    if not lines:
        raise ServiceError(_("Enter one player per line."), field="text")
    return _register_names(tournament, lines, by=by, new_members=new_members)


def register_entrant_names(
    tournament: Tournament, names: Sequence[str], *, by: Any, new_members: str = CREATE
) -> list[Entrant]:
    """Register players given by name (an accepted online entry, a script), as pasted names
    are: problems are numbered by their place in `names` (1 first)."""
    require_director(by, tournament.club_id)
    require_individual(tournament)
    if not names:
        raise ServiceError(_("Enter one player per line."), field="text")
    return _register_names(
        tournament, list(enumerate(names, start=1)), by=by, new_members=new_members
    )


def _register_names(
    tournament: Tournament, lines: list[tuple[int, str]], *, by: Any, new_members: str
) -> list[Entrant]:
    problems = [LineProblem(n, p) for n, line in lines if (p := name_problem(line))]
    names = [(n, " ".join(line.split())) for n, line in lines if not name_problem(line)]
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        registered = set(tournament.entrants.values_list("player_id", flat=True))
        roster = Roster(tournament.club)
        seen: dict[tuple[str, ...], int] = {}
        for number, name in names:
            key = tuple(part.casefold() for part in split_name(name))
            found = roster.named(name)
            if problem := roster.ambiguity(name):
                problems.append(LineProblem(number, problem))
            elif found and found[0].pk in registered:
                problems.append(
                    LineProblem(number, _("%(player)s is already registered") % {"player": name})
                )
            elif key in seen:
                problems.append(
                    LineProblem(
                        number,
                        _("%(player)s is already on line %(other)d")
                        % {"player": name, "other": seen[key]},
                    )
                )
            seen.setdefault(key, number)
        if problems:
            raise RegistrationRefused(sorted(problems, key=lambda p: p.line))
        plan = plan_names(tournament.club, [name for _n, name in names], roster=roster)
        if plan.asks(new_members):
            raise NewMembersToConfirm(plan)
        players = [roster.member(name) for _n, name in names]
        roster.save()
        return _store(tournament, players, by)


def plan_entrant_names(tournament: Tournament, text: str) -> Any:
    """The club's NamesPlan for the names of `text` (members found, new names, close ones):
    what the page tells the director after a registration."""
    return plan_names(
        tournament.club, [line for _n, line in pasted_lines(text) if not name_problem(line)]
    )


def register_members(
    tournament: Tournament, players: Iterable[Player], *, by: Any
) -> list[Entrant]:
    """Register club members chosen from the club's list, next seeds in the order given.

    Each must be a member of the club and not registered already; all or nothing.
    """
    require_director(by, tournament.club_id)
    require_individual(tournament)
    chosen = list(dict.fromkeys(players))
    if not chosen:
        raise ServiceError(_("Choose at least one player."), field="players")
    members = set(
        Membership.objects.filter(club_id=tournament.club_id, player__in=chosen).values_list(
            "player_id", flat=True
        )
    )
    for player in chosen:
        if player.pk not in members:
            raise ServiceError(
                # Never the person's name: they may be another club's (issue 28).
                _("Player %(id)s is not a member of %(club)s.")
                % {"id": player.pk, "club": tournament.club},
                field="players",
            )
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        registered = set(tournament.entrants.values_list("player_id", flat=True))
        already = [p.full_name for p in chosen if p.pk in registered]
        if already:
            raise ServiceError(
                _("Already registered: %(players)s.") % {"players": ", ".join(already)},
                field="players",
            )
        return _store(tournament, chosen, by)


def withdraw_entrant(entrant: Entrant, *, by: Any) -> Entrant:
    """Withdraw a player: they keep the results they played and are drawn no more.

    A round already drawn is played as drawn (their partnership may finish it, or a
    director closes the match).
    """
    tournament = entrant.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        entrant = (
            Entrant.objects.select_for_update()
            .select_related("player", "tournament")
            .get(pk=entrant.pk)
        )
        if (refusal := withdraw_refusal(entrant)) is not None:
            raise refusal
        entrant.withdrawn, entrant.withdrawn_at = True, timezone.now()
        entrant.withdrawal = {"rounds": tournament.rounds.aggregate(top=Max("number"))["top"] or 0}
        entrant.save(update_fields=["withdrawn", "withdrawn_at", "withdrawal"])
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.WITHDRAW, detail=entrant.name, by=by
        )
    return entrant


def reinstate_entrant(entrant: Entrant, *, by: Any) -> Entrant:
    """Undo a player's withdrawal until the next round is drawn: the next draw seats them."""
    tournament = entrant.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        entrant = (
            Entrant.objects.select_for_update()
            .select_related("player", "tournament")
            .get(pk=entrant.pk)
        )
        refusal = reinstate_refusal(entrant)
        if refusal is not None:
            raise refusal
        entrant.withdrawn, entrant.withdrawn_at, entrant.withdrawal = False, None, {}
        entrant.save(update_fields=["withdrawn", "withdrawn_at", "withdrawal"])
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.REINSTATE, detail=entrant.name, by=by
        )
    return entrant


def delete_entrant(entrant: Entrant, *, by: Any) -> None:
    """Remove a player registered by mistake, while no round has been drawn with them."""
    tournament = entrant.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        player = entrant.player_id
        partnered = Q(first_player_id=player) | Q(second_player_id=player)
        drawn = (
            Team.objects.filter(partnered, tournament=tournament).exists()
            or SitOut.objects.filter(entrant=entrant).exists()
        )
        if drawn:
            raise Conflict(
                _("%(player)s has been drawn in a round: withdraw them instead.")
                % {"player": entrant},
                field="entrant",
            )
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.DELETE_ENTRANT,
            detail=entrant.name,
            by=by,
        )
        entrant.delete()
