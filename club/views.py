"""Public pages of clubs and players: the club's home, its ranking, a player's page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import Club, Player


def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    return render(request, "club/club_detail.html", {"club": club})


def club_ranking(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    return render(request, "club/ranking.html", {"club": club})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    return render(request, "club/player_detail.html", {"player": player})
