"""A director's actions on a running tournament: withdrawals, rounds, referees, status."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Deal, Match, MatchEvent, Round, Team, Tournament
from ..permissions import actor_user, may_referee, require_director


def _event(
    tournament_id: int, action: str, detail: str, by: Any, match: Match | None = None
) -> None:
    MatchEvent.objects.create(
        tournament_id=tournament_id,
        match=match,
        action=action,
        detail=detail[:200],
        by=actor_user(by),
    )


def withdraw_team(team: Team, *, by: Any) -> list[Match]:
    """Withdraw a team: each of its matches without a deal becomes a bye for the opponent.

    Matches with deals stay as they are (played, or in progress: the director closes or
    corrects them); the team's own byes disappear. Returns the matches turned into byes.
    """
    tournament = team.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        team = Team.objects.select_for_update().get(pk=team.pk)
        if team.withdrawn:
            raise Conflict(_("%(team)s has already withdrawn.") % {"team": team})
        team.withdrawn = True
        team.withdrawn_at = timezone.now()
        team.save(update_fields=["withdrawn", "withdrawn_at"])
        _event(tournament.pk, "withdraw", str(team), by)
        played = set(
            Deal.objects.filter(match__tournament=tournament).values_list("match_id", flat=True)
        )
        byes: list[Match] = []
        matches = (
            Match.objects.select_for_update(of=("self",))
            .filter(Q(ns_team=team) | Q(ew_team=team), tournament=tournament)
            .order_by("round__number", "table")
        )
        for match in matches:
            if match.pk in played or match.deal_count:
                continue
            if match.ew_team_id is None:
                # The withdrawn team's own bye: nothing left to play.
                _event(tournament.pk, "bye_removed", str(match), by)
                match.delete()
                continue
            opponent_id = match.ew_team_id if match.ns_team_id == team.pk else match.ns_team_id
            match.ns_team_id, match.ew_team_id = opponent_id, None
            # A bye takes no table; the referee has nothing to referee.
            match.table, match.referee = None, None
            match.save()
            _event(
                tournament.pk,
                "bye",
                _("%(team)s withdrew") % {"team": team},
                by,
                match,
            )
            byes.append(match)
    return byes


def _set_round_closed(round: Round, closed: bool, by: Any) -> Round:
    require_director(by, round.tournament.club_id)
    with changing(round.tournament_id):
        round = Round.objects.select_for_update().get(pk=round.pk)
        round.is_closed = closed
        round.save(update_fields=["is_closed"])
        Match.objects.filter(round=round).update(is_closed=closed, updated_at=timezone.now())
        _event(round.tournament_id, "close_round" if closed else "reopen_round", str(round), by)
    return round


def close_round(round: Round, *, by: Any) -> Round:
    """Close a round and every match in it: referees can no longer change their deals."""
    return _set_round_closed(round, True, by)


def reopen_round(round: Round, *, by: Any) -> Round:
    """Reopen a round and its matches, so their referees may correct them again."""
    return _set_round_closed(round, False, by)


def assign_referee(match: Match, referee: Any, *, by: Any) -> Match:
    """Give the match a referee (a referee or director of the club), or take it away (None)."""
    tournament = match.tournament
    require_director(by, tournament.club_id)
    if referee is not None:
        if not isinstance(referee, get_user_model()) or not may_referee(
            referee, tournament.club_id
        ):
            raise ServiceError(
                _("%(user)s is not a referee of %(club)s.")
                % {"user": referee, "club": tournament.club},
                field="referee",
            )
        if match.is_bye:
            raise ServiceError(_("A bye has no table to referee."), field="referee")
    with changing(tournament.pk):
        Match.objects.filter(pk=match.pk).update(referee=referee, updated_at=timezone.now())
        match.referee = referee
        _event(
            tournament.pk,
            "referee",
            str(referee) if referee is not None else _("no referee"),
            by,
            match,
        )
    return match


def publish_tournament(tournament: Tournament, *, by: Any) -> Tournament:
    """Open play: a tournament whose schedule exists goes to `running`, in one step.

    Referees then find their tables, and the tournament is listed publicly if it is public.
    """
    require_director(by, tournament.club_id)
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise Conflict(_("This tournament is already published."))
    if not tournament.rounds.exists():
        raise ServiceError(_("Generate the schedule first: then it can be played."), field="status")
    return set_status(tournament, Tournament.Status.RUNNING, by=by)


def set_status(tournament: Tournament, status: str, *, by: Any) -> Tournament:
    """Move the tournament to `status` (draft, open, running, finished)."""
    from .settings import update_tournament

    return update_tournament(tournament, by=by, status=status)


__all__ = [
    "assign_referee",
    "close_round",
    "publish_tournament",
    "reopen_round",
    "set_status",
    "withdraw_team",
]
