"""A tournament's status: published (play opens), finished, or set by hand."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import selectors
from ..errors import Conflict, ServiceError
from ..models import Match, Round, Tournament
from ..permissions import require_director
from .upcoming import AllRoundsDrawn, draw_refusal


def publish_refusal(tournament: Tournament, *, rounds: int | None = None) -> ServiceError | None:
    """Why the tournament cannot be published now (None: it can). `rounds`: how many rounds
    it has, when the caller has read them."""
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return AlreadyPublished(_("This tournament is already published."))
    if not (tournament.rounds.exists() if rounds is None else rounds):
        return NoSchedule(_("Generate the schedule first: then it can be played."), field="status")
    return None


def publish_tournament(tournament: Tournament, *, by: Any) -> Tournament:
    """Open play: a tournament whose schedule exists goes to `running`, in one step.

    Referees then find their tables, and the tournament is listed publicly if it is public.
    """
    require_director(by, tournament.club_id)
    if (refusal := publish_refusal(tournament)) is not None:
        raise refusal
    return set_status(tournament, Tournament.Status.RUNNING, by=by)


def finish_refusal(
    tournament: Tournament,
    schedule: list[tuple[Round, list[Match]]] | None = None,
    *,
    all_drawn: bool | None = None,
) -> ServiceError | None:
    """Why the evening cannot be finished in one step yet (None: it can): the tournament
    runs, every round is drawn (`all_drawn`, the draw's word) and every table is finished.

    `schedule` (`selectors.tables`) and `all_drawn`, when the caller has them: then no query
    of its own. (A director may still set any status by hand: `set_status`.)
    """
    if tournament.status == Tournament.Status.FINISHED:
        return AlreadyFinished(_("This tournament is already finished."))
    if tournament.status != Tournament.Status.RUNNING:
        return NotReadyToFinish(_("The tournament is not running."))
    if schedule is None:
        schedule = selectors.tables(tournament, answers=False)
    if all_drawn is None:
        all_drawn = isinstance(draw_refusal(tournament, schedule), AllRoundsDrawn)
    if not schedule or not all_drawn:
        return NotReadyToFinish(_("Rounds are still to be drawn."))
    # A table the director closed counts as played, as for the next draw.
    if any(
        not m.is_bye and not m.is_closed and m.status != Match.Status.FINISHED
        for _round, matches in schedule
        for m in matches
    ):
        return NotReadyToFinish(_("Some tables are still playing."))
    return None


def finish_tournament(tournament: Tournament, *, by: Any) -> Tournament:
    """End the tournament: its pages show the final standings."""
    require_director(by, tournament.club_id)
    if (refusal := finish_refusal(tournament)) is not None:
        raise refusal
    return set_status(tournament, Tournament.Status.FINISHED, by=by)


def set_status(tournament: Tournament, status: str, *, by: Any) -> Tournament:
    """Move the tournament to `status` (draft, open, running, finished)."""
    from .settings import update_tournament

    return update_tournament(tournament, by=by, status=status)


class AlreadyPublished(Conflict):
    code = "already_published"


class NoSchedule(ServiceError):
    code = "no_schedule"


class AlreadyFinished(Conflict):
    code = "already_finished"


class NotReadyToFinish(Conflict):
    code = "not_ready_to_finish"
