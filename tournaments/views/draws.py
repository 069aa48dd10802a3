"""The director's draw pages: the next round shown before it is stored, and starting a final."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors
from ..errors import ServiceError
from ..models import Tournament
from ..services import draws, finals
from .director import back, director_required, refused


@director_required
def draw_round(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the next round as it would be drawn; POST: draw exactly that round."""
    if request.method == "POST":
        try:
            round_ = draws.draw_next_round(
                tournament, by=request.user, expected=request.POST.get("fingerprint", "")
            )
        except draws.DrawChanged as error:
            messages.error(request, error.message)
            return back(tournament, "tournaments:director_draw")
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(request, _("%(round)s drawn.") % {"round": round_})
        return back(tournament)
    try:
        planned, refusal = (
            draws.next_round(tournament, selectors.tables(tournament, answers=False)),
            "",
        )
    except ServiceError as error:
        planned, refusal = None, error.message
    return render(
        request,
        "tournaments/director/draw_round.html",
        {"tournament": tournament, "planned": planned, "refusal": refusal, "tab": "director"},
    )


@require_POST
@director_required
def start_final(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    size = request.POST.get("size", "")
    try:
        bracket = finals.start_final(
            tournament,
            size=int(size) if size.isdigit() else 0,
            third_place=bool(request.POST.get("third_place")),
            by=request.user,
        )
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request,
            _("Final of %(size)d seeded from the standings: draw its first round.")
            % {"size": bracket.size},
        )
    return back(tournament)
