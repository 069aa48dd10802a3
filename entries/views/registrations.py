"""Online registration's pages: the public form and an entry's private page (see or cancel
it), and the director's online entries (accept, pair, cancel, open or close)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.registration import ASK_IF_SIMILAR, CREATE, NewMembersToConfirm
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services.settings import update_tournament
from tournaments.views.director import back, director_required, refused
from tournaments.views.public import get_tournament

from .. import selectors
from ..api.throttles import RegistrationThrottle
from ..forms import OnlineRegistrationForm
from ..models import Registration
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
            online.cancel_registration(
                registration, by=request.user, key=key, link=request.build_absolute_uri
            )
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


REGISTRATION_ACTIONS = ("accept", "cancel")


@director_required
def registrations(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The online entries in order of arrival, partner suggestions, and the opening switch."""
    rows = selectors.registrations(tournament)
    return render(
        request,
        "entries/director/registrations.html",
        {
            "tournament": tournament,
            "registrations": rows,
            # "Accept all" takes the registered entries (not the waiting list).
            "to_accept": sum(r.status == Registration.Status.REGISTERED for r in rows),
            "suggestions": selectors.partner_suggestions(tournament),
            "places": selectors.places(tournament),
            "refusal": selectors.registration_refusal(tournament),
            "public_url": request.build_absolute_uri(
                reverse("entries:register", args=[tournament.club.slug, tournament.slug])
            ),
            "tab": "director",
        },
    )


@require_POST
@director_required
def registration_action(
    request: HttpRequest, tournament: Tournament, pk: int, action: str
) -> HttpResponse:
    if action not in REGISTRATION_ACTIONS:
        raise Http404
    registration = get_object_or_404(Registration, tournament=tournament, pk=pk)
    registration.tournament = tournament
    try:
        if action == "accept":
            # A name close to a member's may be a typo: asked first, created once confirmed.
            new_members = CREATE if request.POST.get("confirm") == "1" else ASK_IF_SIMILAR
            entry = online.accept_registration(
                registration, by=request.user, new_members=new_members
            )
            messages.success(request, _("%(entry)s accepted.") % {"entry": entry})
        else:
            moved = online.cancel_registration(
                registration, by=request.user, link=request.build_absolute_uri
            )
            messages.success(request, _("%(entry)s cancelled.") % {"entry": registration})
            for up in moved:
                messages.info(
                    request, _("%(entry)s moved up from the waiting list.") % {"entry": up}
                )
    except NewMembersToConfirm as ask:
        return render(
            request,
            "entries/director/accept_confirm.html",
            {
                "tournament": tournament,
                "registration": registration,
                "to_confirm": ask.plan,
                "tab": "director",
            },
        )
    except ServiceError as error:
        refused(request, error)
    return back(tournament, "entries:director_registrations")


@require_POST
@director_required
def accept_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Accept every registered entry; say which could not be, and why."""
    try:
        report = online.accept_all(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        if report.accepted:
            messages.success(
                request,
                ngettext("%(n)d entry accepted.", "%(n)d entries accepted.", len(report.accepted))
                % {"n": len(report.accepted)},
            )
        for registration, reason in report.refused:
            messages.warning(
                request,
                _("%(entry)s not accepted: %(reason)s")
                % {"entry": registration.names, "reason": reason},
            )
    return back(tournament, "entries:director_registrations")


@require_POST
@director_required
def pair(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    ids = [request.POST.get(name, "") for name in ("first", "second")]
    found = {
        r.pk: r
        for r in Registration.objects.filter(
            tournament=tournament, pk__in=[int(i) for i in ids if i.isdigit() and len(i) < 12]
        )
    }
    if len(found) != 2 or not all(i.isdigit() for i in ids):
        messages.error(request, _("Choose two different players."))
    else:
        first, second = (found[int(i)] for i in ids)
        try:
            online.pair_registrations(first, second, by=request.user)
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(
                request,
                _("%(a)s and %(b)s are partners.") % {"a": first.player, "b": second.player},
            )
    return back(tournament, "entries:director_registrations")


@require_POST
@director_required
def registration_switch(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open or close online registration in one tap."""
    wanted = request.POST.get("registration", "")
    try:
        update_tournament(tournament, by=request.user, registration=wanted)
    except ServiceError as error:
        refused(request, error)
    else:
        if wanted == Tournament.RegistrationMode.OPEN:
            messages.success(request, _("Online registration is open."))
        else:
            messages.success(request, _("Online registration is closed."))
    return back(tournament, "entries:director_registrations")
