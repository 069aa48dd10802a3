"""Public pages: home, a tournament, its schedule, live standings, a team, a match sheet.

Every page reads stored rows only (the derived state is kept by the recompute tasks), and
issues a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from club.models import Club

from ..models import Match, Round, Standing, Team, Tournament
from ..permissions import can_read_tournament, is_director
from ..rules_text import rules_in_words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# How often the standings and the director's tables ask whether something changed.
POLL_SECONDS = 3


def get_tournament(request: HttpRequest, club_slug: str, slug: str) -> Tournament:
    """The tournament if this visitor may read it; a private one is hidden as not found."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club"), club__slug=club_slug, slug=slug
    )
    if not can_read_tournament(request.user, tournament):
        raise Http404
    return tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(is_public=True).order_by("-starts_on", "name")
    clubs = Club.objects.prefetch_related(Prefetch("tournaments", queryset=tournaments))
    running = [t for club in clubs for t in club.tournaments.all() if t.status == "running"]
    return render(request, "home.html", {"clubs": clubs, "running": running})


def tournament_detail(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    rounds = tournament.rounds.annotate(
        match_count=Count("matches", filter=Q(matches__ew_team__isnull=False)),
        finished_count=Count(
            "matches",
            filter=Q(matches__ew_team__isnull=False, matches__status=Match.Status.FINISHED),
        ),
    )
    teams = tournament.teams.select_related("first_player", "second_player")
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "teams": teams,
            # The overview names only what differs from the rule book; the Rules tab has it all.
            "changed_rules": [r for r in rules_in_words(tournament.rules) if not r["is_default"]],
            "is_director": is_director(request.user, tournament.club_id),
            "tab": "overview",
        },
    )


def tournament_tie_breaks(tournament: Tournament) -> list[Any]:
    from ..models import TIE_BREAKS

    return [TIE_BREAKS.get(name, name) for name in tournament.tie_breaks or []]


def current_round_number(rounds: list[Round], open_numbers: set[int]) -> int | None:
    """The first round with a match still to finish, else the last round."""
    for round_ in rounds:
        if round_.number in open_numbers:
            return round_.number
    return rounds[-1].number if rounds else None


def schedule(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    rounds = list(tournament.rounds.all())
    open_numbers = set(
        tournament.matches.filter(ew_team__isnull=False)
        .exclude(status=Match.Status.FINISHED)
        .values_list("round__number", flat=True)
        .distinct()
    )
    current = current_round_number(rounds, open_numbers)
    wanted = request.GET.get("round", "")
    if wanted == "all":
        shown = [r.number for r in rounds]
    else:
        number = int(wanted) if wanted.isdigit() else current
        shown = [number] if number is not None else []
    matches = (
        tournament.matches.filter(round__number__in=shown)
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number", "table")
    )
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round.number, []).append(match)
    shown_rounds = [(r, by_round.get(r.number, [])) for r in rounds if r.number in shown]
    return render(
        request,
        "tournaments/schedule.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "shown_rounds": shown_rounds,
            "current": current,
            "selected": wanted if wanted == "all" else (shown[0] if shown else None),
            "open_numbers": open_numbers,
            "tab": "schedule",
            "is_director": is_director(request.user, tournament.club_id),
            # Built once: reversing two URLs per row is most of a 2,000-match page's time.
            "team_prefix": reverse("tournaments:team", args=[club_slug, slug, 0])[:-2],
            "match_prefix": reverse("tournaments:match", args=[0])[:-2],
        },
    )


def standings_version(tournament: Tournament) -> str:
    """What a page's standings were computed from: the change number and when.

    The time is part of it because the first computation can keep change number 0.
    """
    at = tournament.standings_computed_at
    return f"{tournament.standings_seq}-{int(at.timestamp() * 1000) if at else 0}"


def standings_context(tournament: Tournament, after: str | None) -> dict[str, Any]:
    """The standings after round `after` (default: the latest computed) and the rounds to switch to."""
    computed = list(
        Standing.objects.filter(tournament=tournament)
        .values_list("round_number", flat=True)
        .distinct()
        .order_by("round_number")
    )
    latest = computed[-1] if computed else None
    number = int(after) if after and after.isdigit() and int(after) in computed else latest
    rows = (
        Standing.objects.filter(tournament=tournament, round_number=number)
        .select_related("team__first_player", "team__second_player")
        .order_by("rank", "team__seed")
        if number is not None
        else Standing.objects.none()
    )
    return {
        "tournament": tournament,
        "version": standings_version(tournament),
        "rows": rows,
        "after": number,
        "latest": latest,
        "computed_rounds": computed,
        "poll_seconds": POLL_SECONDS,
    }


