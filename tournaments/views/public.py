"""Public pages: the home page, a tournament with its teams and schedule, a match sheet."""

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path

from club.models import Club

from ..models import Match, Round, Tournament
from ..permissions import can_read_tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(is_public=True).order_by("-starts_on", "name")
    clubs = Club.objects.prefetch_related(Prefetch("tournaments", queryset=tournaments))
    return render(request, "home.html", {"clubs": clubs})


def tournament_detail(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.select_related("club"), club__slug=club_slug, slug=slug
    )
    if not can_read_tournament(request.user, tournament):
        return render(request, "404.html", status=404)
    matches = Match.objects.select_related("ns_team", "ew_team").order_by("table")
    rounds = tournament.rounds.prefetch_related(Prefetch("matches", queryset=matches))
    teams = tournament.teams.select_related("first_player", "second_player")
    return render(
        request,
        "tournaments/tournament_detail.html",
        {"tournament": tournament, "rounds": rounds, "teams": teams},
    )


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("tournament__club", "round", "ns_team", "ew_team"), pk=pk
    )
    if not can_read_tournament(request.user, match.tournament):
        return render(request, "404.html", status=404)
    return render(
        request, "tournaments/match_detail.html", {"match": match, "deals": match.deals.all()}
    )


urlpatterns = [
    path("clubs/<slug:club_slug>/<slug:slug>/", tournament_detail, name="detail"),
    path("matches/<int:pk>/", match_detail, name="match"),
]

__all__ = ["Round", "home", "urlpatterns"]
