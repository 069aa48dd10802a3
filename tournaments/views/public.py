"""Public pages: home, a tournament, its schedule, live standings, a team, a match sheet, a player.

Every page reads stored rows through the selectors (the derived state is kept by the
recompute tasks) in a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

import gzip
import logging

from django.core.cache import cache
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from club.models import Club, Player
from club.selectors import player_ratings

from .. import selectors
from ..models import Match, Team, Tournament
from ..permissions import can_read_tournament, is_director
from ..rules_text import rules_in_words

log = logging.getLogger(__name__)

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
    running = [
        t for club in clubs for t in club.tournaments.all() if t.status == Tournament.Status.RUNNING
    ]
    return render(request, "home.html", {"clubs": clubs, "running": running})


def tournament_detail(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": selectors.rounds_with_progress(tournament),
            "teams": selectors.teams_with_players(tournament),
            # The overview names only what differs from the rule book; the Rules tab has it all.
            "changed_rules": [r for r in rules_in_words(tournament.rules) if not r["is_default"]],
            "is_director": is_director(request.user, tournament.club_id),
            "tab": "overview",
        },
    )


def schedule(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    rounds = list(tournament.rounds.all())
    open_numbers = selectors.open_round_numbers(tournament)
    current = selectors.current_round_number(rounds, open_numbers)
    wanted = request.GET.get("round", "")
    if wanted == "all":
        shown = [r.number for r in rounds]
    else:
        number = int(wanted) if wanted.isdigit() else current
        shown = [number] if number is not None else []
    by_round: dict[int, list[Match]] = {}
    for match in selectors.matches_of_rounds(tournament, shown):
        by_round.setdefault(match.round.number, []).append(match)
    return render(
        request,
        "tournaments/schedule.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "shown_rounds": [(r, by_round.get(r.number, [])) for r in rounds if r.number in shown],
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


def standings_context(tournament: Tournament, after: str | None) -> dict[str, object]:
    """What the standings table shows: the stored lines after round `after` (default latest)."""
    view = selectors.standings_after(tournament, after)
    return {
        "tournament": tournament,
        "version": view.version,
        "rows": view.lines(),
        "after": view.after,
        "latest": view.latest,
        "computed_rounds": view.rounds,
        "poll_seconds": POLL_SECONDS,
    }


def standings(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = standings_context(tournament, request.GET.get("after"))
    context["chart"] = selectors.rank_history(tournament)
    context["tab"] = "standings"
    context["is_director"] = is_director(request.user, tournament.club_id)
    return render(request, "tournaments/standings.html", context)


# A new version of the standings is asked for by every open page within one poll: rendered
# once per version (400 lines take ~65 ms) and kept, compressed (230 kB of HTML are 7 kB),
# for the others, who get those bytes as they are. The version is in the key, so an entry
# is never stale; the timeout only bounds memory.
FRAGMENT_SECONDS = 300


@require_GET
def standings_live(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """The standings table alone, for polling: 204 when the page already shows the latest version."""
    tournament = get_tournament(request, club_slug, slug)
    version = selectors.standings_version(tournament)
    if request.GET.get("seq") == version:
        return HttpResponse(status=204)
    after = request.GET.get("after") or ""
    after = after if after.isdigit() and len(after) <= 5 else ""
    # Nothing in the fragment depends on who asks (no token, no name): the version, the
    # round shown and the language make it.
    key = f"belote:fragment:standings:{tournament.pk}:{version}:{after}:{get_language()}"
    compressed = _cached(key)
    if compressed is None:
        context = standings_context(tournament, after or None)
        html = render_to_string("tournaments/_standings.html", context, request)
        compressed = gzip.compress(html.encode(), compresslevel=6)
        _keep(key, compressed)
    return _gzipped(request, compressed)


def _gzipped(request: HttpRequest, compressed: bytes) -> HttpResponse:
    """The compressed bytes to a client that accepts gzip (every browser), else unpacked."""
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(gzip.decompress(compressed))
    else:
        response = HttpResponse(compressed)
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _cached(key: str) -> bytes | None:
    try:
        return cache.get(key)
    except Exception:  # the cache down: render, as without it
        log.warning("cache unavailable: fragment rendered afresh", exc_info=True)
        return None


def _keep(key: str, compressed: bytes) -> None:
    try:
        cache.set(key, compressed, timeout=FRAGMENT_SECONDS)
    except Exception:
        log.warning("cache unavailable: fragment not kept", exc_info=True)


def team_detail(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    team = get_object_or_404(
        Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk
    )
    rows = selectors.team_rows(tournament, team)
    return render(
        request,
        "tournaments/team_detail.html",
        {
            "tournament": tournament,
            "team": team,
            "rows": rows,
            "next": selectors.next_row(rows),
            "line": selectors.latest_line(tournament, team),
            "is_director": is_director(request.user, tournament.club_id),
        },
    )


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
            "rows": selectors.sheet_rows(match.deals.order_by("number")),
            "is_director": is_director(request.user, match.tournament.club_id),
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's ratings in each club, seasons, and teams in public tournaments."""
    player = get_object_or_404(Player, pk=pk)
    context = player_ratings(player)
    context["teams"] = selectors.player_teams(player)
    return render(request, "club/player_detail.html", context)
