"""Director pages: set up a tournament, its schedule and status, follow and close its tables.

Only directors of the tournament's club get in: anonymous visitors are sent to sign in,
others get 403. Every action calls one service and turns a refusal into a message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.models import Club
from club.pages import sections
from club.registration import (
    ASK_IF_SIMILAR,
    CREATE,
    NamesPlan,
    NewMembersToConfirm,
    pasted_lines,
    plan_names,
    register_players,
)
from club.selectors import members

from .. import selectors
from ..errors import EntriesNotCheckedIn, RoundNotReady, ServiceError
from ..forms import TournamentForm, players_form
from ..models import Match, Round, Tournament
from ..permissions import (
    directed_club_ids,
    is_director,
    is_site_admin,
    reopen_results_refusal,
)
from ..scheduling.knockout import BRACKET_SIZES
from ..services import deals as deal_services
from ..services import draw_edits, draws, results, round_closing, schedule
from ..services import status as tournament_status
from ..services.actions import available_actions
from ..services.results import REASON_MAX
from ..services.settings import SettingsRefused
from .public import POLL_SECONDS

View = Callable[..., HttpResponse]
ACTIONS = ("close", "reopen")
ROUND_ACTIONS = (*ACTIONS, "delete")


def director_required(view: View) -> View:
    """Resolve the club (and tournament) from the URL and let only its directors through."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, club_slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = get_object_or_404(Club, slug=club_slug)
        if not is_director(request.user, club.pk):
            raise PermissionDenied
        slug = kwargs.pop("slug", None)
        if slug is None:
            return view(request, club, *args, **kwargs)
        tournament = get_object_or_404(
            Tournament.objects.select_related("club", "bracket"), club=club, slug=slug
        )
        return view(request, tournament, *args, **kwargs)

    return wrapped


def back(tournament: Tournament, name: str = "tournaments:director") -> HttpResponse:
    return redirect(name, club_slug=tournament.club.slug, slug=tournament.slug)


def refused(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, error.message)


