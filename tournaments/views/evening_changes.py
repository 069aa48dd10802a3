"""Director pages for the evening's changes: withdraw (asked first) and reinstate, substitutes,
editing a drawn round by hand, answering a table's call; and the referee's call button."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.models import Player
from club.registration import ASK_IF_SIMILAR, CREATE, NAME_PART_MAX, NewMembersToConfirm

from .. import selectors
from ..errors import ServiceError
from ..models import DirectorCall, Entrant, Match, Round, SitOut, Substitution, Team, Tournament
from ..permissions import can_call_director
from ..services import calls as call_services
from ..services import draw_edits, lineup, withdrawals
from ..services import entrants as entrant_services
from .director import back, director_required, refused
from .director_teams import WALK_IN_FIELDS, team_page


def _number(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**53 else None


# --- withdraw, asked first; reinstate ----------------------------------------------------------


@director_required
def withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """GET: what withdrawing the team does to its remaining matches; POST: withdraw it."""
    team = get_object_or_404(Team, tournament=tournament, pk=pk, round__isnull=True)
    if request.method == "POST":
        try:
            withdrawals.withdraw_team(team, by=request.user)
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(
                request,
                _("%(team)s withdrawn. It can be reinstated until the next round is drawn.")
                % {"team": team.name},
            )
        return back(tournament, "tournaments:director_teams")
    context = {
        "tournament": tournament,
        "team": team,
        "name": team.name,
        "preview": selectors.withdrawal_preview(team),
        "tab": "director",
    }
    return render(request, "tournaments/director/withdraw.html", context)


@director_required
def entrant_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """GET: what withdrawing a mêlée player does; POST: withdraw them."""
    entrant = get_object_or_404(
        Entrant.objects.select_related("player"), tournament=tournament, pk=pk
    )
    if request.method == "POST":
        try:
            entrant_services.withdraw_entrant(entrant, by=request.user)
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(request, _("%(player)s withdrawn.") % {"player": entrant.name})
        return back(tournament, "tournaments:director_entrants")
    seated = Team.objects.filter(
        Q(first_player=entrant.player_id) | Q(second_player=entrant.player_id),
        round__tournament=tournament,
        round__is_closed=False,
    ).select_related("round")
    context = {
        "tournament": tournament,
        "entrant": entrant,
        "name": entrant.name,
        "seated": list(seated),
        "tab": "director",
    }
    return render(request, "tournaments/director/withdraw.html", context)


@require_POST
@director_required
def reinstate(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    if tournament.is_individual:
        entrant = get_object_or_404(Entrant, tournament=tournament, pk=pk)
        try:
            entrant_services.reinstate_entrant(entrant, by=request.user)
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(request, _("%(name)s reinstated.") % {"name": entrant})
        return back(tournament, "tournaments:director_entrants")
    team = get_object_or_404(Team, tournament=tournament, pk=pk, round__isnull=True)
    try:
        withdrawals.reinstate_team(team, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("%(name)s reinstated.") % {"name": team})
    return back(tournament, "tournaments:director_teams")


# --- substitutes -------------------------------------------------------------------------------


def substitute_from_form(request: HttpRequest, team: Team) -> NewMembersToConfirm | None:
    """Hand the substitute form's choices to the service; a refusal becomes a message.

    A person typed in (first and last name) instead of a member chosen walks in: found
    among the club's members or made one, as pasted names are. A name close to a member's
    is asked about (the NewMembersToConfirm returned: the page shows it), and created once
    the director confirms (`confirm`)."""
    post = request.POST
    players = Player.objects.in_bulk(
        [n for n in (_number(post.get("out")), _number(post.get("in"))) if n]
    )
    out = players.get(_number(post.get("out")) or 0)
    into = players.get(_number(post.get("in")) or 0)
    from_round = _number(post.get("from_round")) or 0
    first, last = (post.get(name, "").strip()[:NAME_PART_MAX] for name in WALK_IN_FIELDS)
    try:
        if first or last:
            if into is not None:
                raise ServiceError(
                    _("Choose a member or type a new person's name, not both."), field="in"
                )
            sub = lineup.substitute_walk_in(
                team,
                out=out,
                first_name=first,
                last_name=last,
                from_round=from_round,
                by=request.user,
                new_members=CREATE if post.get("confirm") else ASK_IF_SIMILAR,
            )
            into = sub.player_in
        else:
            lineup.substitute(team, out=out, into=into, from_round=from_round, by=request.user)
    except NewMembersToConfirm as ask:
        return ask
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request,
            _("From round %(n)d %(into)s plays for %(team)s in place of %(out)s.")
            % {"n": from_round, "into": into, "out": out, "team": team},
        )
    return None


@require_POST
@director_required
def substitute(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("round"), tournament=tournament, pk=pk)
    ask = substitute_from_form(request, team)
    if team.round is not None:
        return redirect(
            "tournaments:director_round_edit",
            tournament.club.slug,
            tournament.slug,
            team.round.number,
        )
    if ask is not None:
        # The close names are asked about on the team's page, the typed fields kept.
        return team_page(request, tournament, team, walk_in=ask.plan)
    return redirect("tournaments:director_team", tournament.club.slug, tournament.slug, team.pk)


@require_POST
@director_required
def remove_substitute(
    request: HttpRequest, tournament: Tournament, pk: int, sub: int
) -> HttpResponse:
    """Undo a substitution (audited): the seats from its round on follow the team again."""
    team = get_object_or_404(Team, tournament=tournament, pk=pk, round__isnull=True)
    found = get_object_or_404(
        Substitution.objects.select_related("player_in", "player_out"), team=team, pk=sub
    )
    try:
        lineup.remove_substitution(found, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request,
            _("From round %(n)d %(out)s plays for %(team)s again, not %(into)s.")
            % {
                "n": found.from_round,
                "into": found.player_in,
                "out": found.player_out,
                "team": team,
            },
        )
    return redirect("tournaments:director_team", tournament.club.slug, tournament.slug, team.pk)


# --- editing a drawn round ---------------------------------------------------------------------


@director_required
def round_edit(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The draw of a round, and the edits a director may make to it before its first deal."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    if request.method == "POST":
        try:
            if request.POST.get("sides"):
                match = Match.objects.filter(
                    round=round_, pk=_number(request.POST.get("table")) or 0
                ).first()
                if match is None:
                    raise ServiceError(_("Choose a table."), field="table")
                edit = draw_edits.swap_sides(match, by=request.user)
            else:
                edit = draw_edits.swap_teams(
                    round_,
                    a=_number(request.POST.get("a")),
                    b=_number(request.POST.get("b")),
                    by=request.user,
                )
        except ServiceError as error:
            refused(request, error)
        else:
            messages.success(request, _("The draw of %(round)s is changed.") % {"round": round_})
            for text in edit.warning_texts:
                messages.warning(
                    request, _("This edit breaks the draw: %(what)s.") % {"what": text}
                )
        return redirect(
            "tournaments:director_round_edit", tournament.club.slug, tournament.slug, number
        )
    matches = list(
        Match.objects.filter(round=round_)
        .select_related(
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        )
        .prefetch_related("seats__first_player", "seats__second_player")
        .order_by("table")
    )
    sit_outs = list(SitOut.objects.filter(round=round_).select_related("entrant__player"))
    refusal = draw_edits.swap_refusal(round_)
    if tournament.is_individual:
        choices = [
            (player.pk, player.full_name)
            for m in matches
            for team in m.teams()
            for player in team.players
        ] + [(s.entrant.player_id, s.entrant.name) for s in sit_outs]
    else:
        choices = [(team.pk, team.name) for m in matches for team in m.teams()]
    context = {
        "tournament": tournament,
        "round": round_,
        "matches": matches,
        "sit_outs": sit_outs,
        "refusal": refusal.message if refusal else "",
        "choices": sorted(choices, key=lambda c: c[1].casefold()),
        "breakable": "; ".join(draw_edits.warnings_of(tournament)),
        "substitutes": selectors.substitute_choices(tournament) if tournament.is_individual else [],
        "tab": "director",
    }
    return render(request, "tournaments/director/round_edit.html", context)


# --- calls to the director ---------------------------------------------------------------------


@require_POST
def call(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee's button on the table page: the director is called, with a reason."""
    match = get_object_or_404(Match.objects.select_related("tournament__club"), pk=pk)
    if not can_call_director(request.user, match):
        raise PermissionDenied
    try:
        call_services.call_director(match, reason=request.POST.get("reason", ""), by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(request, _("The director has been called to this table."))
    return redirect("tournaments:table", match.pk)


@require_POST
@director_required
def answer(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    call = get_object_or_404(
        DirectorCall.objects.select_related("match", "tournament__club"),
        tournament=tournament,
        pk=pk,
    )
    try:
        call_services.answer_call(call, by=request.user)
    except ServiceError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("Call from table %(table)s answered.") % {"table": call.match.table}
        )
    return back(tournament)
