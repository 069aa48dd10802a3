"""Pages that keep themselves up to date: the fragments they poll, the big screen, a player's table.

Every public page that shows results (standings, schedule, a team, a match sheet, the big
screen, a player's next table) holds one live region that asks every LIVE_POLL_SECONDS for
its fragment with the version it shows (`?v=`). An unchanged version answers 204 from the
cache alone (live.versions.live_state: no database query for a public tournament); a new
one answers the region, rendered by the same context function as the page. The regions
every open page watches (the standings, the schedule) are streamed regions
(live.regions): rendered once per version and language and kept, compressed, in the cache
for all the others (live.fragments).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from club.models import Player
from club.pages import sections
from live.fragments import kept_region, render_once
from live.regions import LiveRegion, streamed
from live.versions import live_state

from .. import selectors
from ..models import Entrant, Tournament
from ..pages import page_url
from ..permissions import is_director
from ..selectors import individual
from .public import (
    LIVE_POLL_SECONDS,
    get_match,
    get_team,
    get_tournament,
    match_context,
    schedule_context,
    standings_context,
    team_context,
)

# The big screen: how many tables or standings lines one slide shows at 1920 × 1080.
# The big screen sends each table whole; static/js/screen.js cuts it into as many slides as
# the room's screen needs, every row wholly on one (a 1080p projector, a 720p TV, portrait).
SCREEN_SERIES_HEAD = 8
SCREEN_SLIDE_SECONDS = 12

# The regions every open page of a tournament watches, the same bytes for every visitor:
# the stream host (live/stream/) finds them by these marks on their views.
ADDRESS = ("club_slug", "slug")  # the URL arguments that name a tournament (live.versions.live_key)
STANDINGS = LiveRegion("standings", version="standings", address=ADDRESS, variants=("after",))
SCHEDULE = LiveRegion("schedule", version="changes", address=ADDRESS, variants=("round",))

Build = Callable[[Tournament], dict[str, Any]]


def _fragment(
    request: HttpRequest,
    club_slug: str,
    slug: str,
    part: str,
    template: str,
    build: Build,
    *,
    own_language: bool = False,
    shared: str | None = None,
) -> HttpResponse:
    """204 when the visitor's version is current, else the region rendered afresh.

    `own_language`: in the tournament's language if it has one (the big screen).
    `shared`: the region depends on the version of `part`, the visitor's language and this
    variant (what `build` reads of the query) alone, nothing of the visitor's session: it is
    rendered once and kept in the cache (live.fragments).
    """
    wanted = request.GET.get("v")
    state = live_state(club_slug, slug) if wanted or shared is not None else None
    if state is not None and state.public:
        if wanted and getattr(state, part) == wanted:
            return HttpResponse(status=204)
        if shared is not None:
            # A public tournament's region for the version the cache names: no query at all.
            kept = kept_region(request, state.subject_id, part, getattr(state, part), shared)
            if kept is not None:
                return kept
    tournament = get_tournament(request, club_slug, slug)
    if shared is not None:
        # A private tournament's too: who may read it was checked by now.
        at = tournament.standings_computed_at
        return render_once(
            request,
            subject_id=tournament.pk,
            part=part,
            version=getattr(selectors.state_of(tournament), part),
            variant=shared,
            # Later versions only: renders of two versions may end in either order.
            order=(tournament.change_seq, tournament.standings_seq, at.timestamp() if at else 0.0),
            render=lambda: render_to_string(template, build(tournament), request),
        )
    language = (own_language and tournament.language) or translation.get_language()
    with translation.override(language):
        context = build(tournament)
        if request.GET.get("v") == context["version"]:
            return HttpResponse(status=204)  # a private tournament, checked the long way
        return render(request, template, context)


def _number(text: str | None) -> str:
    """A round number from the query as the context functions read it; "" for anything else
    (which they read as no number), so junk makes no entries of its own in the cache."""
    return text if text and text.isdigit() and len(text) <= 5 else ""


@streamed(STANDINGS)
@require_GET
@never_cache
def standings_live(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    after = _number(request.GET.get("after"))
    return _fragment(
        request,
        club_slug,
        slug,
        STANDINGS.version,
        "tournaments/_standings.html",
        lambda tournament: standings_context(tournament, after or None),
        shared=after,
    )


@streamed(SCHEDULE)
@require_GET
@never_cache
def schedule_live(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    wanted = request.GET.get("round", "")
    wanted = wanted if wanted == "all" else _number(wanted)
    return _fragment(
        request,
        club_slug,
        slug,
        SCHEDULE.version,
        "tournaments/_schedule_rounds.html",
        lambda tournament: schedule_context(tournament, wanted),
        shared=wanted,
    )


@require_GET
@never_cache
def team_live(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    return _fragment(
        request,
        club_slug,
        slug,
        "both",
        "tournaments/_team_live.html",
        lambda tournament: team_context(tournament, get_team(tournament, pk)),
    )


@require_GET
@never_cache
def match_live(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    def build(tournament: Tournament) -> dict[str, Any]:
        match = get_match(request, pk)
        if match.tournament_id != tournament.pk:
            raise Http404
        return match_context(match)

    return _fragment(request, club_slug, slug, "changes", "tournaments/_match_sheet.html", build)


# --- the big screen ----------------------------------------------------------------------------


def _whole(items: list[Any]) -> list[list[Any]]:
    return [items] if items else []


def screen_context(tournament: Tournament) -> dict[str, Any]:
    """The round in play's tables and the live standings, each a slide that the page cuts to
    the screen's height."""
    rounds = list(tournament.rounds.all())
    current = selectors.current_round_number(rounds, selectors.open_round_numbers(tournament))
    if tournament.is_finished:
        # After the finish the room reads the results: no round in play, no tables to find.
        current = None
    matches = list(selectors.matches_of_rounds(tournament, [current] if current else []))
    standings = standings_context(tournament, None)
    return {
        **standings,
        "round_number": current,
        "final_ranking": selectors.final_ranking(
            tournament, selectors.knockout_progress(tournament)
        )
        if tournament.is_finished and tournament.has_final
        else [],
        "table_slides": _whole([m for m in matches if not m.is_bye]),
        "byes": [m for m in matches if m.is_bye],
        "sit_outs": individual.sit_outs_by_round(tournament, [current]).get(current, [])
        if current
        else [],
        "line_slides": _whole(standings["rows"]),
        # What apps above add to the screen (a series' slide, seasons/): after the standings.
        "screen_sections": sections(
            "tournaments:screen", tournament=tournament, lines_per_slide=SCREEN_SERIES_HEAD
        ),
        "updated_at": max(
            filter(None, (selectors.last_update(matches), tournament.standings_computed_at)),
            default=None,
        ),
        "version": selectors.state_of(tournament).both,
        "poll_seconds": LIVE_POLL_SECONDS,
        "slide_seconds": SCREEN_SLIDE_SECONDS,
    }


