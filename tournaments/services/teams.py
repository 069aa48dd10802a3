"""A registered team changed: renamed (any time), its players changed (before it has played a
deal), or deleted (before it has played); registering teams is services.registration's."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from club.models import Membership, Player

from .. import selectors
from ..changes import changing
from ..errors import Conflict, ServiceError, TeamInDraw
from ..models import Deal, MatchEvent, Round, Team, Tournament
from ..permissions import require_director
from .registration import check_team_name, players_in, require_registered

__all__ = ["delete_team", "edit_team", "players_change_refusal"]


def _has_played(team: Team) -> bool:
    return Deal.objects.filter(Q(match__ns_team=team) | Q(match__ew_team=team)).exists()


def players_change_refusal(team: Team) -> Conflict | None:
    """Why the team's players can no longer change (None: they can): it has played a deal.

    Asked by `edit_team` (under the tournament's lock) and by the admin's team forms.
    """
    if _has_played(team):
        return Conflict(
            _("%(team)s has played: its players can no longer change.") % {"team": team},
            field="first_player",
        )
    return None


def edit_team(
    team: Team,
    *,
    by: Any,
    name: str | None = None,
    first_player: Player | None = None,
    second_player: Player | None = None,
) -> Team:
    """Rename a team (any time) or change its players (before it has played a deal).

    The players must be members of the club and in no other team of the tournament.
    """
    tournament = team.tournament
    require_director(by, tournament.club_id)
    require_registered(team)
    first = first_player or team.first_player
    second = second_player or team.second_player
    new_name = team.name if name is None else " ".join(name.split())
    if not new_name:
        raise ServiceError(_("Give the team a name."), field="name")
    check_team_name(new_name)
    if first.pk == second.pk:
        raise ServiceError(_("A team needs two different players."), field="second_player")
    changed_players = (first.pk, second.pk) != (team.first_player_id, team.second_player_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if tournament.teams.filter(name__iexact=new_name).exclude(pk=team.pk).exists():
            raise ServiceError(_("A team of that name is already registered."), field="name")
        if changed_players:
            if (refusal := players_change_refusal(team)) is not None:
                raise refusal
            members = set(
                Membership.objects.filter(
                    club_id=tournament.club_id, player__in=[first, second]
                ).values_list("player_id", flat=True)
            )
            playing = players_in(tournament, exclude_team=team)
            for field, player in (("first_player", first), ("second_player", second)):
                if player.pk not in members:
                    raise ServiceError(
                        _("Player %(id)s is not a member of %(club)s.")
                        % {"id": player.pk, "club": tournament.club},
                        field=field,
                    )
                if player.pk in playing:
                    raise ServiceError(
                        _("%(player)s already plays in a team of this tournament.")
                        % {"player": player},
                        field=field,
                    )
        before = str(team)
        team.name, team.first_player, team.second_player = new_name, first, second
        team.save(update_fields=["name", "first_player", "second_player"])
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.EDIT_TEAM,
            detail=f"{before} → {team}: {first} & {second}",
            by=by,
        )
    return team


def delete_team(team: Team, *, by: Any) -> bool:
    """Delete a team that has not played; True when the schedule had to go with it.

    Before any deal, a round robin's schedule that includes the team is removed (the director
    generates it again); once deals exist the schedule is fixed, and a team in it is withdrawn
    instead. A team in a round drawn on its own (round by round, or a final) is withdrawn too
    (`TeamInDraw`, 409): deleting it would take the round, its draw edits and its referees
    from every table.
    """
    tournament = team.tournament
    require_director(by, tournament.club_id)
    require_registered(team)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if (drawn := selectors.teams_in_schedule(tournament).drawn.get(team.pk)) is not None:
            raise TeamInDraw(
                _(
                    "%(team)s is in the draw of %(round)s: withdraw it instead (its matches without a deal become byes for their opponents)."
                )
                % {"team": team, "round": Round.objects.get(pk=drawn)}
            )
        in_schedule = tournament.matches.filter(Q(ns_team=team) | Q(ew_team=team)).exists()
        if in_schedule and tournament.has_deals():
            raise Conflict(
                _("%(team)s is in a schedule with deals: withdraw it instead.") % {"team": team}
            )
        if in_schedule:
            tournament.rounds.all().delete()
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.DELETE_TEAM, detail=team, by=by
        )
        team.delete()
    return in_schedule
