"""Check-in's pages: the director's list with one tap per entry (and a search box), the door
poster with its QR code, and self check-in at the door (the poster and the big screen lead
there)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Entry, Payment, Tournament
from tournaments.selectors.players import entries, entries_with_players
from tournaments.views.director import back, director_required, refused
from tournaments.views.public import get_tournament

from .. import selectors
from ..services import check_in as check_in_services


def _entry(tournament: Tournament, pk: int) -> Entry:
    return get_object_or_404(entries_with_players(tournament), pk=pk)  # type: ignore[no-any-return]


def _with_due(tournament: Tournament, entry: Entry) -> Entry:
    """The entry with `due`, what it owes while unpaid (its row shows it)."""
    entry.due = selectors.fee_due(tournament, entry)  # type: ignore[attr-defined]
    return entry


def _check_in_context(tournament: Tournament) -> dict[str, Any]:
    entries = [_with_due(tournament, e) for e in selectors.check_in_entries(tournament)]
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
        context["entry"] = _with_due(tournament, entry)
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


def self_check_in(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """Type a name (typos forgiven), tap yours: the entry is checked in."""
    tournament = get_tournament(request, club_slug, slug)
    refusal = selectors.self_check_in_refusal(tournament)
    query = " ".join(request.GET.get("q", "").split())[:80]
    done = None
    if request.method == "POST" and refusal is None:
        raw = request.POST.get("entry", "")
        chosen = (
            entries(tournament).filter(pk=int(raw)).first()
            if raw.isdigit() and len(raw) < 12
            else None
        )
        if chosen is None:
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