def director_index(request: HttpRequest) -> HttpResponse:
    """The header's Direct link: the club one directs, or the list when one directs several."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    clubs = Club.objects.order_by("name")
    if not is_site_admin(request.user):
        clubs = clubs.filter(pk__in=directed_club_ids(request.user))
    listed = list(clubs)
    if not listed:
        raise PermissionDenied
    if len(listed) == 1:
        return redirect("tournaments:director_club", club_slug=listed[0].slug)
    return render(request, "tournaments/director/index.html", {"clubs": listed})


def registered_message(plan: NamesPlan) -> str:
    """What a registration did with the names: members created, and those already members."""
    parts = []
    if plan.new:
        parts.append(
            ngettext("%(n)d new member registered.", "%(n)d new members registered.", len(plan.new))
            % {"n": len(plan.new)}
        )
    if plan.existing:
        parts.append(
            ngettext(
                "%(n)d player was already a member.",
                "%(n)d players were already members.",
                len(plan.existing),
            )
            % {"n": len(plan.existing)}
        )
    return " ".join(parts)


@director_required
def club_home(request: HttpRequest, club: Club) -> HttpResponse:
    form = players_form(request.POST or None)
    to_confirm = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        # A name close to a member's may be a typo: ask before creating it (once confirmed, create).
        new_members = CREATE if form.cleaned_data["confirm"] else ASK_IF_SIMILAR
        try:
            plan = plan_names(club, [line for _n, line in pasted_lines(text)])
            register_players(club, text, by=request.user, new_members=new_members)
        except NewMembersToConfirm as ask:
            to_confirm = ask.plan
        except ServiceError as error:
            form.add_error("text", error.message)
        else:
            messages.success(request, registered_message(plan))
            return redirect("tournaments:director_club", club_slug=club.slug)
    tournaments = club.tournaments.order_by("-starts_on", "name")  # type: ignore[attr-defined]
    return render(
        request,
        "tournaments/director/club.html",
        {
            "club": club,
            "tournaments": tournaments,
            "form": form,
            "members": members(club),
            # What apps above add to the club's page (its seasons and series, seasons/).
            "sections": sections("tournaments:director_club", club=club, request=request),
            "to_confirm": to_confirm,
        },
    )


@director_required
def tournament_new(request: HttpRequest, club: Club) -> HttpResponse:
    form = TournamentForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = form.save(by=request.user)
        except SettingsRefused as refused:
            form.show(refused)
        else:
            if tournament.is_individual:
                messages.success(request, _("Tournament created. Now register the players."))
                page = "tournaments:director_entrants"
            else:
                messages.success(request, _("Tournament created. Now register the teams."))
                page = "tournaments:director_teams"
            return redirect(page, club_slug=club.slug, slug=tournament.slug)
    return render(
        request, "tournaments/director/tournament_form.html", {"club": club, "form": form}
    )


@director_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, club=tournament.club, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = form.save(by=request.user)
        except SettingsRefused as refused:
            form.show(refused)
        else:
            messages.success(request, _("Tournament saved."))
            return back(tournament)
    return render(
        request,
        "tournaments/director/tournament_form.html",
        {"club": tournament.club, "form": form, "tournament": tournament},
    )


def tables_context(tournament: Tournament) -> dict[str, Any]:
    """Every table of the tournament, round by round, for the live view (two queries)."""
    rounds = selectors.tables(tournament)
    calls = selectors.waiting_calls(rounds)
    return {
        "tournament": tournament,
        "rounds": rounds,
        "disputes": selectors.disputes(rounds),
        "calls": calls,
        # The polling version: a call changes the page without changing the tournament.
        "tables_version": tables_version(tournament, calls),
        "editable_rounds": {
            round_.number
            for round_, matches in rounds
            if draw_edits.swap_refusal(round_, matches) is None
        },
        "poll_seconds": POLL_SECONDS,
    }


def tables_version(tournament: Tournament, calls: list[Any]) -> str:
    """The tournament's change number, and the calls waiting (a call changes no result)."""
    waiting = ",".join(str(call.pk) for call in calls)
    return f"{tournament.change_seq}.{waiting}" if waiting else str(tournament.change_seq)


@director_required
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tables_context(tournament)
    # An individual tournament's entries are players (its teams, the rounds' partnerships).
    team_count = selectors.players.entries(tournament).filter(withdrawn=False).count()
    context.update(
        {
            "team_count": team_count,
            "statuses": Tournament.Status.choices,
            "is_director": True,
            "tab": "director",
            "may_reopen": reopen_results_refusal(request.user, tournament) is None,
            "reason_max": REASON_MAX,
        }
    )
    context.update(rounds_context(tournament, context["rounds"], team_count))
    return render(request, "tournaments/director/dashboard.html", context)


def rounds_context(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]], team_count: int
) -> dict[str, Any]:
    """What the dashboard offers next, each button shown exactly when its action would
    succeed (`actions`: the services' own refusals, None where allowed), with the next round
    to draw and the final's sizes.

    Read from the tables the dashboard shows anyway (`schedule`): no query of its own.
    """
    refusals = available_actions(tournament, schedule, teams=team_count)
    upcoming = draws.what_comes_next(tournament, schedule) if refusals["draw"] is None else None
    rounds = [round_ for round_, _matches in schedule]
    knockout = any(r.is_knockout for r in rounds)
    qualifying = [r for r in rounds if not r.is_knockout]
    planned = tournament.round_count if tournament.is_round_by_round else len(qualifying)
    sizes = [n for n in BRACKET_SIZES if n <= team_count] if not knockout else []
    return {
        "actions": refusals,
        "upcoming": upcoming,
        "last_round": rounds[-1] if rounds else None,
        "qualifying_drawn": len(qualifying),
        "qualifying_planned": planned,
        "bracket": tournament.bracket if tournament.has_final else None,
        "final_sizes": sizes,
        # A club's usual final: the semi-finals, or the quarter-finals when there are teams enough.
        "final_default": max((n for n in sizes if n <= 8), default=None),
        # Where the final's card shows (its button or why not): a team format whose
        # qualifying rounds are all drawn.
        "final_offered": bool(qualifying)
        and len(qualifying) >= (planned or 0)
        and not knockout
        and not tournament.is_individual,
    }


