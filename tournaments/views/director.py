"""Director pages: set up a tournament, register, schedule, referees, live tables, print, export.

Only directors of the tournament's club get in: anonymous visitors are sent to sign in,
others get 403. Every action calls one service and turns a refusal into a message.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.models import Club
from club.registration import (
    ASK,
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
from ..errors import RoundNotReady, ServiceError
from ..forms import TeamForm, TournamentForm, players_form, teams_form
from ..models import Match, Round, Team, Tournament
from ..permissions import directed_club_ids, is_director
from ..scheduling.knockout import BRACKET_SIZES
from ..services import deals as deal_services
from ..services import director as director_services
from ..services import draws, registration, schedule
from ..services.settings import SettingsRefused
from ..standings.names import FIGURES
from .public import POLL_SECONDS, standings_context

View = Callable[..., HttpResponse]
ACTIONS = ("close", "reopen")
ROUND_ACTIONS = (*ACTIONS, "delete")
SHEET_LINES_WITHOUT_MAX = 20


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
    if not request.user.is_superuser:
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
            messages.success(request, _("Tournament created. Now register the teams."))
            return redirect("tournaments:director_teams", club_slug=club.slug, slug=tournament.slug)
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
    return {
        "tournament": tournament,
        "rounds": rounds,
        "disputes": selectors.disputes(rounds),
        "poll_seconds": POLL_SECONDS,
    }


@director_required
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tables_context(tournament)
    team_count = tournament.teams.filter(withdrawn=False).count()
    context.update(
        {
            "team_count": team_count,
            "locked": tournament.has_deals(),
            "statuses": Tournament.Status.choices,
            # The schedule exists and nobody can play it yet: one button publishes it.
            "ready_to_publish": bool(context["rounds"])
            and tournament.status in (Tournament.Status.DRAFT, Tournament.Status.OPEN),
            "is_director": True,
            "tab": "director",
        }
    )
    context.update(rounds_context(tournament, context["rounds"], team_count))
    return render(request, "tournaments/director/dashboard.html", context)


def rounds_context(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]], team_count: int
) -> dict[str, Any]:
    """What the dashboard offers next: draw a round (or why not), delete the last, start a final.

    Read from the tables the dashboard shows anyway (`schedule`): no query of its own.
    """
    try:
        upcoming, refusal = draws.what_comes_next(tournament, schedule), ""
    except ServiceError as error:
        upcoming, refusal = None, error.message
    rounds = [round_ for round_, _matches in schedule]
    last = rounds[-1] if rounds else None
    deletable = (
        last is not None
        and (last.is_knockout or tournament.is_round_by_round)
        and not any(match.deal_count for match in schedule[-1][1])
    )
    knockout = any(r.is_knockout for r in rounds)
    qualifying = [r for r in rounds if not r.is_knockout]
    planned = tournament.round_count if tournament.is_round_by_round else len(qualifying)
    sizes = [n for n in BRACKET_SIZES if n <= team_count] if not knockout else []
    return {
        "upcoming": upcoming,
        "draw_refusal": refusal,
        "deletable_round": last if deletable else None,
        "qualifying_drawn": len(qualifying),
        "qualifying_planned": planned,
        "bracket": tournament.bracket if tournament.has_final else None,
        "final_sizes": sizes,
        # A club's usual final: the semi-finals, or the quarter-finals when there are teams enough.
        "final_default": max((n for n in sizes if n <= 8), default=None),
        "final_ready": bool(qualifying) and len(qualifying) >= (planned or 0) and not knockout,
    }


@director_required
def tables_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The live tables alone, for polling: 204 while nothing changed since the page's version."""
    if request.GET.get("seq") == str(tournament.change_seq):
        return HttpResponse(status=204)
    return render(request, "tournaments/director/_tables.html", tables_context(tournament))


@require_POST
@director_required
def generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rounds = schedule.generate_round_robin(
            tournament, by=request.user, draw_lots=bool(request.POST.get("draw_lots"))
        )
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
        director_services.publish_tournament(tournament, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Published: the referees can now enter the deals at their tables.")
        )
    return back(tournament)


@require_POST
@director_required
def set_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        director_services.set_status(tournament, request.POST.get("status", ""), by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Status: %(status)s.") % {"status": tournament.get_status_display()}
        )
    return back(tournament)


