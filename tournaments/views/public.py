"""Public pages: home, a tournament, its schedule, live standings, a team, a match sheet, a player.

Every page reads stored rows through the selectors (the derived state is kept by the
recompute tasks) in a fixed number of queries whatever the size of the tournament. The
pages that show results keep a part up to date by polling (views/live.py); each builds its
context in one function here that the page and its fragment share.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from club.merging import merged_target_id
from club.models import Club
from club.pages import sections
from club.privacy import shown_name
from club.selectors import player_ratings
from scoring.rules_text import rules_in_words

from .. import selectors
from ..models import SEATS_PREFETCH, Match, Team, Tournament
from ..permissions import can_read_tournament, is_director, readable_players
from ..selectors import individual
from ..selectors.members import head_to_head, player_history, public_team_names
from ..standings import criteria

# How often the director's tables ask whether something changed (the public pages: live.py).
POLL_SECONDS = 3
# How often a public page showing results asks for a new version: a deal saved shows
# within two seconds (the recompute runs right after the commit).
LIVE_POLL_SECONDS = 1


def get_tournament(request: HttpRequest, club_slug: str, slug: str) -> Tournament:
    """The tournament if this visitor may read it; a private one is hidden as not found."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club", "bracket"), club__slug=club_slug, slug=slug
    )
    if not can_read_tournament(request.user, tournament):
        raise Http404
    return tournament


def home(request: HttpRequest) -> HttpResponse:
    # A draft is not published yet: its directors find it on their pages, nobody else here.
    tournaments = (
        Tournament.objects.filter(is_public=True)
        .exclude(status=Tournament.Status.DRAFT)
        .order_by("-starts_on", "name")
    )
    clubs = Club.objects.prefetch_related(Prefetch("tournaments", queryset=tournaments))
    running = [
        t for club in clubs for t in club.tournaments.all() if t.status == Tournament.Status.RUNNING
    ]
    return render(request, "home.html", {"clubs": clubs, "running": running})


def tournament_detail(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    rounds = list(selectors.rounds_with_progress(tournament))
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "not_drawn": selectors.rounds_not_drawn(tournament, rounds),
            "entries": selectors.players.entries_with_players(tournament).order_by("seed"),
            # The overview names only what differs from the rule book; the Rules tab has it all.
            "changed_rules": [r for r in rules_in_words(tournament.rules) if not r["is_default"]],
            "is_director": is_director(request.user, tournament.club_id),
            "tab": "overview",
            # What apps above add to the overview (the prize list, prizes/).
            "sections": sections("tournaments:detail", tournament=tournament, request=request),
        },
    )


def url_prefix(name: str, *args: str) -> str:
    """The address of the page `name` up to the id that ends it (`…/teams/`): a row's link
    is this prefix, its id and a slash, built without reversing a URL per row."""
    return reverse(name, args=[*args, 0])[:-2]


def schedule_context(tournament: Tournament, wanted: str) -> dict[str, Any]:
    """The rounds shown (`wanted`: a number, "all", or "" for the current round) and their tables."""
    rounds = list(tournament.rounds.all())
    open_numbers = selectors.open_round_numbers(tournament)
    current = selectors.current_round_number(rounds, open_numbers)
    if wanted == "all":
        shown = [r.number for r in rounds]
    else:
        number = int(wanted) if wanted.isdigit() else current
        shown = [number] if number is not None else []
    by_round: dict[int, list[Match]] = {}
    for match in selectors.matches_of_rounds(tournament, shown):
        by_round.setdefault(match.round.number, []).append(match)
    sitting = individual.sit_outs_by_round(tournament, shown)
    club_slug, slug = tournament.club.slug, tournament.slug
    not_drawn = selectors.rounds_not_drawn(tournament, rounds)
    if wanted == "all":
        waiting = not_drawn
    elif wanted.isdigit():
        waiting = [r for r in not_drawn if r.number == int(wanted)]
    else:
        # The current round's page says which round comes next once it is the last drawn.
        waiting = not_drawn[:1] if current == (rounds[-1].number if rounds else None) else []
    return {
        "tournament": tournament,
        "rounds": rounds,
        "not_drawn": not_drawn,
        "waiting_rounds": waiting,
        "shown_rounds": [
            (r, by_round.get(r.number, []), sitting.get(r.number, []))
            for r in rounds
            if r.number in shown
        ],
        "current": current,
        "wanted": wanted,
        "selected": wanted if wanted == "all" else (shown[0] if shown else None),
        "open_numbers": open_numbers,
        "updated_at": selectors.last_update(m for ms in by_round.values() for m in ms),
        "version": str(tournament.change_seq),
        "poll_seconds": LIVE_POLL_SECONDS,
        # Built once: reversing two URLs per row is most of a 2,000-match page's time.
        "team_prefix": url_prefix("tournaments:team", club_slug, slug),
        "match_prefix": url_prefix("tournaments:match"),
        # A mêlée's schedule names the players: each links to their page in the tournament.
        "player_prefix": url_prefix("tournaments:player_table", club_slug, slug)
        if tournament.is_individual
        else "",
        # Rendered once for every visitor: a team named after a member who is not public is
        # shown under the name the public may read (club.privacy).
        "team_names": {} if tournament.is_individual else public_team_names(tournament),
    }


def schedule(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = schedule_context(tournament, request.GET.get("round", ""))
    context["tab"] = "schedule"
    context["is_director"] = is_director(request.user, tournament.club_id)
    return render(request, "tournaments/schedule.html", context)


def bracket(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """The knockout final: who plays whom round by round, the results, the final ranking."""
    tournament = get_tournament(request, club_slug, slug)
    progress = selectors.knockout_progress(tournament) if tournament.has_final else None
    if progress is None:
        raise Http404
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "columns": selectors.bracket_columns(tournament, progress),
            "problem": progress.problem,
            "ranking": selectors.final_ranking(tournament, progress),
            "bracket": progress.bracket,
            "tab": "final",
            "is_director": is_director(request.user, tournament.club_id),
        },
    )


