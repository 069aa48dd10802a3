"""Reads of a club shared by its pages, the director's pages and the API (no tournament rules here)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    BooleanField,
    Case,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)

from .hooks import HOOKS
from .models import (
    Club,
    Membership,
    Player,
    Rating,
    RatingChange,
    YearRanking,
)
from .permissions import directs_club, holds_only_referee_rights_q, may_attach_friendly_game
from .registration import search_members


def ratings_prefetch() -> Prefetch:
    """A player's ratings as the API lists them (one query for any number of players)."""
    return Prefetch("ratings", queryset=Rating.objects.order_by("club_id", "pk"))


def club_home(club: Club, viewer: Any) -> dict[str, Any]:
    """The club's tournaments grouped running / upcoming / finished, and its best players.

    Private tournaments and drafts are listed to the club's directors only. A tournament
    says what state it is in (`is_draft`, `is_running`, `is_finished`): club/ reads it without importing
    tournaments/ (docs/architecture.md).
    """
    directs = directs_club(viewer, club.pk)
    tournaments = club.tournaments.order_by("-starts_on", "name")  # type: ignore[attr-defined]
    if not directs:
        tournaments = tournaments.filter(is_public=True)
    groups: dict[str, list[Any]] = {"running": [], "upcoming": [], "finished": []}
    for tournament in tournaments:
        if tournament.is_draft and not directs:
            continue  # not published yet
        if tournament.is_running:
            groups["running"].append(tournament)
        elif tournament.is_finished:
            groups["finished"].append(tournament)
        else:
            groups["upcoming"].append(tournament)
    groups["upcoming"].reverse()  # the nearest first
    return {
        "club": club,
        "groups": groups,
        "top": best_rated(club)[:10],
        "is_director": directs,
        "friendly_games": friendly_games(club, viewer),
    }


def friendly_games(club: Club, viewer: Any, most: int = 10) -> list[Any]:
    """The score pad's games filed with the club, newest first, for its members only (the
    names are the friends' own, typed on a phone: not public)."""
    if not may_attach_friendly_game(viewer, club.pk):
        return []
    # The pad sits on top of club/ (it imports club, not the other way): its rows are read
    # through the reverse relation only.
    return list(club.friendly_games.order_by("-updated_at")[:most])  # type: ignore[attr-defined]


def members(club: Club) -> QuerySet[Membership]:
    """The club's members with their roles, by name."""
    return (
        Membership.objects.filter(club=club)
        .select_related("player")
        .order_by("player__last_name", "player__first_name")
    )


def members_found(club: Club, *, name: str = "", role: str = "") -> QuerySet[Membership]:
    """The club's members whose first or last name contains every word of `name`, by name.

    With their accounts, so a director finds the user id a referee's token is issued to.
    """
    found = (
        members(club)
        .select_related("player__user")
        .order_by("player__last_name", "player__first_name", "pk")
    )
    for word in name.split()[:5]:
        found = found.filter(
            Q(player__first_name__icontains=word) | Q(player__last_name__icontains=word)
        )
    return found.filter(role=role) if role else found


def roster(club: Club, *, query: str = "", active: bool | None = None) -> list[Membership]:
    """The club's members for its directors, by name; `query` matches names as pasted names
    are matched (club.registration.search_members: typos and accents forgiven). One query."""
    found = list(
        Membership.objects.filter(club=club)
        .select_related("player__user")
        .order_by("player__last_name", "player__first_name", "pk")
    )
    if active is not None:
        found = [membership for membership in found if membership.active == active]
    if query.strip():
        by_player = {membership.player_id: membership for membership in found}
        players = search_members([m.player for m in found], query, limit=len(found) or 1)
        found = [by_player[player.pk] for player in players]
    return found


@dataclass(frozen=True, slots=True)
class RosterRow:
    """A line of the members page: the member, evenings played, the last one, the rating."""

    membership: Membership
    evenings: int
    last_evening: datetime.date | None
    rating: float | None

    @property
    def player(self) -> Player:
        return self.membership.player


def roster_rows(club: Club, memberships: list[Membership]) -> list[RosterRow]:
    """The members page's lines for these members (two queries more, whatever their number):
    evenings are counted by the tournaments (club.hooks), ratings read here."""
    ids = [membership.player_id for membership in memberships]
    evenings = HOOKS.evenings(club.pk, ids)
    ratings = dict(
        Rating.objects.filter(club=club, player_id__in=ids).values_list("player_id", "rating")
    )
    return [
        RosterRow(
            membership,
            evenings.get(membership.player_id, (0, None))[0],
            evenings.get(membership.player_id, (0, None))[1],
            ratings.get(membership.player_id),
        )
        for membership in memberships
    ]


def club_member(club: Club, player_id: int | str) -> Membership:
    """The club's member with that player id (404 if there is none)."""
    from django.shortcuts import get_object_or_404

    return get_object_or_404(
        Membership.objects.select_related("player__user", "club"), club=club, player_id=player_id
    )


def referee_users(club: Club) -> QuerySet[Any]:
    """The accounts that may referee the club's tables (its referees and directors), by name,
    each with `only_referee_rights` (`holds_only_referee_rights_q`: only such an account gets
    a private link)."""
    only_referee = Case(
        When(holds_only_referee_rights_q(), then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    return (
        get_user_model()
        .objects.filter(
            player__memberships__club=club,
            player__memberships__role__in=[Membership.Role.REFEREE, Membership.Role.DIRECTOR],
        )
        .select_related("player")
        .annotate(only_referee_rights=only_referee)
        .distinct()
        .order_by("player__last_name", "player__first_name", "username")
    )


def best_rated(club: Club) -> QuerySet[Rating]:
    """The club's players by rating, best first (ties by more matches, then by name)."""
    return (
        Rating.objects.filter(club=club)
        .select_related("player")
        .order_by("-rating", "-matches_played", "player__last_name", "player__first_name", "pk")
    )


def year_ranking(club: Club, wanted: str | int | None) -> dict[str, Any]:
    """The club's ranking of the calendar year `wanted` (default: the latest with one)."""
    years = list(
        YearRanking.objects.filter(club=club)
        .values_list("year", flat=True)
        .distinct()
        .order_by("-year")
    )
    year: int | None = years[0] if years else None
    if str(wanted or "").isdigit() and int(str(wanted)) in years:
        year = int(str(wanted))
    entries = (
        YearRanking.objects.filter(club=club, year=year or 0)
        .select_related("player")
        .order_by("average_place", "-matches_won", "player")
    )
    return {"years": years, "year": year, "entries": entries}


def player_ratings(player: Player) -> dict[str, Any]:
    """A player's rating in each club with its history, and their year ranking lines."""
    ratings = list(Rating.objects.filter(player=player).select_related("club"))
    changes: dict[int, list[RatingChange]] = {}
    for change in RatingChange.objects.filter(player=player).order_by("played_at", "match_id"):
        changes.setdefault(change.club_id, []).append(change)
    clubs = [
        {"rating": rating, "club": rating.club, "history": changes.get(rating.club_id, [])}
        for rating in ratings
    ]
    years = YearRanking.objects.filter(player=player).select_related("club")
    return {"player": player, "clubs": clubs, "years": years}
