"""The director's buttons on a tournament: schedule, status, results reopened, a round or a table closed."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..errors import EntriesNotCheckedIn, RoundNotReady, ServiceError
from ..models import Match, Round, Tournament
from ..services import deals as deal_services
from ..services import draws, results, round_closing, schedule
from ..services import status as tournament_status
from .director import back, director_required, refused

ACTIONS = ("close", "reopen")
ROUND_ACTIONS = (*ACTIONS, "delete")


@require_POST
@director_required
def generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rounds = schedule.generate_round_robin(
            tournament,
            by=request.user,
            draw_lots=bool(request.POST.get("draw_lots")),
            leave_out_expected=request.POST.get("leave_out_expected") == "1",
        )
    except EntriesNotCheckedIn as asked:
        # Asked first: the director checks the late teams in, or generates without them.
        context = {
            "tournament": tournament,
            "reason": asked.message,
            "expected": asked.expected,
            "draw_lots": bool(request.POST.get("draw_lots")),
            "tab": "director",
        }
        return render(request, "tournaments/director/generate_confirm.html", context)
    except ServiceError as error:
        refused(request, error)
    else:
        text = ngettext(
            "Schedule generated: %(n)d round.", "Schedule generated: %(n)d rounds.", len(rounds)
        )
        messages.success(request, text % {"n": len(rounds)})
    return back(tournament)


@require_POST
@director_required
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.publish_tournament(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Published: the referees can now enter the deals at their tables.")
        )
    return back(tournament)


@require_POST
@director_required
def finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.finish_tournament(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("Finished: these standings are the final ones."))
    return back(tournament)


@require_POST
@director_required
def set_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.set_status(tournament, request.POST.get("status", ""), by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Status: %(status)s.") % {"status": tournament.get_status_display()}
        )
    return back(tournament)


@require_POST
@director_required
def reopen_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        results.reopen_results(tournament, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request,
            _("Results reopened: they are provisional until the tournament is finished again."),
        )
    return back(tournament)


@require_POST
@director_required
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    if action not in ROUND_ACTIONS:
        raise Http404
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    try:
        if action == "close":
            force = request.POST.get("force") == "1"
            round_closing.close_round(round_, by=request.user, force=force)
        elif action == "delete":
            draws.delete_last_round(round_, by=request.user)
        else:
            round_closing.reopen_round(round_, by=request.user)
    except RoundNotReady as not_ready:
        # Asked first: the director sees which tables are not done and closes anyway or not.
        context = {
            "tournament": tournament,
            "round": round_,
            "reason": not_ready.message,
            "tab": "director",
        }
        return render(request, "tournaments/director/close_round.html", context)
    except ServiceError as error:
        refused(request, error)
    else:
        texts = {
            "close": _("Round %(n)d closed."),
            "reopen": _("Round %(n)d reopened."),
            "delete": _("%(round)s deleted: it can be drawn again."),
        }
        messages.success(request, texts[action] % {"n": number, "round": round_})
    return back(tournament)


@require_POST
@director_required
def match_action(
    request: HttpRequest, tournament: Tournament, pk: int, action: str
) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404
    match = get_object_or_404(
        Match.objects.select_related("tournament"), tournament=tournament, pk=pk
    )
    service = deal_services.close_match if action == "close" else deal_services.reopen_match
    try:
        service(match, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        text = _("Table %(t)s closed.") if action == "close" else _("Table %(t)s reopened.")
        messages.success(request, text % {"t": match.table})
    return back(tournament)
