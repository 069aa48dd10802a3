"""Referee pages: "My tables", the table page with its deal form, corrections, removal, close/reopen."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Min, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.engine import InvalidMatch, Seat, Suit
from scoring.engine.cards import DEAL_VALUE
from scoring.forms import DealForm, problem_message
from scoring.translation import SUIT_NAMES, seat_abbreviation, side_abbreviation, suit_symbol

from ..errors import DealRefused, NotAllowed, ServiceError
from ..models import Deal, Match, Round, Side, Tournament
from ..permissions import can_open_table, can_write_deals, directed_club_ids, is_director
from ..rules_text import rules_in_words
from ..services import deals as services

# --- My tables ------------------------------------------------------------------------------


@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.pk is not None  # signed in
    running = Match.objects.filter(
        tournament__status=Tournament.Status.RUNNING, ew_team__isnull=False
    )
    if user.is_superuser:
        mine = running
    else:
        clubs = directed_club_ids(user)
        mine = running.filter(Q(referee_id=user.pk) | Q(tournament__club_id__in=clubs))
    # The round being played: the lowest open round that still has a match to finish.
    current = dict(
        Round.objects.filter(
            tournament__in=mine.values("tournament_id"),
            is_closed=False,
            matches__ew_team__isnull=False,
            matches__status__in=[Match.Status.SCHEDULED, Match.Status.PLAYING],
        )
        .values_list("tournament_id")
        .annotate(first=Min("number"))
    )
    matches = [
        m
        for m in mine.select_related(
            "tournament", "round", "referee", "ns_team", "ew_team"
        ).order_by("tournament__name", "round__number", "table")
        if m.status == Match.Status.PLAYING or current.get(m.tournament_id) == m.round.number
    ]
    return render(request, "tournaments/referee/my_tables.html", {"matches": matches})


# --- the table page -------------------------------------------------------------------------


def _match_for(request: HttpRequest, pk: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "tournament__club",
            "round",
            "referee",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        ),
        pk=pk,
    )
    if not can_open_table(request.user, match):
        raise PermissionDenied
    return match


def _seats(match: Match) -> dict[str, Any]:
    """The player in each seat: the first-named player of a team sits N (or E)."""
    assert match.ew_team is not None
    return {
        Seat.N.value: match.ns_team.first_player,
        Seat.E.value: match.ew_team.first_player,
        Seat.S.value: match.ns_team.second_player,
        Seat.W.value: match.ew_team.second_player,
    }


def _new_form(match: Match, data: Any = None, initial: dict[str, Any] | None = None) -> DealForm:
    seats = {seat: str(player) for seat, player in _seats(match).items()}
    initial = {**(initial or {}), "submission_key": uuid.uuid4().hex}
    return DealForm(
        data,
        initial=initial,
        rules=match.tournament.rules or None,
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


def _render_table(
    request: HttpRequest, match: Match, form: DealForm | None = None, status: int = 200
) -> HttpResponse:
    seats = _seats(match)
    director = is_director(request.user, match.tournament.club_id)
    writable = can_write_deals(request.user, match)
    replay, replay_problems = None, []
    try:
        replay = services.replay(match)
    except InvalidMatch as invalid:
        replay_problems = [f"{p.path}: {problem_message(p)}" for p in invalid.problems]
    over = replay.over if replay is not None else match.status == Match.Status.FINISHED
    if over or not writable:
        form = None  # nothing more can be entered here: show the deals, not a form
    elif form is None:
        form = _new_form(match)
    next_dealer = replay.next_dealer.value if replay and replay.next_dealer else None
    context = {
        "match": match,
        "tournament": match.tournament,
        "seats": [(s, seats[s.value]) for s in Seat],
        "rules": rules_in_words(match.tournament.rules or None),
        "next_dealer": seats.get(next_dealer) if next_dealer else None,
        "next_dealer_seat": next_dealer,
        "replay_problems": replay_problems,
        "rows": _deal_rows(match, seats),
        "form": form,
        "over": over,
        "writable": writable,
        "is_director": director,
        "deal_value": DEAL_VALUE,
        "remove_key": uuid.uuid4().hex,
        "audit": _audit_rows(match) if director else None,
    }
    return render(request, "tournaments/referee/table.html", context, status=status)


def _refused(request: HttpRequest, error: ServiceError) -> None:
    if isinstance(error, NotAllowed):
        raise PermissionDenied(error.message)
    messages.error(request, error.message)


def _back_to_table(match: Match, anchor: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("tournaments:table", kwargs={"pk": match.pk}) + anchor)


@login_required
@require_http_methods(["GET", "POST"])
def table(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_for(request, pk)
    if request.method == "GET":
        return _render_table(request, match)
    form = _new_form(match, request.POST)
    if form.is_valid():
        assert form.entry is not None
        try:
            deal = services.enter_deal(
                match,
                form.entry,
                by=request.user,
                submission_key=form.cleaned_data["submission_key"] or None,
            )
        except DealRefused as refused:
            form.attach(refused.problems)
        except ServiceError as error:
            _refused(request, error)
            return _render_table(request, match, form, status=error.status)
        else:
            messages.success(request, _("Deal %(number)s entered.") % {"number": deal.number})
            return _back_to_table(match, f"#deal-{deal.number}")
    return _render_table(request, match, form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = _match_for(request, pk)
    deal = get_object_or_404(Deal, match=match, number=number)
    writable = can_write_deals(request.user, match)
    status = 200
    if request.method == "POST":
        form = _new_form(match, request.POST)
        if form.is_valid():
            assert form.entry is not None
            try:
                services.correct_deal(
                    match,
                    number,
                    form.entry,
                    by=request.user,
                    submission_key=form.cleaned_data["submission_key"] or None,
                )
            except DealRefused as refused:
                form.attach(refused.problems)
            except ServiceError as error:
                _refused(request, error)
                status = error.status
            else:
                messages.success(request, _("Deal %(number)s corrected.") % {"number": number})
                return _back_to_table(match, f"#deal-{number}")
        status = status if status != 200 else 400
    else:
        form = _new_form(match, initial=DealForm.initial_from_entry(deal.entry))
    context = {
        "match": match,
        "deal": deal,
        "form": form,
        "writable": writable,
        "deal_value": DEAL_VALUE,
        "seats": [(s, _seats(match)[s.value]) for s in Seat],
    }
    return render(request, "tournaments/referee/correct.html", context, status=status)


@login_required
@require_POST
def remove_last(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_for(request, pk)
    try:
        number = services.remove_last_deal(
            match, by=request.user, submission_key=request.POST.get("submission_key") or None
        )
    except ServiceError as error:
        _refused(request, error)
        return _render_table(request, match, status=error.status)
    messages.success(request, _("Deal %(number)s removed.") % {"number": number})
    return _back_to_table(match)


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
    match = _match_for(request, pk)
    try:
        action(match, by=request.user)
    except ServiceError as error:
        _refused(request, error)
        return _render_table(request, match, status=error.status)
    messages.success(request, done)
    return _back_to_table(match)
