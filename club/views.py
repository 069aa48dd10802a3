"""Public pages of clubs and players: the club's home, its ranking and season table, a player's page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import Club, Player, Rating, RatingChange, SeasonEntry

# Status codes of a tournament, read from the reverse relation so club/ imports nothing of
# tournaments/ (design.md).
RUNNING, FINISHED = "running", "finished"


def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    tournaments = club.tournaments.order_by("-starts_on", "name")  # type: ignore[attr-defined]
    is_director = club.has_director(request.user)
    if not is_director:
        tournaments = tournaments.filter(is_public=True)
    groups: dict[str, list[Any]] = {"running": [], "upcoming": [], "finished": []}
    for tournament in tournaments:
        if tournament.status == RUNNING:
            groups["running"].append(tournament)
        elif tournament.status == FINISHED:
            groups["finished"].append(tournament)
        else:
            groups["upcoming"].append(tournament)
    groups["upcoming"].reverse()  # the nearest first
    top = Rating.objects.filter(club=club).select_related("player").order_by("-rating")[:10]
    return render(
        request,
        "club/club_detail.html",
        {"club": club, "groups": groups, "top": top, "is_director": is_director},
    )


def club_ranking(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    ratings = (
        Rating.objects.filter(club=club).select_related("player").order_by("-rating", "player")
    )
    seasons = list(
        SeasonEntry.objects.filter(club=club)
        .values_list("season", flat=True)
        .distinct()
        .order_by("-season")
    )
    wanted = request.GET.get("season", "")
    season: int | None = seasons[0] if seasons else None
    if wanted.isdigit() and int(wanted) in seasons:
        season = int(wanted)
    entries = (
        SeasonEntry.objects.filter(club=club, season=season or 0)
        .select_related("player")
        .order_by("average_place", "-matches_won", "player")
    )
    return render(
        request,
        "club/ranking.html",
        {
            "club": club,
            "ratings": ratings,
            "seasons": seasons,
            "season": season,
            "entries": entries,
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    ratings = list(Rating.objects.filter(player=player).select_related("club"))
    changes: dict[int, list[RatingChange]] = {}
    for change in RatingChange.objects.filter(player=player).order_by("played_at", "match_id"):
        changes.setdefault(change.club_id, []).append(change)
    clubs = [
        {"rating": rating, "club": rating.club, "history": changes.get(rating.club_id, [])}
        for rating in ratings
    ]
    seasons = SeasonEntry.objects.filter(player=player).select_related("club")
    return render(
        request,
        "club/player_detail.html",
        {"player": player, "clubs": clubs, "seasons": seasons},
    )