def standings(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = standings_context(tournament, request.GET.get("after"))
    context["chart"] = rank_history(tournament)
    context["tab"] = "standings"
    context["is_director"] = is_director(request.user, tournament.club_id)
    return render(request, "tournaments/standings.html", context)


@require_GET
def standings_live(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """The standings table alone, for polling: 204 when the page already shows the latest version."""
    tournament = get_tournament(request, club_slug, slug)
    if request.GET.get("seq") == standings_version(tournament):
        return HttpResponse(status=204)
    context = standings_context(tournament, request.GET.get("after"))
    return render(request, "tournaments/_standings.html", context)


def rank_history(tournament: Tournament) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each team's rank after every round, for the chart (two queries whatever the size)."""
    names = dict(tournament.teams.values_list("pk", "name"))
    history: dict[int, list[tuple[float, float]]] = {}
    for team_id, number, rank in (
        Standing.objects.filter(tournament=tournament)
        .order_by("round_number")
        .values_list("team_id", "round_number", "rank")
    ):
        history.setdefault(team_id, []).append((float(number), float(rank)))
    # Ordered by the latest rank, so the chart colours and the legend follow the standings.
    ordered = sorted(history.items(), key=lambda item: (item[1][-1][1], names.get(item[0], "")))
    return [(names.get(team_id, "?"), data) for team_id, data in ordered]


def team_detail(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    team = get_object_or_404(
        Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk
    )
    matches = list(
        tournament.matches.filter(Q(ns_team=team) | Q(ew_team=team))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number")
    )
    rows = [team_match_row(team, match) for match in matches]
    upcoming = next((row for row in rows if row["match"].status != Match.Status.FINISHED), None)
    line = (
        Standing.objects.filter(tournament=tournament, team=team).order_by("-round_number").first()
    )
    return render(
        request,
        "tournaments/team_detail.html",
        {
            "tournament": tournament,
            "team": team,
            "rows": rows,
            "next": upcoming,
            "line": line,
            "is_director": is_director(request.user, tournament.club_id),
        },
    )


def team_match_row(team: Team, match: Match) -> dict[str, Any]:
    """A match seen from one team: its side, the opponent, its score first."""
    ours_ns = match.ns_team_id == team.pk
    result = ""
    if match.status == Match.Status.FINISHED and match.winner:
        if match.winner == "draw":
            result = "draw"
        else:
            result = "won" if (match.winner == "NS") == ours_ns else "lost"
    return {
        "match": match,
        "side": "NS" if ours_ns else "EW",
        "opponent": match.ew_team if ours_ns else match.ns_team,
        "ours": match.ns_total if ours_ns else match.ew_total,
        "theirs": match.ew_total if ours_ns else match.ns_total,
        "result": result,
    }


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related(
            "tournament__club",
            "round",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        ),
        pk=pk,
    )
    if not can_read_tournament(request.user, match.tournament):
        raise Http404
    return render(
        request,
        "tournaments/match_detail.html",
        {
            "match": match,
            "tournament": match.tournament,
            "rows": sheet_rows(match.deals.order_by("number")),
            "is_director": is_director(request.user, match.tournament.club_id),
        },
    )


def sheet_rows(deals: Any) -> list[dict[str, Any]]:
    """Each deal as the sheet shows it, with the running totals and the pot after it.

    The totals add up the stored scores of each deal; the pot adds what each deal put in and
    takes out what it awarded, both stored from the engine's result.
    """
    rows = []
    ns = ew = pot = 0
    for deal in deals:
        entry = deal.entry or {}
        result = deal.result or {}
        ns += deal.ns_score
        ew += deal.ew_score
        awarded = result.get("pot_awarded") or {}
        pot += deal.pot_in - sum(v for v in awarded.values() if isinstance(v, int))
        points = entry.get("points") or {}
        declared = result.get("declarations") or {}
        rows.append(
            {
                "deal": deal,
                "taker": entry.get("taker"),
                "trump": entry.get("trump"),
                "trump_symbol": SUITS.get(entry.get("trump") or "", ""),
                "points_team": points.get("team", ""),
                "points_cards": points.get("cards", ""),
                "capot": entry.get("capot"),
                "declarations_ns": declared.get("NS", 0),
                "declarations_ew": declared.get("EW", 0),
                "ns_total": ns,
                "ew_total": ew,
                "pot": pot,
            }
        )
    return rows


urlpatterns = [
    path("clubs/<slug:club_slug>/<slug:slug>/", tournament_detail, name="detail"),
    path("clubs/<slug:club_slug>/<slug:slug>/schedule/", schedule, name="schedule"),
    path("clubs/<slug:club_slug>/<slug:slug>/standings/", standings, name="standings"),
    path(
        "clubs/<slug:club_slug>/<slug:slug>/standings/live/", standings_live, name="standings_live"
    ),
    path("clubs/<slug:club_slug>/<slug:slug>/teams/<int:pk>/", team_detail, name="team"),
    path("matches/<int:pk>/", match_detail, name="match"),
]

__all__ = ["home", "urlpatterns"]
