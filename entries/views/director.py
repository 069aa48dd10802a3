"""The director's evening before the first deal: online entries (accept, pair, cancel, close),
check-in with one tap per entry, the door poster with its QR code, the cash and its CSV."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.registration import ASK_IF_SIMILAR, CREATE, NewMembersToConfirm
from tournaments.errors import ServiceError
from tournaments.models import Entrant, Payment, Team, Tournament
from tournaments.services.settings import update_tournament
from tournaments.views.director import back, director_required, refused
from tournaments.views.director_print import csv_response

from .. import selectors
from ..models import Registration
from ..services import check_in as check_in_services
from ..services import online

REGISTRATION_ACTIONS = ("accept", "cancel")


@director_required
def registrations(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The online entries in order of arrival, partner suggestions, and the opening switch."""
    return render(
        request,
        "entries/director/registrations.html",
        {
            "tournament": tournament,
            "registrations": selectors.registrations(tournament),
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
            moved = online.cancel_registration(registration, by=request.user)
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


# --- check-in ------------------------------------------------------------------------------


def _entry(tournament: Tournament, pk: int) -> Team | Entrant:
    if tournament.is_individual:
        return get_object_or_404(
            Entrant.objects.select_related("player"), tournament=tournament, pk=pk
        )
    return get_object_or_404(
        Team.objects.select_related("first_player", "second_player"),
        tournament=tournament,
        round__isnull=True,
        pk=pk,
    )


def _check_in_context(tournament: Tournament) -> dict[str, Any]:
    entries = selectors.check_in_entries(tournament)
    active = [e for e in entries if not e.withdrawn]
    return {
        "tournament": tournament,
        "entries": entries,
        "present": sum(e.is_present for e in active),
        "expected": sum(e.attendance == "expected" for e in active),
        "absent": sum(e.attendance == "absent" for e in active),
        "payments": Payment.choices,
        "charges": tournament.entry_fee is not None,
        "tab": "director",
    }


@director_required
def check_in_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every entry with one tap for present (or a way to pay, which marks it present too)
    and one for absent, and a search box that narrows the list as one types."""
    return render(request, "entries/director/check_in.html", _check_in_context(tournament))


@require_POST
@director_required
def check_in_mark(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """One tap: `present` (yes, no, undo) or `paid` (a way to pay). With htmx, the row alone
    comes back; without, the page, at the row."""
    entry = _entry(tournament, pk)
    changes: dict[str, Any] = {}
    present = request.POST.get("present")
    if present is not None:
        changes["present"] = {"yes": True, "no": False}.get(present)
    if "paid" in request.POST:
        changes["paid"] = request.POST["paid"] or None
    try:
        entry = check_in_services.check_in(entry, by=request.user, **changes)
    except ServiceError as error:
        refused(request, error)
    if request.headers.get("HX-Request"):
        context = _check_in_context(tournament)
        context["entry"] = entry
        return render(request, "entries/director/_check_in_answer.html", context)
    return redirect(
        reverse("entries:director_check_in", args=[tournament.club.slug, tournament.slug])
        + f"#entry-{entry.pk}"
    )


@require_POST
@director_required
def check_in_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """An entry that did not come, withdrawn in one step (its remaining matches become byes)."""
    entry = _entry(tournament, pk)
    try:
        check_in_services.withdraw_absent(entry, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(entry)s withdrawn.") % {"entry": entry.name})
    return back(tournament, "entries:director_check_in")


def self_check_in_url(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(
        reverse("entries:self_check_in", args=[tournament.club.slug, tournament.slug])
    )


@director_required
def check_in_poster(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The poster for the door: a large QR code to the self check-in page, to print."""
    return render(
        request,
        "entries/director/check_in_poster.html",
        {
            "tournament": tournament,
            "url": self_check_in_url(request, tournament),
            "refusal": selectors.self_check_in_refusal(tournament),
        },
    )


# --- cash ----------------------------------------------------------------------------------


@director_required
def cash(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """What the evening received per way of paying, and who is present and has not paid."""
    return render(
        request,
        "entries/director/cash.html",
        {
            "tournament": tournament,
            "summary": selectors.cash_summary(tournament),
            "currency": settings.BELOTE_CURRENCY,
            "tab": "director",
        },
    )


@director_required
def cash_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One line per entry paid or due, then a line per way of paying and the totals."""
    summary = selectors.cash_summary(tournament)
    response, writer = csv_response(f"{tournament.slug}-cash.csv")
    writer.writerow(["entry", "players", "attendance", "paid", "amount", "due"])
    for entry in summary.paid:
        writer.writerow(
            [
                entry.name,
                selectors.entry_players(entry),
                entry.attendance,
                entry.paid,
                f"{entry.fee_paid or 0:.2f}",
                "",
            ]
        )
    for entry, due in summary.unpaid:
        writer.writerow(
            [entry.name, selectors.entry_players(entry), entry.attendance, "", "", f"{due:.2f}"]
        )
    for method, amount in summary.received.items():
        writer.writerow([f"total {method}", "", "", method, f"{amount:.2f}", ""])
    writer.writerow(["total", "", "", "", f"{summary.total:.2f}", f"{summary.unpaid_total:.2f}"])
    return response
