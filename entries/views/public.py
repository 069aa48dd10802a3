"""The evening's public pages: registering online, an entry's private page, self check-in at
the door (the QR code on the poster and the big screen leads here)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Entrant, Team
from tournaments.views.public import get_tournament

from .. import selectors
from ..api.throttles import RegistrationThrottle
from ..forms import OnlineRegistrationForm
from ..models import Registration
from ..services import check_in as check_in_services
from ..services import online


def register(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """The registration form while registration is open; why not, when it is not."""
    tournament = get_tournament(request, club_slug, slug)
    refusal = selectors.registration_refusal(tournament)
    form = OnlineRegistrationForm(
        request.POST if request.method == "POST" else None, individual=tournament.is_individual
    )
    if request.method == "POST" and refusal is None and form.is_valid():
        if not RegistrationThrottle().allow_request(request, None):  # type: ignore[arg-type]
            form.add_error(None, _("Too many registrations from this address: try again later."))
        else:
            data = form.cleaned_data
            try:
                entry = online.register_online(
                    tournament,
                    by=request.user,
                    players=form.players(),
                    partner_wanted=bool(data.get("partner_wanted")),
                    email=data["email"],
                    phone=data["phone"],
                    link=request.build_absolute_uri,
                )
            except ServiceError as error:
                field = {"players.0": "player", "players.1": "partner", "players": "player"}.get(
                    error.field or "", error.field
                )
                form.add_error(field if field in form.fields else None, error.message)
            else:
                return redirect("entries:entry", club_slug, slug, entry.key)
    return render(
        request,
        "entries/register.html",
        {
            "tournament": tournament,
            "form": form,
            "refusal": refusal,
            "places": selectors.places(tournament),
            "tab": "register",
        },
    )


def entry(request: HttpRequest, club_slug: str, slug: str, key: str) -> HttpResponse:
    """An entry's private page: what it is, its place in the waiting list; cancel it."""
    tournament = get_tournament(request, club_slug, slug)
    registration = get_object_or_404(Registration, tournament=tournament, key=key)
    if request.method == "POST":
        try:
            online.cancel_registration(registration, by=request.user, key=key)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Your entry is cancelled."))
        return redirect("entries:entry", club_slug, slug, key)
    return render(
        request,
        "entries/entry.html",
        {
            "tournament": tournament,
            "registration": registration,
            "position": selectors.waiting_position(registration),
            "tab": "register",
        },
    )


def self_check_in(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """Type a name (typos forgiven), tap yours: the entry is checked in."""
    tournament = get_tournament(request, club_slug, slug)
    refusal = selectors.self_check_in_refusal(tournament)
    query = " ".join(request.GET.get("q", "").split())[:80]
    done = None
    if request.method == "POST" and refusal is None:
        raw = request.POST.get("entry", "")
        model = Entrant if tournament.is_individual else Team
        chosen = (
            model.objects.filter(tournament=tournament, pk=int(raw)).first()
            if raw.isdigit() and len(raw) < 12
            else None
        )
        if chosen is None or getattr(chosen, "round_id", None) is not None:
            raise Http404
        try:
            done = check_in_services.self_check_in(chosen, by=request.user)
        except ServiceError as error:
            messages.error(request, error.message)
    found = selectors.self_check_in_matches(tournament, query) if query and refusal is None else []
    return render(
        request,
        "entries/self_check_in.html",
        {
            "tournament": tournament,
            "refusal": refusal,
            "query": query,
            "found": found,
            "done": done,
            "tab": "check_in",
        },
    )
