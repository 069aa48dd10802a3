"""The director's page of an individual tournament's players: paste names or tick members,
withdraw or delete a player."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.registration import ASK, CREATE, NewMembersToConfirm

from ..errors import ServiceError
from ..forms import MembersForm, players_form
from ..models import Entrant, Tournament
from ..selectors import individual
from ..services import entrants as entrant_services
from ..services.withdrawals import reinstate_refusal, withdraw_refusal
from .director import back, director_required, refused, registered_message


def _registered(request: HttpRequest, count: int, extra: str = "") -> None:
    text = ngettext("%(n)d player registered.", "%(n)d players registered.", count) % {"n": count}
    messages.success(request, f"{text} {extra}".strip())


@director_required
def entrants(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players, and two ways to add some: pasted names (new ones confirmed first), or
    club members ticked in a list."""
    if not tournament.is_individual:
        return back(tournament, "tournaments:director_teams")
    choosing = request.method == "POST" and "players" in request.POST
    form = players_form(request.POST if request.method == "POST" and not choosing else None)
    members = MembersForm(request.POST if choosing else None, tournament=tournament)
    to_confirm = None
    try:
        if choosing and members.is_valid():
            added = entrant_services.register_members(
                tournament, members.cleaned_data["players"], by=request.user
            )
            _registered(request, len(added))
            return back(tournament, "tournaments:director_entrants")
        if not choosing and request.method == "POST" and form.is_valid():
            text = form.cleaned_data["text"]
            # New names become members only once the director has seen them.
            new_members = CREATE if form.cleaned_data["confirm"] else ASK
            plan = entrant_services.plan_entrant_names(tournament, text)
            added = entrant_services.register_entrants(
                tournament, text, by=request.user, new_members=new_members
            )
            _registered(request, len(added), registered_message(plan))
            return back(tournament, "tournaments:director_entrants")
    except NewMembersToConfirm as ask:
        to_confirm = ask.plan
    except ServiceError as error:
        target = members if choosing else form
        for problem in getattr(error, "problems", ()) or [error.message]:
            target.add_error("players" if choosing else "text", str(problem))
    listed = individual.entrants_with_draws(tournament)
    return render(
        request,
        "tournaments/director/entrants.html",
        {
            "tournament": tournament,
            "form": form,
            "members_form": members,
            "entrants": listed,
            "reinstatable": {e.pk for e in listed if e.withdrawn and reinstate_refusal(e) is None},
            "withdrawable": {e.pk for e in listed if withdraw_refusal(e) is None},
            "to_confirm": to_confirm,
            "tab": "director",
        },
    )


@require_POST
@director_required
def entrant_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    entrant = get_object_or_404(
        Entrant.objects.select_related("player"), tournament=tournament, pk=pk
    )
    try:
        entrant_services.delete_entrant(entrant, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(player)s deleted.") % {"player": entrant.name})
    return back(tournament, "tournaments:director_entrants")
