"""The director's dashboard: every table round by round, live, and what may be done next."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors
from ..models import Match, Round, Tournament
from ..permissions import reopen_results_refusal
from ..scheduling.knockout import BRACKET_SIZES
from ..services import draw_edits, draws
from ..services.actions import available_actions
from ..services.results import REASON_MAX
from .director import director_required
from .public import POLL_SECONDS


def tables_context(tournament: Tournament) -> dict[str, Any]:
    """Every table of the tournament, round by round, for the live view (two queries)."""
    rounds = selectors.tables(tournament)
    calls = selectors.waiting_calls(rounds)
    return {
        "tournament": tournament,
        "rounds": rounds,
        "disputes": selectors.disputes(rounds),
        "calls": calls,
        # The polling version: a call changes the page without changing the tournament.
        "tables_version": tables_version(tournament, calls),
        "editable_rounds": {
            round_.number
            for round_, matches in rounds
            if draw_edits.swap_refusal(round_, matches) is None
        },
        "poll_seconds": POLL_SECONDS,
    }


def tables_version(tournament: Tournament, calls: list[Any]) -> str:
    """The tournament's change number, and the calls waiting (a call changes no result)."""
    waiting = ",".join(str(call.pk) for call in calls)
    return f"{tournament.change_seq}.{waiting}" if waiting else str(tournament.change_seq)


@director_required
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tables_context(tournament)
    # An individual tournament's entries are players (its teams, the rounds' partnerships).
    team_count = selectors.players.entries(tournament).filter(withdrawn=False).count()
    context.update(
        {
            "team_count": team_count,
            "statuses": Tournament.Status.choices,
            "is_director": True,
            "tab": "director",
            "may_reopen": reopen_results_refusal(request.user, tournament) is None,
            "reason_max": REASON_MAX,
        }
    )
    context.update(rounds_context(tournament, context["rounds"], team_count))
    return render(request, "tournaments/director/dashboard.html", context)


def rounds_context(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]], team_count: int
) -> dict[str, Any]:
    """What the dashboard offers next, each button shown exactly when its action would
    succeed (`actions`: the services' own refusals, None where allowed), with the next round
    to draw and the final's sizes.

    Read from the tables the dashboard shows anyway (`schedule`): no query of its own.
    """
    refusals = available_actions(tournament, schedule, teams=team_count)
    upcoming = draws.what_comes_next(tournament, schedule) if refusals["draw"] is None else None
    rounds = [round_ for round_, _matches in schedule]
    knockout = any(r.is_knockout for r in rounds)
    qualifying = [r for r in rounds if not r.is_knockout]
    planned = tournament.round_count if tournament.is_round_by_round else len(qualifying)
    sizes = [n for n in BRACKET_SIZES if n <= team_count] if not knockout else []
    return {
        "actions": refusals,
        "upcoming": upcoming,
        "last_round": rounds[-1] if rounds else None,
        "qualifying_drawn": len(qualifying),
        "qualifying_planned": planned,
        "bracket": tournament.bracket if tournament.has_final else None,
        "final_sizes": sizes,
        # A club's usual final: the semi-finals, or the quarter-finals when there are teams enough.
        "final_default": max((n for n in sizes if n <= 8), default=None),
        # Where the final's card shows (its button or why not): a team format whose
        # qualifying rounds are all drawn.
        "final_offered": bool(qualifying)
        and len(qualifying) >= (planned or 0)
        and not knockout
        and not tournament.is_individual,
    }


@director_required
def tables_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The live tables alone, for polling: 204 while nothing changed since the page's version."""
    if request.GET.get("seq") == tables_version(tournament, list(selectors.open_calls(tournament))):
        return HttpResponse(status=204)
    return render(request, "tournaments/director/_tables.html", tables_context(tournament))
