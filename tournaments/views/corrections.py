"""A table's sheet after the fact: deals corrected and removed, the match closed and reopened."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.engine import Seat
from scoring.engine.cards import DEAL_VALUE
from scoring.forms import DealForm

from ..errors import DealChanged, DealRefused, ResultsFinal, ServiceError
from ..models import Deal, Match
from ..permissions import deal_write_refusal, is_director
from ..services import deals as services
from .table import (
    back_to_table,
    entry_in_words,
    match_for,
    new_form,
    render_table,
    seats_of,
    show_refusal,
)


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = match_for(request, pk)
    deal = get_object_or_404(Deal, match=match, number=number)
    write_refusal = deal_write_refusal(request.user, match)
    writable = write_refusal is None
    if isinstance(write_refusal, ResultsFinal):
        messages.error(request, write_refusal.message)
    status = 200
    if request.method == "POST":
        form = new_form(match, request.POST)
        if form.is_valid():
            assert form.entry is not None
            try:
                services.correct_deal(
                    match,
                    number,
                    form.entry,
                    by=request.user,
                    submission_key=form.cleaned_data["submission_key"] or None,
                    expected_version=request.POST.get("version") or None,
                )
            except DealRefused as refused:
                form.attach(refused.problems)
            except DealChanged as changed:
                # Show the deal as it stands; the form keeps this entry, now based on it.
                deal = changed.current
                context = _correct_context(request, match, deal, form, writable)
                context.update(
                    current=deal, changed=changed.message, current_words=entry_in_words(deal.entry)
                )
                template = "tournaments/referee/correct.html"
                return render(request, template, context, status=changed.status)
            except ServiceError as error:
                show_refusal(request, error)
                status = error.status
            else:
                messages.success(request, _("Deal %(number)s corrected.") % {"number": number})
                return back_to_table(match)
        status = status if status != 200 else 400
    else:
        form = new_form(match, initial=DealForm.initial_from_entry(deal.entry))
    context = _correct_context(request, match, deal, form, writable)
    return render(request, "tournaments/referee/correct.html", context, status=status)


def _correct_context(
    request: HttpRequest, match: Match, deal: Deal, form: DealForm, writable: bool
) -> dict[str, Any]:
    return {
        "match": match,
        "deal": deal,
        "form": form,
        "writable": writable,
        # A director removes any deal from here (the sheet's ✕ leads here).
        "may_remove": writable and is_director(request.user, match.tournament.club_id),
        "remove_key": uuid.uuid4().hex,
        "deal_value": DEAL_VALUE,
        "seats": [(s, seats_of(match)[s.value]) for s in Seat],
    }


@login_required
@require_POST
def remove_last(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's "remove the last deal": the form says which deal it saw last (and its
    version), so two pages, or a page left open, never remove a deal nobody saw."""
    match = match_for(request, pk)
    number = _posted_number(request)
    if number is None:
        messages.error(request, _("This page is out of date: reload it, then remove the deal."))
        return render_table(request, match, status=400)
    try:
        number = services.remove_last_deal(
            match,
            by=request.user,
            submission_key=request.POST.get("submission_key") or None,
            expected_number=number,
            expected_version=request.POST.get("version") or None,
        )
    except ServiceError as error:
        show_refusal(request, error)
        return render_table(request, match, status=error.status)
    messages.success(request, _("Deal %(number)s removed.") % {"number": number})
    return back_to_table(match)


@login_required
@require_POST
def remove_deal(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A director removes any deal of any match; the deals after it move up one number."""
    match = match_for(request, pk)
    try:
        services.remove_deal(
            match,
            number,
            by=request.user,
            submission_key=request.POST.get("submission_key") or None,
            expected_version=request.POST.get("version") or None,
        )
    except ServiceError as error:
        show_refusal(request, error)
        return render_table(request, match, status=error.status)
    messages.success(
        request,
        _("Deal %(number)s removed; the deals after it moved up one number.") % {"number": number},
    )
    return back_to_table(match)


def _posted_number(request: HttpRequest) -> int | None:
    value = request.POST.get("number", "")
    return int(value) if value.isdigit() and 0 < len(value) <= 5 else None


@login_required
@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    return _set_closed(
        request, pk, services.close_match, _("Match closed: read-only for its referee.")
    )


@login_required
@require_POST
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    return _set_closed(request, pk, services.reopen_match, _("Match reopened."))


def _set_closed(request: HttpRequest, pk: int, action: Any, done: str) -> HttpResponse:
    match = match_for(request, pk)
    try:
        action(match, by=request.user)
    except ServiceError as error:
        show_refusal(request, error)
        return render_table(request, match, status=error.status)
    messages.success(request, done)
    return back_to_table(match)