def _screen_context(request: HttpRequest) -> Build:
    def build(tournament: Tournament) -> dict[str, Any]:
        context = screen_context(tournament)
        # Printed on the screen, so players type it into their phones.
        context["find_url"] = request.build_absolute_uri(
            reverse("tournaments:find_player", args=[tournament.club.slug, tournament.slug])
        )
        # Before the first round, with self check-in: a slide with the QR code of the door,
        # on the screen as a director's browser shows it (it carries the door's code).
        # The door's page is the entries app's (tournaments.pages): none when it is not installed.
        if (
            tournament.checks_in
            and tournament.self_check_in
            and not context.get("round_number")
            and not tournament.is_finished
            and is_director(request.user, tournament.club_id)
            and (door := page_url("self_check_in", tournament))
        ):
            context["check_in_url"] = request.build_absolute_uri(tournament.door_address(door))
        return context

    return build


def screen(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """The big screen for a projector: no controls, large type, slides that turn by themselves.

    In the tournament's language when it has one: the projector's browser is the director's,
    but the room reads it (Tournament.language); else in the visitor's language.
    """
    tournament = get_tournament(request, club_slug, slug)
    with translation.override(tournament.language or translation.get_language()):
        return render(request, "tournaments/screen.html", _screen_context(request)(tournament))


@require_GET
@never_cache
def screen_live(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    return _fragment(
        request,
        club_slug,
        slug,
        "both",
        "tournaments/_screen_slides.html",
        _screen_context(request),
        own_language=True,
    )


# --- a player finds their table -----------------------------------------------------------------


def find_player(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    """A player types their name and picks it: the next page shows their table and seat."""
    tournament = get_tournament(request, club_slug, slug)
    query = (request.GET.get("q") or "").strip()[:100]
    return render(
        request,
        "tournaments/find_player.html",
        {
            "tournament": tournament,
            "query": query,
            "found": selectors.find_players(tournament, query) if query else [],
            "is_director": is_director(request.user, tournament.club_id),
            "tab": "find",
        },
    )


def entrant_context(tournament: Tournament, player_pk: int) -> dict[str, Any]:
    """A player of an individual tournament: their next table and seat (or their sit-out),
    their line, and every round with its partner and opponents."""
    entrant = get_object_or_404(
        Entrant.objects.select_related("player"), tournament=tournament, player_id=player_pk
    )
    rows = individual.entrant_rows(tournament, entrant)
    upcoming = individual.entrant_next(tournament, entrant, rows)
    return {
        "tournament": tournament,
        "player": entrant.player,
        "entrant": entrant,
        "rows": rows,
        "next": upcoming,
        "line": selectors.latest_line(tournament, entrant),
        "updated_at": selectors.last_update(row["match"] for row in rows if row["match"]),
        "version": selectors.state_of(tournament).both,
        "poll_seconds": LIVE_POLL_SECONDS,
    }


def player_table_context(tournament: Tournament, player_pk: int) -> dict[str, Any]:
    if tournament.is_individual:
        return entrant_context(tournament, player_pk)
    player = get_object_or_404(Player, pk=player_pk)
    team = (
        selectors.teams_with_players(tournament)
        .filter(Q(first_player=player) | Q(second_player=player))
        .first()
    )
    if team is None:
        raise Http404
    upcoming = selectors.player_next(tournament, team, player)
    return {
        "tournament": tournament,
        "player": player,
        "team": team,
        "next": upcoming,
        "updated_at": upcoming["match"].updated_at if upcoming else None,
        "version": str(tournament.change_seq),
        "poll_seconds": LIVE_POLL_SECONDS,
    }


def player_table(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    context = player_table_context(tournament, pk)
    context["is_director"] = is_director(request.user, tournament.club_id)
    context["tab"] = "find"
    return render(request, "tournaments/player_table.html", context)


@require_GET
@never_cache
def player_live(request: HttpRequest, club_slug: str, slug: str, pk: int) -> HttpResponse:
    # A mêlée player's page shows their line too, so its version carries both parts
    # ("changes.standings", LiveState.both); a team player's page follows the changes alone.
    part = "both" if "." in request.GET.get("v", "") else "changes"
    return _fragment(
        request,
        club_slug,
        slug,
        part,
        "tournaments/_player_table.html",
        lambda tournament: player_table_context(tournament, pk),
    )