def standings_context(
    tournament: Tournament, after: str | None, *, live: bool = True
) -> dict[str, Any]:
    """What the standings table shows: the live table while a match is in play (unless
    `live` is off), else the lines after round `after` (default the latest)."""
    view = selectors.standings_after(tournament, after, live=live)
    rows = list(view.lines())
    # Rendered once for every visitor (the live fragment, the big screen): names as the
    # public may read them.
    if not tournament.is_individual and (masked := public_team_names(tournament)):
        for line in rows:
            if line.team_id in masked:
                line.public_name = masked[line.team_id]  # type: ignore[attr-defined]
    return {
        "tournament": tournament,
        "version": view.version,
        "rows": rows,
        "after": view.after,
        "latest": view.latest,
        "live": view.live,
        "has_live": view.has_live,
        "pinned": view.pinned,
        "in_play": selectors.matches_in_play(tournament) if view.live else [],
        "computed_rounds": view.rounds,
        "poll_seconds": LIVE_POLL_SECONDS,
        # A column for Buchholz where it ranks the teams (a Swiss by default).
        "show_buchholz": "buchholz" in (tournament.tie_breaks or []),
        # Where points for rank first (a concours, a mêlée) a phone shows them, not the
        # match points.
        "points_first": (tournament.tie_breaks or [""])[0] == "points_for",
        # Said under every table, and the big screen's columns: what ranks the lines.
        "ranking_order": criteria.order_in_words(tournament.tie_breaks),
        "deciding_columns": [
            (c.column, c.label) for c in criteria.deciding_columns(tournament.tie_breaks)
        ],
        # Each line links to its team's page, or a mêlée's to its player's.
        "link_prefix": url_prefix(
            tournament.entry_model.page_name, tournament.club.slug, tournament.slug
        ),
    }


def standings(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = standings_context(tournament, request.GET.get("after"))
    context["chart"] = selectors.rank_history(tournament)
    if tournament.has_final:
        progress = selectors.knockout_progress(tournament)
        context["final_ranking"] = selectors.final_ranking(tournament, progress)
    context["tab"] = "standings"
    context["is_director"] = is_director(request.user, tournament.club_id)
    return render(request, "tournaments/standings.html", context)


def team_context(tournament: Tournament, team: Team) -> dict[str, Any]:
    rows = selectors.team_rows(tournament, team)
    return {
        "tournament": tournament,
        "team": team,
        "rows": rows,
        "next": selectors.next_row(rows),
        "line": selectors.latest_line(tournament, team),
        "updated_at": selectors.last_update(row["match"] for row in rows),
        "version": selectors.state_of(tournament).both,
        "poll_seconds": LIVE_POLL_SECONDS,
    }


def get_team(tournament: Tournament, pk: int) -> Team:
    return get_object_or_404(
        Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk
    )


def team_detail(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = team_context(tournament, get_team(tournament, pk))
    context["is_director"] = is_director(request.user, tournament.club_id)
    return render(request, "tournaments/team_detail.html", context)


def get_match(request: HttpRequest, pk: int) -> Match:
    """The match with its teams and players, if this visitor may read its tournament."""
    match = get_object_or_404(
        Match.objects.select_related(
            "tournament__club",
            "tournament__bracket",
            "round",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        ).prefetch_related("confirmations", SEATS_PREFETCH),
        pk=pk,
    )
    if not can_read_tournament(request.user, match.tournament):
        raise Http404
    return match


def match_context(match: Match) -> dict[str, Any]:
    deals = list(match.deals.order_by("number"))
    return {
        "match": match,
        "tournament": match.tournament,
        "rows": selectors.sheet_rows(deals),
        "updated_at": selectors.last_update([match, *deals]),
        "version": str(match.tournament.change_seq),
        "poll_seconds": LIVE_POLL_SECONDS,
    }


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match(request, pk)
    context = match_context(match)
    context["is_director"] = is_director(request.user, match.tournament.club_id)
    return render(request, "tournaments/match_detail.html", context)


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's ratings in each club, seasons, and teams in public tournaments; a player
    this visitor may not see (known only from private tournaments) is not found; a record
    merged into another answers 301 to that one's page."""
    player = readable_players(request.user).filter(pk=pk).first()
    if player is None:
        # Asked only of a record not found: a merged one holds nothing any more.
        if (kept := merged_target_id(pk)) is not None:
            return HttpResponsePermanentRedirect(reverse("tournaments:player", kwargs={"pk": kept}))
        raise Http404
    context = player_ratings(player)
    context["teams"] = selectors.player_teams(player)
    context["entries"] = individual.player_entries(player)
    history = player_history(player, request.user)
    context["history"] = history
    context["name"] = shown_name(player, request.user)
    # What the apps above add to the page (seasons/: the player's current series rows).
    context["sections"] = sections("tournaments:player", player=player, request=request)
    # Head to head against a chosen player: one the player met, or any id typed.
    against_id = request.GET.get("against", "")
    if against_id.isdigit() and len(against_id) < 16:
        against = readable_players(request.user).filter(pk=int(against_id)).first()
        if against is not None and against.pk != player.pk:
            context["against"] = against
            context["against_name"] = shown_name(against, request.user)
            context["head_to_head"] = head_to_head(player, against, request.user)
    return render(request, "club/player_detail.html", context)
