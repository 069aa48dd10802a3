"""Director pages: the gate every one of them passes, the club's page, a tournament set up.

Only directors of the tournament's club get in: anonymous visitors are sent to sign in,
others get 403. Every action calls one service and turns a refusal into a message; the
dashboard is `dashboard`'s, the tournament's buttons `tournament_actions`'.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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

from ..errors import ServiceError
from ..forms import TournamentForm, players_form
from ..models import Tournament
from ..permissions import directed_club_ids, is_director, is_site_admin
from ..services.settings import SettingsRefused

View = Callable[..., HttpResponse]


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
