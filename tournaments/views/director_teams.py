"""Director pages for the teams: register them by pasting, rename, change players, delete, withdraw."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.registration import (
    ASK,
    CREATE,
    NewMembersToConfirm,
)

from .. import selectors
from ..errors import ServiceError
from ..forms import TeamForm, teams_form
from ..models import Team, Tournament
from ..services import registration, withdrawals
from ..services import teams as team_services
from ..services.categories import set_category
from .director import back, director_required, refused, registered_message


@director_required
def teams(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if tournament.is_individual:
        return back(tournament, "tournaments:director_entrants")
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
    listed = list(tournament.teams.select_related("first_player", "second_player").order_by("seed"))
    # Who replaced whom from which round, on each team's line.
    substitutions = selectors.substitutions_by_team(tournament)
    for team in listed:
        setattr(team, "substitutes_in_order", substitutions.get(team.pk, []))  # noqa: B010
    played = selectors.teams_with_deals(tournament)
    in_schedule = selectors.teams_in_schedule(tournament)
    return render(
        request,
        "tournaments/director/teams.html",
        {
            "tournament": tournament,
            "form": form,
            "teams": listed,
            "reinstatable": {
                t.pk for t in listed if t.withdrawn and withdrawals.reinstate_refusal(t) is None
            },
            "withdrawable": {t.pk for t in listed if withdrawals.withdraw_refusal(t) is None},
            "played": played,
            # Offered Withdraw only: deleting would take a drawn round from everybody.
            "drawn": in_schedule.drawn,
            "scheduled": in_schedule.scheduled,
            "round_count": in_schedule.rounds,
            "to_confirm": to_confirm,
            "tab": "director",
        },
    )


# The substitute form's fields for a person who walks in (not yet a member).
WALK_IN_FIELDS = ("in_first_name", "in_last_name")


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
            team_services.edit_team(team, by=request.user, **form.changes())
            set_category(team, by=request.user, category=form.cleaned_data["category"])
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("%(team)s saved.") % {"team": team.name})
            return back(tournament, "tournaments:director_teams")
    return team_page(request, tournament, team, form=form, played=played)


def team_page(
    request: HttpRequest,
    tournament: Tournament,
    team: Team,
    *,
    form: TeamForm | None = None,
    played: bool | None = None,
    walk_in: Any = None,
    status: int = 200,
) -> HttpResponse:
    """The team's page: its edit form, its substitutes, and the substitute form (with the
    close names of a person who walked in asked about, `walk_in`)."""
    if played is None:
        played = team.pk in selectors.teams_with_deals(tournament)
    if form is None:
        form = TeamForm(None, team=team, players_locked=played)
    return render(
        request,
        "tournaments/director/team_edit.html",
        {
            "tournament": tournament,
            "team": team,
            "form": form,
            "played": played,
            "substitutions": selectors.substitutions(team),
            "substitute_choices": selectors.substitute_choices(tournament),
            "walk_in": walk_in,
            "walk_in_typed": {
                name: request.POST.get(name, "") for name in (*WALK_IN_FIELDS, "out", "from_round")
            }
            if walk_in
            else {},
            "tab": "director",
        },
        status=status,
    )


@require_POST
@director_required
def team_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    try:
        schedule_removed = team_services.delete_team(team, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(team)s deleted.") % {"team": team.name})
        if schedule_removed:
            messages.warning(
                request, _("The schedule included this team and was removed: generate it again.")
            )
    return back(tournament, "tournaments:director_teams")
