"""What a director may do next, each action's precondition read once: the service's guard,
the dashboard and the API's `actions` ask the same `<action>_refusal`.

A refusal is the error the action would raise (a `ServiceError`: its `code` and `message`),
returned rather than raised; None means the action would succeed now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from ..errors import Conflict, ServiceError
from ..models import Match, Round, Tournament
from ..permissions import is_director, results_final_refusal
from .draws import delete_round_refusal
from .finals import start_final_refusal
from .round_closing import close_round_refusal
from .schedule import generate_refusal
from .status import finish_refusal, publish_refusal
from .upcoming import AllRoundsDrawn, draw_refusal

Schedule = list[tuple[Round, list[Match]]]

# The director's actions on a tournament, in the order the dashboard offers them.
TOURNAMENT_ACTIONS = (
    "publish",
    "generate",
    "draw",
    "delete_round",
    "close_round",
    "start_final",
    "finish",
)
ROUND_ACTIONS = ("close", "delete")


class NoRound(Conflict):
    code = "no_round"


def available_actions(
    tournament: Tournament, schedule: Schedule, *, teams: int | None = None
) -> dict[str, ServiceError | None]:
    """Each director's action on `tournament` and why it would be refused now (None: it
    would succeed). `schedule`: every round in order with its matches and their teams'
    answers (`selectors.tables`); `teams`: the active teams (or players) when known."""
    rounds = [round_ for round_, _matches in schedule]
    last = rounds[-1] if rounds else None
    played = any(match.deal_count for _round, matches in schedule for match in matches)
    open_rounds = [(r, matches) for r, matches in schedule if not r.is_closed]
    delete: ServiceError | None
    close: ServiceError | None
    if last is None:
        delete = NoRound(_("No round is drawn yet."))
    else:
        last_played = any(match.deal_count for match in schedule[-1][1])
        delete = delete_round_refusal(last, last=last, played=last_played)
    if (final := results_final_refusal(tournament)) is not None:
        close = final  # `_set_round_closed` refuses it first, forced or not
    elif open_rounds:
        current, matches = open_rounds[0]
        close = close_round_refusal(current, [m for m in matches if not m.is_bye])
    else:
        close = NoRound(_("Every round is closed."))
    draw = draw_refusal(tournament, schedule)
    return {
        "publish": publish_refusal(tournament, rounds=len(rounds)),
        "generate": generate_refusal(
            tournament, teams=teams, played=played, final=tournament.has_final
        ),
        "draw": draw,
        "delete_round": delete,
        "close_round": close,
        "start_final": start_final_refusal(tournament, schedule),
        "finish": finish_refusal(tournament, schedule, all_drawn=isinstance(draw, AllRoundsDrawn)),
    }


def round_actions(round: Round, *, last: Round | None = None) -> dict[str, ServiceError | None]:
    """Each director's action on `round` and why it would be refused now (None: allowed)."""
    return {
        "close": results_final_refusal(round.tournament) or close_round_refusal(round),
        "delete": delete_round_refusal(round, last=last),
    }


def actions_json(
    names: tuple[str, ...],
    refusals: Callable[[], dict[str, ServiceError | None]],
    user: Any,
    club_id: int,
) -> dict[str, dict[str, Any]]:
    """The API's `actions` block: for each action whether it is allowed to `user` now, and
    if not the refusal's code and reason. A non-director is refused every one (`forbidden`),
    without reading the refusals."""
    if not is_director(user, club_id):
        forbidden = _("Only a director of this club may do this.")
        return {
            name: {"allowed": False, "code": "forbidden", "reason": forbidden} for name in names
        }
    return {
        name: {
            "allowed": refusal is None,
            "code": None if refusal is None else refusal.code,
            "reason": None if refusal is None else refusal.message,
        }
        for name, refusal in refusals().items()
    }