@director_required
def tables_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The live tables alone, for polling: 204 while nothing changed since the page's version."""
    if request.GET.get("seq") == tables_version(tournament, list(selectors.open_calls(tournament))):
        return HttpResponse(status=204)
    return render(request, "tournaments/director/_tables.html", tables_context(tournament))


@require_POST
@director_required
def generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rounds = schedule.generate_round_robin(
            tournament,
            by=request.user,
            draw_lots=bool(request.POST.get("draw_lots")),
            leave_out_expected=request.POST.get("leave_out_expected") == "1",
        )
    except EntriesNotCheckedIn as asked:
        # Asked first: the director checks the late teams in, or generates without them.
        context = {
            "tournament": tournament,
            "reason": asked.message,
            "expected": asked.expected,
            "draw_lots": bool(request.POST.get("draw_lots")),
            "tab": "director",
        }
        return render(request, "tournaments/director/generate_confirm.html", context)
    except ServiceError as error:
        refused(request, error)
    else:
        text = ngettext(
            "Schedule generated: %(n)d round.", "Schedule generated: %(n)d rounds.", len(rounds)
        )
        messages.success(request, text % {"n": len(rounds)})
    return back(tournament)


@require_POST
@director_required
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.publish_tournament(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Published: the referees can now enter the deals at their tables.")
        )
    return back(tournament)


@require_POST
@director_required
def finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.finish_tournament(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("Finished: these standings are the final ones."))
    return back(tournament)


@require_POST
@director_required
def set_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_status.set_status(tournament, request.POST.get("status", ""), by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Status: %(status)s.") % {"status": tournament.get_status_display()}
        )
    return back(tournament)


@require_POST
@director_required
def reopen_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        results.reopen_results(tournament, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request,
            _("Results reopened: they are provisional until the tournament is finished again."),
        )
    return back(tournament)


@require_POST
@director_required
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    if action not in ROUND_ACTIONS:
        raise Http404
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    try:
        if action == "close":
            force = request.POST.get("force") == "1"
            round_closing.close_round(round_, by=request.user, force=force)
        elif action == "delete":
            draws.delete_last_round(round_, by=request.user)
        else:
            round_closing.reopen_round(round_, by=request.user)
    except RoundNotReady as not_ready:
        # Asked first: the director sees which tables are not done and closes anyway or not.
        context = {
            "tournament": tournament,
            "round": round_,
            "reason": not_ready.message,
            "tab": "director",
        }
        return render(request, "tournaments/director/close_round.html", context)
    except ServiceError as error:
        refused(request, error)
    else:
        texts = {
            "close": _("Round %(n)d closed."),
            "reopen": _("Round %(n)d reopened."),
            "delete": _("%(round)s deleted: it can be drawn again."),
        }
        messages.success(request, texts[action] % {"n": number, "round": round_})
    return back(tournament)


@require_POST
@director_required
def match_action(
    request: HttpRequest, tournament: Tournament, pk: int, action: str
) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404
    match = get_object_or_404(
        Match.objects.select_related("tournament"), tournament=tournament, pk=pk
    )
    service = deal_services.close_match if action == "close" else deal_services.reopen_match
    try:
        service(match, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        text = _("Table %(t)s closed.") if action == "close" else _("Table %(t)s reopened.")
        messages.success(request, text % {"t": match.table})
    return back(tournament)
