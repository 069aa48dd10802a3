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
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.models import Club, Membership
from club.registration import register_players
from club.selectors import members

from .. import selectors
from ..errors import ServiceError
from ..forms import RefereesForm, TournamentForm, players_form, teams_form
from ..models import Match, Round, Team, Tournament
from ..permissions import is_director
from ..services import deals as deal_services
from ..services import director as director_services
from ..services import registration, schedule
from ..services.settings import SettingsRefused
from ..standings.names import FIGURES
from .public import POLL_SECONDS, standings_context

View = Callable[..., HttpResponse]
ACTIONS = ("close", "reopen")


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
            Tournament.objects.select_related("club"), club=club, slug=slug
        )
        return view(request, tournament, *args, **kwargs)

    return wrapped


def back(tournament: Tournament, name: str = "tournaments:director") -> HttpResponse:
    return redirect(name, club_slug=tournament.club.slug, slug=tournament.slug)


def refused(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, error.message)


@director_required
def club_home(request: HttpRequest, club: Club) -> HttpResponse:
    form = players_form(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            players = register_players(club, form.cleaned_data["text"], by=request.user)
        except ServiceError as error:
            form.add_error("text", error.message)
        else:
            messages.success(request, _("%(n)d players registered.") % {"n": len(players)})
            return redirect("tournaments:director_club", club_slug=club.slug)
    tournaments = club.tournaments.order_by("-starts_on", "name")  # type: ignore[attr-defined]
    return render(
        request,
        "tournaments/director/club.html",
        {"club": club, "tournaments": tournaments, "form": form, "members": members(club)},
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
    return {
        "tournament": tournament,
        "rounds": selectors.tables(tournament),
        "poll_seconds": POLL_SECONDS,
    }


@director_required
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tables_context(tournament)
    context.update(
        {
            "team_count": tournament.teams.filter(withdrawn=False).count(),
            "locked": tournament.has_deals(),
            "statuses": Tournament.Status.choices,
            "is_director": True,
            "tab": "director",
        }
    )
    return render(request, "tournaments/director/dashboard.html", context)


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
        messages.success(request, _("Schedule generated: %(n)d rounds.") % {"n": len(rounds)})
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
    if request.method == "POST" and form.is_valid():
        try:
            added = registration.register_teams(
                tournament, form.cleaned_data["text"], by=request.user
            )
        except ServiceError as error:
            for problem in getattr(error, "problems", ()) or [error.message]:
                form.add_error("text", str(problem))
        else:
            messages.success(request, _("%(n)d teams registered.") % {"n": len(added)})
            return back(tournament, "tournaments:director_teams")
    listed = tournament.teams.select_related("first_player", "second_player").order_by("seed")
    return render(
        request,
        "tournaments/director/teams.html",
        {"tournament": tournament, "form": form, "teams": listed, "tab": "director"},
    )


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


@director_required
def referees(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = list(tournament.rounds.all())
    wanted = request.GET.get("round", "")
    number = int(wanted) if wanted.isdigit() else (rounds[0].number if rounds else 0)
    matches = list(
        tournament.matches.filter(round__number=number, ew_team__isnull=False)
        .select_related("ns_team", "ew_team")
        .order_by("table")
    )
    users = list(
        get_user_model()
        .objects.filter(
            player__memberships__club=tournament.club,
            player__memberships__role__in=[Membership.Role.REFEREE, Membership.Role.DIRECTOR],
        )
        .select_related("player")
        .distinct()
        .order_by("player__last_name", "player__first_name", "username")
    )
    form = RefereesForm(request.POST or None, matches=matches, referees=users)
    if request.method == "POST" and form.is_valid():
        done = 0
        for match, referee in form.changes():
            match.tournament = tournament
            try:
                director_services.assign_referee(match, referee, by=request.user)
                done += 1
            except ServiceError as error:
                form.add_error(f"match_{match.pk}", error.message)
        if form.is_valid() and not form.errors:
            messages.success(request, _("%(n)d tables updated.") % {"n": done})
            url = reverse(
                "tournaments:director_referees", args=[tournament.club.slug, tournament.slug]
            )
            return redirect(f"{url}?round={number}")
    return render(
        request,
        "tournaments/director/referees.html",
        {
            "tournament": tournament,
            "form": form,
            "rounds": rounds,
            "number": number,
            "tab": "director",
        },
    )


@require_POST
@director_required
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    service = director_services.close_round if action == "close" else director_services.reopen_round
    try:
        service(round_, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        text = _("Round %(n)d closed.") if action == "close" else _("Round %(n)d reopened.")
        messages.success(request, text % {"n": number})
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
    return render(
        request,
        "tournaments/director/print_sheets.html",
        {
            "tournament": tournament,
            "sheets": sheets,
            "rounds": rounds,
            "wanted": wanted,
            "lines": range(1, 21),
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
    view = selectors.standings_after(tournament, request.GET.get("after"))
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
