"""The table page: the sheet, its deal form, the dealers ahead, the teams' confirmation."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.engine import InvalidMatch, Seat, Suit, parse_rules
from scoring.engine.cards import DEAL_VALUE
from scoring.engine.match import dealer_of
from scoring.forms import DealForm
from scoring.rules_text import rules_in_words
from scoring.translation import SUIT_NAMES, seat_abbreviation, side_abbreviation, suit_symbol

from ..errors import DealNumberTaken, DealRefused, NotAllowed, ResultsFinal, ServiceError
from ..models import SEATS_PREFETCH, Match, Side
from ..permissions import (
    can_call_director,
    can_confirm_for,
    can_open_table,
    deal_write_refusal,
    is_director,
)
from ..services import deals as services
from ..services.calls import REASON_MAX
from ..services.confirmations import confirm_sheet
from .offline import CACHE_NAME


def match_for(request: HttpRequest, pk: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "tournament__club",
            "round",
            "referee",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        ).prefetch_related("confirmations__by", SEATS_PREFETCH),
        pk=pk,
    )
    if not can_open_table(request.user, match):
        raise PermissionDenied
    return match


def seats_of(match: Match) -> dict[str, Any]:
    """The player in each seat (`Match.seated_players`: a team's first player sits N or E)."""
    assert match.ew_team is not None
    return {seat.value: player for seat, player in match.seated_players()}


def new_form(match: Match, data: Any = None, initial: dict[str, Any] | None = None) -> DealForm:
    seats = {seat: str(player) for seat, player in seats_of(match).items()}
    initial = {
        "number": match.deal_count + 1,
        **(initial or {}),
        "submission_key": uuid.uuid4().hex,
    }
    return DealForm(
        data,
        initial=initial,
        rules=match.rules,
        seats=seats,
        team_names={Side.NS: str(match.ns_team), Side.EW: str(match.ew_team)},
    )


def _deal_rows(match: Match, seats: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for deal in match.deals.all():
        entry, result = deal.entry, deal.result or {}
        taker = entry.get("taker")
        rows.append(
            {
                "deal": deal,
                "dealer": seats.get(deal.dealer),
                "taker": seats.get(taker) if taker else None,
                "taker_seat": taker,
                "trump": suit_symbol(entry.get("trump")),
                "trump_name": SUIT_NAMES.get(Suit(entry["trump"])) if entry.get("trump") else "",
                "cards": result.get("cards", {}),
                "declarations": result.get("declarations", {}),
                "declared": entry.get("declarations", {}),
                "belote": deal.belote_side,
                "pot_awarded": result.get("pot_awarded", {}),
            }
        )
    return rows


def entry_in_words(entry: Any) -> str:
    """A stored §8 entry said briefly, for the audit trail: `E ♥ · EW 60 · belote NS`."""
    if not isinstance(entry, dict):
        return ""
    if not entry.get("taker"):
        return _("all passed")
    parts = [f"{seat_abbreviation(entry['taker'])} {suit_symbol(entry.get('trump')) or '?'}"]
    points = entry.get("points")
    if points:
        parts.append(f"{side_abbreviation(points.get('team'))} {points.get('cards')}")
    if entry.get("capot"):
        parts.append(_("capot %(team)s") % {"team": side_abbreviation(entry["capot"])})
    if entry.get("belote"):
        parts.append(_("belote %(team)s") % {"team": side_abbreviation(entry["belote"])})
    for team, items in (entry.get("declarations") or {}).items():
        if items:
            named = [
                f"4×{d.get('rank')}"
                if d.get("type") == "four"
                else f"{d.get('length')}{d.get('top') or ''}{suit_symbol(d.get('suit'))}"
                for d in items
            ]
            parts.append(f"{side_abbreviation(team)}: {', '.join(named)}")
    return " · ".join(parts)


def _audit_rows(match: Match) -> list[dict[str, Any]]:
    return [
        {"row": row, "before": entry_in_words(row.before), "after": entry_in_words(row.after)}
        for row in match.audit.select_related("by").order_by("-at", "-id")
    ]


# Upcoming dealers named ahead, so a phone entering deals offline can say who deals next.
DEALERS_AHEAD = 8


def _upcoming_dealers(match: Match, seats: dict[str, Any], count: int) -> list[dict[str, Any]]:
    try:
        direction = parse_rules(match.rules).direction
        first = Seat(match.first_dealer)
    except (ValueError, InvalidMatch):
        return []
    upcoming = []
    for index in range(count, count + DEALERS_AHEAD):
        seat = dealer_of(first, index, direction).value
        upcoming.append({"seat": seat, "player": seats.get(seat)})
    return upcoming


def _answers(match: Match) -> list[dict[str, Any]]:
    """Each team's answer to the finished sheet, for the confirmation panel."""
    by_side = {c.side: c for c in match.confirmations.all()}  # type: ignore[attr-defined]
    team = {Side.NS.value: match.ns_team, Side.EW.value: match.ew_team}
    return [
        {"side": side.value, "team": team[side.value], "answer": by_side.get(side.value)}
        for side in Side
    ]


def _event_rows(match: Match) -> list[dict[str, Any]]:
    # Each action's label, said in the reader's language (MatchEvent.Action).
    return [
        {"event": event, "label": event.get_action_display()}
        for event in match.events.select_related("by").order_by("-at", "-id")
    ]


def render_table(
    request: HttpRequest,
    match: Match,
    form: DealForm | None = None,
    status: int = 200,
    refusal: str = "",
) -> HttpResponse:
    seats = seats_of(match)
    director = is_director(request.user, match.tournament.club_id)
    write_refusal = deal_write_refusal(request.user, match)
    writable = write_refusal is None
    results_final = write_refusal if isinstance(write_refusal, ResultsFinal) else None
    # The stored state: the deal services replay the match on every write and store its
    # totals, status and deal count, so a page only reads them.
    over = match.status == Match.Status.FINISHED
    if over or not writable:
        form = None  # nothing more can be entered here: show the deals, not a form
    elif form is None:
        form = new_form(match)
    rows = _deal_rows(match, seats)
    upcoming = _upcoming_dealers(match, seats, len(rows)) if not over else []
    next_dealer = upcoming[0]["seat"] if upcoming else None
    context = {
        "match": match,
        "tournament": match.tournament,
        "seats": [(s, seats[s.value]) for s in Seat],
        "rules": rules_in_words(match.rules),
        "next_dealer": seats.get(next_dealer) if next_dealer else None,
        "next_dealer_seat": next_dealer,
        "upcoming_dealers": upcoming if form else [],
        "rows": rows,
        "last": rows[-1] if rows else None,
        "form": form,
        # Why an entry sent late was refused (the page's script offers to send it anyway).
        "refusal": refusal or (results_final.code if results_final else ""),
        "results_final": results_final,
        "over": over,
        "writable": writable,
        "is_director": director,
        "answers": _answers(match) if over else [],
        "may_confirm": over and can_confirm_for(request.user, match),
        "deal_value": DEAL_VALUE,
        "remove_key": uuid.uuid4().hex,
        "audit": _audit_rows(match) if director else None,
        "events": _event_rows(match) if director else None,
        "outbox_owner": request.user.pk,
        "may_call": can_call_director(request.user, match),
        "waiting_call": match.calls.filter(answered_at__isnull=True).first(),
        "reason_max": REASON_MAX,
        "cache_name": CACHE_NAME,
        # The match as the engine on the phone replays it with the deals waiting to be sent
        # (static/js/table-outbox.js): the stored entries, its house rules and first dealer.
        "engine_game": {
            "rules": match.rules or {},
            "first_dealer": match.first_dealer,
            "deals": [row["deal"].entry for row in rows],
        },
    }
    return render(request, "tournaments/referee/table.html", context, status=status)


def show_refusal(request: HttpRequest, error: ServiceError) -> None:
    if isinstance(error, NotAllowed):
        raise PermissionDenied(error.message)
    if isinstance(error, ResultsFinal):
        return  # the page says it once, in place of its form (`results_final`)
    messages.error(request, error.message)


def back_to_table(match: Match) -> HttpResponseRedirect:
    # No #anchor: the page opens at the top, with the next deal's form in view.
    return HttpResponseRedirect(reverse("tournaments:table", kwargs={"pk": match.pk}))


@login_required
@require_http_methods(["GET", "POST"])
def table(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_for(request, pk)
    if request.method == "GET":
        return render_table(request, match)
    form = new_form(match, request.POST)
    if form.is_valid():
        assert form.entry is not None
        try:
            deal = services.enter_deal(
                match,
                form.entry,
                by=request.user,
                submission_key=form.cleaned_data["submission_key"] or None,
                expected_number=form.cleaned_data.get("number"),
            )
        except DealRefused as refused:
            form.attach(refused.problems)
        except DealNumberTaken as taken:
            # Typically an entry kept offline while the director entered the same deal. The
            # entry stays in the form, now meant as the next deal: saving it again adds it.
            match.refresh_from_db()
            data = request.POST.copy()
            data["number"] = str(match.deal_count + 1)
            form = new_form(match, data)
            form.is_valid()
            form.add_error(None, taken.message)
            return render_table(request, match, form, status=taken.status, refusal=taken.code)
        except ServiceError as error:
            show_refusal(request, error)
            return render_table(request, match, form, status=error.status)
        else:
            messages.success(request, _("Deal %(number)s saved.") % {"number": deal.number})
            return back_to_table(match)
    return render_table(request, match, form, status=400)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's one tap on the finished sheet: agree, or dispute (with an optional remark)."""
    match = match_for(request, pk)
    side = request.POST.get("team", "")
    agree = request.POST.get("agree") == "1"
    try:
        confirm_sheet(
            match, side=side, agree=agree, by=request.user, remark=request.POST.get("remark", "")
        )
    except ServiceError as error:
        show_refusal(request, error)
        return render_table(request, match_for(request, pk), status=error.status)
    team = match.ns_team if side == Side.NS else match.ew_team
    if agree:
        messages.success(request, _("%(team)s confirmed the sheet.") % {"team": team})
    else:
        messages.warning(
            request, _("%(team)s dispute the sheet: the director is alerted.") % {"team": team}
        )
    return back_to_table(match)
