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
from tournaments.services.categories import set_category
from tournaments.views.director import back, director_required, refused
from tournaments.views.public import get_tournament

from .. import selectors
from ..api.throttles import SelfCheckInThrottle
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
        # The category tags already given, offered as one types a new one.
        "categories": sorted({e.category for e in entries if e.category}),
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
    """One tap: `present` (yes, no, undo) or `paid` (a way to pay), or the entry's `category`
    tag (which a category prize names). With htmx, the row alone comes back; without, the
    page, at the row."""
    entry = _entry(tournament, pk)
    changes: dict[str, Any] = {}
    present = request.POST.get("present")
    if present is not None:
        changes["present"] = {"yes": True, "no": False}.get(present)
    if "paid" in request.POST:
        changes["paid"] = request.POST["paid"] or None
    try:
        if "category" in request.POST:
            set_category(entry, by=request.user, category=request.POST["category"])
        if changes:
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
    """The door's address, with its code: for the directors' poster and big screen only."""
    page = reverse("entries:self_check_in", args=[tournament.club.slug, tournament.slug])
    return request.build_absolute_uri(tournament.door_address(page))


@require_POST
@director_required
def renew_door(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A new door code: the poster printed before no longer checks anyone in."""
    check_in_services.renew_door_key(tournament, by=request.user)
    messages.success(request, _("New door code: print the poster again."))
    return back(tournament, "entries:director_check_in_poster")


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
    """Type a name (typos forgiven), tap yours: the entry is checked in.

    Only with the door's code (`door`, from the QR code of the poster or the big screen):
    without it, 403 and why. Searches and check-ins are throttled per address.
    """
    tournament = get_tournament(request, club_slug, slug)
    door = (request.POST.get("door") or request.GET.get("door") or "")[:64]
    closed = selectors.self_check_in_refusal(tournament)
    refusal: ServiceError | None = closed or selectors.door_refusal(tournament, door)
    query = " ".join(request.GET.get("q", "").split())[:80]
    done = None
    # Self check-in turned off is a page that says so; without the door's code, 403.
    status = refusal.status if closed is None and refusal is not None else 200
    asks = request.method == "POST" or bool(query)
    if refusal is None and asks and not SelfCheckInThrottle().allow_request(request, None):  # type: ignore[arg-type]
        refusal = ServiceError(_("Too many check-ins from this address: wait a minute."))
        status = 429
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
            done = check_in_services.self_check_in(chosen, by=request.user, door=door)
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
            "door": door if refusal is None else "",
            "tab": "check_in",
        },
        status=status,
    )
