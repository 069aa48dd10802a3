"""Pages of clubs: the club's home, its ranking and year ranking (public); its members (its
directors')."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import selectors
from .errors import ServiceError
from .forms import ImportForm, MemberForm, MergeForm
from .importing import (
    SIMILAR,
    import_members,
    parse,
    preview,
    rows_as_data,
    rows_from_data,
    summary,
)
from .members import add_member, edit_member, require_member_reader, set_active
from .merging import merge_members
from .models import Club, MemberEvent, Player
from .pages import sections
from .privacy import erase_member, export_member
from .selectors import club_member, roster, roster_rows


def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    context = selectors.club_home(club, request.user)
    context["sections"] = sections("club:detail", club=club, request=request)
    return render(request, "club/club_detail.html", context)


def club_ranking(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    context = {"club": club, "ratings": selectors.best_rated(club)}
    context.update(selectors.year_ranking(club, request.GET.get("season")))
    return render(request, "club/ranking.html", context)


# --- the members pages (the club's directors; 404 to anyone else) ------------------------------

MEMBERS_PER_PAGE = 100
PREVIEW_PER_PAGE = 100


def _directed_club(request: HttpRequest, club_slug: str) -> Club:
    club = get_object_or_404(Club, slug=club_slug)
    require_member_reader(request.user, club)
    return club


def members_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Every member, searched as names are matched elsewhere; a member added here."""
    club = _directed_club(request, club_slug)
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            membership = add_member(club, by=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.refused(error)
        else:
            messages.success(
                request, _("%(name)s is a member now.") % {"name": membership.player.full_name}
            )
            return redirect("club:members", club_slug=club.slug)
    query = request.GET.get("q", "")[:200]
    shown = request.GET.get("active", "")
    active = {"yes": True, "no": False}.get(shown)
    found = roster(club, query=query, active=active)
    page = Paginator(found, MEMBERS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "club": club,
        "form": form,
        "query": query,
        "shown": shown,
        "page": page,
        "rows": roster_rows(club, list(page.object_list)),
        "count": len(found),
    }
    return render(request, "club/members.html", context)


def member_page(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """A member: their fields, active or not, merge into another record, erase, export."""
    club = _directed_club(request, club_slug)
    membership = club_member(club, pk)
    player = membership.player
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "email": membership.email,
        "phone": membership.phone,
        "licence": membership.licence,
        "profile": player.profile,
    }
    action = request.POST.get("action", "") if request.method == "POST" else ""
    status = 400 if action else 200
    form = MemberForm(request.POST if action == "edit" else None, initial=initial)
    others = [m.player for m in roster(club, query=player.full_name) if m.player_id != player.pk]
    merge_form = MergeForm(request.POST if action == "merge" else None, candidates=others[:10])
    try:
        if action == "edit" and form.is_valid():
            edit_member(membership, by=request.user, **form.cleaned_data)
            messages.success(request, _("Saved."))
            return redirect("club:member", club_slug=club.slug, pk=pk)
        if action in ("deactivate", "reactivate"):
            set_active(membership, action == "reactivate", by=request.user)
            return redirect("club:member", club_slug=club.slug, pk=pk)
        if action == "merge" and merge_form.is_valid():
            into = get_object_or_404(Player, pk=merge_form.cleaned_data["into"])
            merge_members(club, player, into=into, by=request.user)
            messages.success(
                request,
                _("%(second)s was merged into %(first)s.")
                % {"second": player.full_name, "first": into.full_name},
            )
            return redirect("club:member", club_slug=club.slug, pk=into.pk)
        if action == "erase":
            if request.POST.get("confirm") != "erase":
                raise ServiceError(_("Tick the box to confirm the erasure."), field="confirm")
            erase_member(club, player, by=request.user)
            messages.success(request, _("The member's personal data is erased."))
            return redirect("club:member", club_slug=club.slug, pk=pk)
    except ServiceError as error:
        status = error.status
        if action == "edit":
            form.refused(error)
        elif action == "merge":
            merge_form.add_error(None, error.message)
        else:
            messages.error(request, error.message)
    row = roster_rows(club, [membership])[0]
    context = {
        "club": club,
        "membership": membership,
        "player": player,
        "row": row,
        "form": form,
        "merge_form": merge_form,
        "events": MemberEvent.objects.filter(club=club, player_id=player.pk)[:20],
    }
    return render(request, "club/member.html", context, status=status)


def member_export(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """The member's data as a JSON file (the right of access)."""
    club = _directed_club(request, club_slug)
    membership = club_member(club, pk)
    data = export_member(club, membership.player, by=request.user)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="member-{pk}.json"'
    return response


def _import_key(club: Club) -> str:
    return f"belote:member_import:{club.pk}"


def members_import(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Upload the club's list, read its preview page by page, then confirm: the preview
    (the rows read) is kept in the director's session until then; nothing is stored before."""
    club = _directed_club(request, club_slug)
    key = _import_key(club)
    form = ImportForm()
    status = 200
    if request.method == "POST" and request.POST.get("action") == "confirm":
        stored = request.session.get(key)
        if not stored:
            messages.error(request, _("The preview has expired: upload the file again."))
            return redirect("club:members_import", club_slug=club.slug)
        lines = frozenset(int(v) for v in request.POST.getlist("add_similar") if v.isdigit())
        counts = import_members(
            club, rows_from_data(stored["rows"]), by=request.user, add_similar=lines
        )
        del request.session[key]
        messages.success(
            request,
            ngettext(
                "%(count)d new member imported.",
                "%(count)d new members imported.",
                counts["created"],
            )
            % {"count": counts["created"]},
        )
        return redirect("club:members", club_slug=club.slug)
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                rows = preview(club, parse(upload.read(), upload.name or ""))
            except ServiceError as error:
                form.add_error("file", error.message)
                status = 400
            else:
                request.session[key] = {"name": upload.name, "rows": rows_as_data(rows)}
                return redirect("club:members_import", club_slug=club.slug)
        else:
            status = 400
    stored = request.session.get(key) if request.method == "GET" else None
    context: dict[str, Any] = {"club": club, "form": form}
    if stored:
        rows = rows_from_data(stored["rows"])
        context.update(
            {
                "file_name": stored["name"],
                "summary": summary(rows),
                "similar": [row for row in rows if row.status == SIMILAR],
                "page": Paginator(rows, PREVIEW_PER_PAGE).get_page(request.GET.get("page")),
            }
        )
    return render(request, "club/members_import.html", context, status=status)
