"""Public pages of clubs: the club's home, its ranking and year ranking."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from . import selectors
from .models import Club
from .pages import sections


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
