"""Public pages of clubs: the club's home, its ranking and season table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from . import selectors
from .models import Club


def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    return render(request, "club/club_detail.html", selectors.club_home(club, request.user))


def club_ranking(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    context = {"club": club, "ratings": selectors.best_rated(club)}
    context.update(selectors.season_table(club, request.GET.get("season")))
    return render(request, "club/ranking.html", context)
