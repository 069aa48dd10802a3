"""Referees without admin work: the director's referees page (names, private links and their QR
codes, who referees which table) and the private link's page, where a referee signs in."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.selectors import referee_users

from ..errors import ServiceError
from ..forms import RefereesForm, referees_form
from ..middleware import open_link_session, session_link_id
from ..models import RefereeLink, Tournament
from ..permissions import link_holders
from ..services import referees as referee_services
from ..services import table_referees
from .director import director_required

# The links made by the last action, with their secrets: shown once, then forgotten.
FRESH_LINKS = "belote_fresh_links"


def _page(tournament: Tournament, number: int | None = None) -> HttpResponse:
    url = reverse("tournaments:director_referees", args=[tournament.club.slug, tournament.slug])
    return redirect(f"{url}?round={number}" if number else url)


def _remember(request: HttpRequest, fresh: list[referee_services.FreshLink]) -> None:
    request.session[FRESH_LINKS] = [{"link": f.link.pk, "secret": f.secret} for f in fresh]


def link_url(request: HttpRequest, secret: str) -> str:
    return request.build_absolute_uri(reverse("tournaments:referee_link", args=[secret]))


def _fresh_links(request: HttpRequest, tournament: Tournament) -> list[dict[str, Any]]:
    remembered = {item["link"]: item["secret"] for item in request.session.pop(FRESH_LINKS, [])}
    links = RefereeLink.objects.filter(
        pk__in=remembered, tournament=tournament, revoked_at__isnull=True
    ).select_related("referee__player")
    return [{"link": link, "url": link_url(request, remembered[link.pk])} for link in links]


@director_required
def referees(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = list(tournament.rounds.all())
    wanted = request.GET.get("round", "")
    first_open = next((r.number for r in rounds if not r.is_closed), None)
    number = (
        int(wanted) if wanted.isdigit() else (first_open or (rounds[0].number if rounds else 0))
    )
    matches = list(
        tournament.matches.filter(round__number=number, ew_team__isnull=False)
        .select_related("ns_team", "ew_team")
        .order_by("table")
    )
    tables = sorted(
        {
            table
            for table in tournament.matches.filter(
                ew_team__isnull=False, round__is_closed=False
            ).values_list("table", flat=True)
            if table is not None
        }
    )
    users = list(referee_users(tournament.club))
    form = RefereesForm(request.POST or None, matches=matches, tables=tables, referees=users)
    if request.method == "POST" and form.is_valid():
        done = _save_assignments(request, tournament, form)
        if not form.errors:
            if done:
                messages.success(request, _("%(n)d tables updated.") % {"n": done})
            # A round tab is a submit button: what was chosen is saved before the switch.
            goto = request.POST.get("goto", "")
            return _page(tournament, int(goto) if goto.isdigit() else number)
    live = {
        link.referee_id: link
        for link in RefereeLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
    }
    holders = link_holders(users)
    people = [
        {"user": user, "link": live.get(user.pk), "may_hold_link": user.pk in holders}
        for user in users
    ]
    return render(
        request,
        "tournaments/director/referees.html",
        {
            "tournament": tournament,
            "form": form,
            "add_form": referees_form(),
            "people": people,
            "fresh": _fresh_links(request, tournament),
            "rounds": rounds,
            "number": number,
            "round_closed": any(r.is_closed for r in rounds if r.number == number),
            "tab": "director",
        },
    )


def _save_assignments(request: HttpRequest, tournament: Tournament, form: RefereesForm) -> int:
    done = 0
    for table, referee in form.table_changes():
        try:
            done += len(
                table_referees.assign_table_referee(tournament, table, referee, by=request.user)
            )
        except ServiceError as error:
            form.add_error(f"table_{table}", error.message)
    for match, referee in form.changes():
        match.tournament = tournament
        try:
            table_referees.assign_referee(match, referee, by=request.user)
            done += 1
        except ServiceError as error:
            form.add_error(f"match_{match.pk}", error.message)
    return done


@require_POST
@director_required
def add_referees(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = referees_form(request.POST)
    if form.is_valid():
        try:
            fresh = referee_services.add_referees(
                tournament, form.cleaned_data["text"], by=request.user
            )
        except ServiceError as error:
            for problem in getattr(error, "problems", ()) or [error.message]:
                messages.error(request, str(problem))
        else:
            _remember(request, fresh)
            messages.success(
                request,
                _("%(n)d referees ready: give each their link below.") % {"n": len(fresh)},
            )
    else:
        for problems in form.errors.values():
            for problem in problems:
                messages.error(request, str(problem))
    return _page(tournament)


@require_POST
@director_required
def make_link(request: HttpRequest, tournament: Tournament, user_id: int) -> HttpResponse:
    referee = referee_users(tournament.club).filter(pk=user_id).first()
    if referee is None:
        raise Http404
    try:
        fresh = referee_services.make_referee_link(tournament, referee, by=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        _remember(request, [fresh])
    return _page(tournament)


@require_POST
@director_required
def revoke_link(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    link = get_object_or_404(
        RefereeLink.objects.select_related("tournament", "referee__player"),
        tournament=tournament,
        pk=pk,
    )
    referee_services.revoke_referee_link(link, by=request.user)
    messages.success(
        request,
        _("The link of %(name)s no longer works.")
        % {"name": getattr(getattr(link.referee, "player", None), "full_name", link.referee)},
    )
    return _page(tournament)


# --- the private link's page ----------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def link_sign_in(request: HttpRequest, secret: str) -> HttpResponse:
    """GET shows whom the link is for, POST signs them in: a link preview or a prefetch never
    opens a session, and nobody is signed out by a page that merely loads the address."""
    link = RefereeLink.find(secret)
    if link is None:
        return render(request, "tournaments/referee/link.html", {"link": None}, status=404)
    if not link.is_live:
        return render(request, "tournaments/referee/link.html", {"link": link}, status=410)
    if session_link_id(request) == link.pk and request.user.pk == link.referee_id:
        return redirect("tournaments:my_tables")
    if request.method == "POST":
        try:
            link = referee_services.use_referee_link(secret)
        except ServiceError:
            return render(request, "tournaments/referee/link.html", {"link": link}, status=410)
        login(request, link.referee, backend="django.contrib.auth.backends.ModelBackend")
        open_link_session(request, link)
        return redirect("tournaments:my_tables")
    return render(request, "tournaments/referee/link.html", {"link": link})
