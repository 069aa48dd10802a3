"""Who referees which table: one match, or a table in every open round."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _

from ..changes import changing
from ..errors import ServiceError
from ..models import Match, MatchEvent, Tournament
from ..permissions import may_referee, require_director


def _require_referee(tournament: Tournament, referee: Any) -> None:
    if not isinstance(referee, get_user_model()) or not may_referee(referee, tournament.club_id):
        raise ServiceError(
            # Never the person's name: they may be another club's, or the site's admin.
            _("User %(id)s is not a referee of %(club)s.")
            % {"id": getattr(referee, "pk", referee), "club": tournament.club},
            field="referee",
        )


def assign_referee(match: Match, referee: Any, *, by: Any) -> Match:
    """Give the match a referee (a referee or director of the club), or take it away (None)."""
    tournament = match.tournament
    require_director(by, tournament.club_id)
    if referee is not None:
        _require_referee(tournament, referee)
        if match.is_bye:
            raise ServiceError(_("A bye has no table to referee."), field="referee")
    with changing(tournament.pk):
        Match.objects.filter(pk=match.pk).update(referee=referee, updated_at=timezone.now())
        match.referee = referee
        MatchEvent.record(
            tournament=tournament,
            match=match,
            action=MatchEvent.Action.REFEREE,
            detail=referee if referee is not None else _("no referee"),
            by=by,
        )
    return match


def assign_table_referee(
    tournament: Tournament, table: int, referee: Any, *, by: Any
) -> list[Match]:
    """Give table `table` the same referee (or none) in every round not closed, at once.

    Closed rounds keep who refereed them. Returns the matches that changed.
    """
    require_director(by, tournament.club_id)
    if referee is not None:
        _require_referee(tournament, referee)
    with changing(tournament.pk):
        wanted = referee.pk if referee is not None else None
        changed = [
            match
            for match in Match.objects.select_for_update(of=("self",)).filter(
                tournament=tournament, table=table, ew_team__isnull=False, round__is_closed=False
            )
            if match.referee_id != wanted
        ]
        Match.objects.filter(pk__in=[m.pk for m in changed]).update(
            referee=referee, updated_at=timezone.now()
        )
        if changed:
            who = str(referee) if referee is not None else _("no referee")
            MatchEvent.record(
                tournament=tournament,
                action=MatchEvent.Action.TABLE_REFEREE,
                detail=_("table %(table)s, every open round: %(who)s")
                % {"table": table, "who": who},
                by=by,
            )
    return changed