@director_required
def teams(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = teams_form(request.POST or None)
    to_confirm = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        # Players not yet members are created only once the director has seen their names.
        new_members = CREATE if form.cleaned_data["confirm"] else ASK
        try:
            plan = registration.plan_team_players(tournament, text)
            added = registration.register_teams(
                tournament, text, by=request.user, new_members=new_members
            )
        except NewMembersToConfirm as ask:
            to_confirm = ask.plan
        except ServiceError as error:
            for problem in getattr(error, "problems", ()) or [error.message]:
                form.add_error("text", str(problem))
        else:
            registered = ngettext(
                "%(n)d team registered.", "%(n)d teams registered.", len(added)
            ) % {"n": len(added)}
            messages.success(request, f"{registered} {registered_message(plan)}")
            return back(tournament, "tournaments:director_teams")
    listed = tournament.teams.select_related("first_player", "second_player").order_by("seed")
    played = selectors.teams_with_deals(tournament)
    return render(
        request,
        "tournaments/director/teams.html",
        {
            "tournament": tournament,
            "form": form,
            "teams": listed,
            "played": played,
            "to_confirm": to_confirm,
            "tab": "director",
        },
    )


@director_required
def team_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Rename a team, change its players (before it has played), or delete it."""
    team = get_object_or_404(
        Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk
    )
    played = team.pk in selectors.teams_with_deals(tournament)
    form = TeamForm(request.POST or None, team=team, players_locked=played)
    if request.method == "POST" and form.is_valid():
        try:
            registration.edit_team(team, by=request.user, **form.changes())
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("%(team)s saved.") % {"team": team.name})
            return back(tournament, "tournaments:director_teams")
    return render(
        request,
        "tournaments/director/team_edit.html",
        {"tournament": tournament, "team": team, "form": form, "played": played, "tab": "director"},
    )


@require_POST
@director_required
def team_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    try:
        schedule_removed = registration.delete_team(team, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(team)s deleted.") % {"team": team.name})
        if schedule_removed:
            messages.warning(
                request, _("The schedule included this team and was removed: generate it again.")
            )
    return back(tournament, "tournaments:director_teams")


@require_POST
@director_required
def withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    try:
        director_services.withdraw_team(team, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(team)s withdrawn.") % {"team": team.name})
    return back(tournament, "tournaments:director_teams")


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
            director_services.close_round(round_, by=request.user, force=force)
        elif action == "delete":
            draws.delete_last_round(round_, by=request.user)
        else:
            director_services.reopen_round(round_, by=request.user)
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


def table_url(request: HttpRequest, match: Match) -> str:
    """The absolute address of the table's entry page, for its QR code."""
    return request.build_absolute_uri(reverse("tournaments:table", kwargs={"pk": match.pk}))


@director_required
def print_sheets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One printable score sheet per table, each with a QR code to its entry page."""
    rounds = list(tournament.rounds.all())
    wanted = request.GET.get("round", "")
    if not wanted.isdigit() and wanted != "all":
        # Sheets are printed a round at a time: by default the first round still to finish.
        open_numbers = selectors.open_round_numbers(tournament)
        wanted = str(selectors.current_round_number(rounds, open_numbers) or "all")
    matches = (
        tournament.matches.filter(ew_team__isnull=False)
        .select_related(
            "round",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
            "referee__player",
        )
        .order_by("round__number", "table")
    )
    if wanted.isdigit():
        matches = matches.filter(round__number=int(wanted))
    sheets = [{"match": m, "url": table_url(request, m)} for m in matches]
    # A sheet has a line for every deal the match can have; with a target only, room for 20.
    lines = tournament.house_rules.max_deals or SHEET_LINES_WITHOUT_MAX
    return render(
        request,
        "tournaments/director/print_sheets.html",
        {
            "tournament": tournament,
            "sheets": sheets,
            "rounds": rounds,
            "wanted": wanted,
            "lines": range(1, lines + 1),
        },
    )


@director_required
def print_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = standings_context(tournament, request.GET.get("after"))
    return render(request, "tournaments/director/print_standings.html", context)


# A cell a spreadsheet would read as a formula (CSV injection): =, +, -, @, or a tab or
# carriage return before one of them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """A text cell that starts like a formula gets a leading apostrophe (shown as text);
    numbers are left alone (-12 is a number, not a formula). Anything else (a player, a
    lazy string) is written as its text, so it is checked as text."""
    if cell is None or isinstance(cell, int | float):
        return cell
    text = str(cell)
    return "'" + text if text.startswith(_FORMULA_START) else text


class SafeWriter:
    """csv.writer whose every row goes through `spreadsheet_safe`: the only writer exports use."""

    def __init__(self, out: Any) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Any) -> Any:
        return self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def csv_response(filename: str) -> tuple[HttpResponse, SafeWriter]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # spreadsheets then read the accents right
    return response, SafeWriter(response)


@director_required
def export_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The export lists after-round tables only: a sheet kept for the records is never provisional.
    view = selectors.standings_after(tournament, request.GET.get("after"), live=False)
    response, writer = csv_response(f"{tournament.slug}-standings.csv")
    # Every figure of the line but Sonneborn–Berger, which the export has never carried.
    columns = [f for f in FIGURES if f != "sonneborn_berger"]
    writer.writerow(
        ["after_round", "rank", "team", "first_player", "second_player", *columns, "withdrawn"]
    )
    for row in view.lines():
        writer.writerow(
            [
                view.after,
                row.rank_label,
                row.team.name,
                row.team.first_player,
                row.team.second_player,
            ]
            + [getattr(row, c) for c in columns]
            + [int(row.withdrawn)]
        )
    return response


@director_required
def export_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response, writer = csv_response(f"{tournament.slug}-results.csv")
    writer.writerow(
        [
            "round",
            "table",
            "ns_team",
            "ew_team",
            "status",
            "deals",
            "ns_total",
            "ew_total",
            "pot",
            "winner",
            "closed",
        ]
    )
    for match in tournament.matches.select_related("round", "ns_team", "ew_team").order_by(
        "round__number", "table"
    ):
        writer.writerow(
            [
                match.round.number,
                match.table or "",
                match.ns_team.name,
                match.ew_team.name if match.ew_team else "",
                match.status if not match.is_bye else "bye",
                match.deal_count,
                match.ns_total,
                match.ew_total,
                match.pot,
                match.winner,
                int(match.is_closed),
            ]
        )
    return response
