"""A referee's "My tables": the tables of the round being played that they may open."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Min
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import Match, Round, Tournament
from ..permissions import open_tables_q


@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.pk is not None  # signed in
    mine = Match.objects.filter(
        open_tables_q(user), tournament__status=Tournament.Status.RUNNING, ew_team__isnull=False
    )
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
    # The tables still to play first: a finished one is only looked at again.
    matches.sort(key=lambda m: m.status == Match.Status.FINISHED or m.is_closed)
    return render(request, "tournaments/referee/my_tables.html", {"matches": matches})
