"""Reads of the evening's changes: calls to the director, what a withdrawal would do, a
team's substitutes, who may sit in for a team."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from club.models import Membership, Player

from ..models import Deal, DirectorCall, Entrant, Match, Substitution, Team, Tournament


def open_calls(tournament: Tournament) -> QuerySet[DirectorCall]:
    """The calls from the tables no director has answered yet, oldest first."""
    return (
        DirectorCall.objects.filter(tournament=tournament, answered_at__isnull=True)
        .select_related("match__round", "match__ns_team", "match__ew_team", "by")
        .order_by("at", "pk")
    )


def calls(tournament: Tournament) -> QuerySet[DirectorCall]:
    """Every call of the tournament, answered or not, newest first."""
    return (
        DirectorCall.objects.filter(tournament=tournament)
        .select_related("match__round", "by", "answered_by")
        .order_by("-at", "-pk")
    )


@dataclass(slots=True)
class WithdrawalPreview:
    """What withdrawing a team would do to its remaining matches (nothing is changed)."""

    byes: list[Match] = field(default_factory=list)  # opponents then get a bye
    own_byes: list[Match] = field(default_factory=list)  # removed
    kept: list[Match] = field(default_factory=list)  # with deals: stay as they are


def withdrawal_preview(team: Team) -> WithdrawalPreview:
    preview = WithdrawalPreview()
    matches = (
        Match.objects.filter(Q(ns_team=team) | Q(ew_team=team), tournament_id=team.tournament_id)
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number", "table")
    )
    played = set(
        Deal.objects.filter(match__in=matches).values_list("match_id", flat=True).distinct()
    )
    for match in matches:
        if match.pk in played or match.deal_count:
            if match.status != Match.Status.FINISHED:
                preview.kept.append(match)
        elif match.ew_team_id is None:
            preview.own_byes.append(match)
        else:
            preview.byes.append(match)
    return preview


def substitutions(team: Team) -> QuerySet[Substitution]:
    return team.substitutions.select_related("player_out", "player_in").order_by("from_round", "at")


def substitute_choices(tournament: Tournament) -> QuerySet[Player]:
    """Who a director may pick as a substitute: the club's members who only play (not its
    referees nor directors) and who play no part in this tournament yet (in a team still in,
    or in as a substitute); a mêlée: its players still in."""
    if tournament.is_individual:
        return Player.objects.filter(
            pk__in=Entrant.objects.filter(tournament=tournament, withdrawn=False).values(
                "player_id"
            )
        ).order_by("last_name", "first_name")
    teams = Team.objects.filter(tournament=tournament, round__isnull=True, withdrawn=False)
    return (
        Player.objects.filter(
            memberships__club_id=tournament.club_id,
            memberships__role=Membership.Role.MEMBER,
        )
        .exclude(pk__in=teams.values("first_player_id"))
        .exclude(pk__in=teams.values("second_player_id"))
        .exclude(pk__in=Substitution.objects.filter(tournament=tournament).values("player_in_id"))
        .order_by("last_name", "first_name")
    )


def substitutions_by_team(tournament: Tournament) -> dict[int, list[Substitution]]:
    """Team id → its substitutions in order (the teams list says who replaced whom)."""
    by_team: dict[int, list[Substitution]] = {}
    for sub in (
        Substitution.objects.filter(tournament=tournament, team__round__isnull=True)
        .select_related("player_out", "player_in")
        .order_by("from_round", "at", "pk")
    ):
        by_team.setdefault(sub.team_id, []).append(sub)
    return by_team


def opponent_of(match: Match, team: Team) -> Any:
    return match.ew_team if match.ns_team_id == team.pk else match.ns_team
