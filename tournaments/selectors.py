"""Reads shared by the pages, the API and the template tags (services push, selectors pull).

Each returns plain rows or model instances in a fixed number of queries, whatever the size
of the tournament; a template tag runs none of its own.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When
from rapidfuzz import fuzz, process

from club.models import Player

# The knockout final's reads live in knockout.py; named here for every caller.
from .knockout import BracketColumn as BracketColumn
from .knockout import KnockoutProgress as KnockoutProgress
from .knockout import bracket_columns as bracket_columns
from .knockout import final_ranking as final_ranking
from .knockout import knockout_progress as knockout_progress
from .models import Entrant, Match, Round, Seat, Side, Standing, Team, Tournament
from .standings.criteria import CRITERIA
from .standings.names import LIVE_ROUND

log = logging.getLogger(__name__)

# --- a tournament --------------------------------------------------------------------------


def rounds_with_progress(tournament: Tournament) -> QuerySet[Round]:
    """The rounds, each with `match_count` and `finished_count` (byes not counted)."""
    return tournament.rounds.annotate(
        match_count=Count("matches", filter=Q(matches__ew_team__isnull=False)),
        finished_count=Count(
            "matches",
            filter=Q(matches__ew_team__isnull=False, matches__status=Match.Status.FINISHED),
        ),
    )


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    """The registered teams (an individual tournament's partnerships are its rounds')."""
    return (
        tournament.teams.filter(round__isnull=True)
        .select_related("first_player", "second_player")
        .order_by("seed")
    )


def entrants_with_players(tournament: Tournament) -> QuerySet[Entrant]:
    """An individual tournament's players, by seed."""
    return tournament.entrants.select_related("player").order_by("seed")


# The players of both partnerships of a match, joined: a mêlée's pages name all four.
SEATED = (
    "ns_team__first_player",
    "ns_team__second_player",
    "ew_team__first_player",
    "ew_team__second_player",
)


def teams_with_deals(tournament: Tournament) -> set[int]:
    """The teams that have played a deal (their players are then fixed)."""
    played: set[int] = set()
    for pair in tournament.matches.filter(deal_count__gt=0).values_list("ns_team_id", "ew_team_id"):
        played.update(team_id for team_id in pair if team_id is not None)
    return played


def tie_break_labels(tournament: Tournament) -> list[Any]:
    """The tournament's tie-break order in words (a name no longer known reads as itself)."""
    return [CRITERIA[n].label if n in CRITERIA else n for n in tournament.tie_breaks or []]


def open_round_numbers(tournament: Tournament) -> set[int]:
    """The rounds with a match (not a bye) still to finish."""
    return set(
        tournament.matches.filter(ew_team__isnull=False)
        .exclude(status=Match.Status.FINISHED)
        .values_list("round__number", flat=True)
        .distinct()
    )


def current_round_number(rounds: list[Round], open_numbers: set[int]) -> int | None:
    """The first round with a match still to finish, else the last round."""
    for round_ in rounds:
        if round_.number in open_numbers:
            return round_.number
    return rounds[-1].number if rounds else None


def rounds_not_drawn(tournament: Tournament, rounds: list[Round]) -> list[Round]:
    """The rounds still to draw after `rounds` (the drawn ones), unsaved, for "not drawn yet".

    A Swiss's or a concours's qualifying rounds up to `round_count`, then a started final's
    rounds; reads the bracket only if the tournament was fetched with it (or one query).
    """
    qualifying = sum(not r.is_knockout for r in rounds)
    knockout = len(rounds) - qualifying
    number = rounds[-1].number if rounds else 0
    missing: list[Round] = []
    if tournament.is_round_by_round:
        for _n in range(qualifying, tournament.round_count or 0):
            number += 1
            missing.append(Round(tournament=tournament, number=number))
    if tournament.has_final:
        size = tournament.bracket.size
        for index in range(knockout, tournament.bracket.rounds):
            number += 1
            stage = Round.Stage.of_knockout(size >> index)
            missing.append(Round(tournament=tournament, number=number, stage=stage))
    return missing


def matches_of_rounds(tournament: Tournament, numbers: Iterable[int]) -> QuerySet[Match]:
    """The matches of those rounds, teams joined (a mêlée's: with their players), in
    schedule order."""
    joined = SEATED if tournament.is_individual else ("ns_team", "ew_team")
    return (
        tournament.matches.filter(round__number__in=list(numbers))
        .select_related("round", *joined)
        .order_by("round__number", "table")
    )


def tables(tournament: Tournament, *, answers: bool = True) -> list[tuple[Round, list[Match]]]:
    """Every table of the tournament, round by round, with its referee and the teams' answers
    to its sheet (three queries; two without the `answers`, which a draw does not read)."""
    rounds = list(tournament.rounds.all())
    by_round: dict[int, list[Match]] = {}
    matches = tournament.matches.select_related("round", "ns_team", "ew_team", "referee__player")
    if answers:
        matches = matches.prefetch_related("confirmations")
    for match in matches.order_by("round__number", "table"):
        by_round.setdefault(match.round_id, []).append(match)
    return [(r, by_round.get(r.pk, [])) for r in rounds]


def disputes(rounds: list[tuple[Round, list[Match]]]) -> list[Match]:
    """The matches of `tables(...)` whose sheet a team disputes: the director's first concern."""
    return [match for _round, matches in rounds for match in matches if match.disputed_by]


# --- standings -----------------------------------------------------------------------------


def standings_version(tournament: Tournament) -> str:
    """What the stored standings were computed from: the change number and when.

    The time is part of it because the first computation can keep change number 0.
    """
    at = tournament.standings_computed_at
    return f"{tournament.standings_seq}-{int(at.timestamp() * 1000) if at else 0}"


def _stored_rounds(tournament: Tournament) -> list[int]:
    """The round keys with stored lines, the live table's (LIVE_ROUND) first if there is one."""
    return list(
        Standing.objects.filter(tournament=tournament)
        .values_list("round_number", flat=True)
        .distinct()
        .order_by("round_number")
    )


def computed_rounds(tournament: Tournament) -> list[int]:
    """The rounds after which standings are stored, in order (the live table is not one)."""
    return [number for number in _stored_rounds(tournament) if number != LIVE_ROUND]


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The stored standings shown: the live table or the table after one round, and the
    rounds there are to switch to.

    `after` is the stored round key shown: a round number, LIVE_ROUND for the live table,
    None when nothing is stored yet; `pinned` when the visitor asked for that round.
    """

    tournament: Tournament
    after: int | None
    latest: int | None
    rounds: list[int]
    version: str
    has_live: bool = False
    pinned: bool = False

    @property
    def live(self) -> bool:
        """The live table is shown: matches in play are counted on their current totals."""
        return self.after == LIVE_ROUND

    def lines(self) -> QuerySet[Standing]:
        if self.after is None:
            return Standing.objects.none()
        lines = Standing.objects.filter(tournament=self.tournament, round_number=self.after)
        if self.tournament.is_individual:
            return lines.select_related("entrant__player").order_by("rank", "entrant__seed", "pk")
        return lines.select_related("team__first_player", "team__second_player").order_by(
            "rank", "team__seed", "pk"
        )


def standings_after(
    tournament: Tournament, after: int | str | None, *, live: bool = True
) -> StandingsView:
    """The standings after round `after` if stored; else the live table while a match is in
    play (unless `live` is off); else the latest after-round table."""
    stored = _stored_rounds(tournament)
    rounds = [number for number in stored if number != LIVE_ROUND]
    has_live = LIVE_ROUND in stored
    latest = rounds[-1] if rounds else None
    wanted = int(after) if isinstance(after, int) or (after and after.isdigit()) else None
    pinned = wanted is not None and wanted in rounds
    if pinned:
        shown = wanted
    elif live and has_live:
        shown = LIVE_ROUND
    else:
        shown = latest
    return StandingsView(
        tournament=tournament,
        after=shown,
        latest=latest,
        rounds=rounds,
        version=standings_version(tournament),
        has_live=has_live,
        pinned=pinned,
    )


def rank_history(tournament: Tournament) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each team's (a mêlée's: player's) rank after every round, for the chart (two queries
    whatever the size)."""
    whose = "team_id"
    if tournament.is_individual:
        whose = "entrant_id"
        names = {e.pk: e.name for e in tournament.entrants.select_related("player")}
    else:
        names = dict(tournament.teams.values_list("pk", "name"))
    history: dict[int, list[tuple[float, float]]] = {}
    for team_id, number, rank in (
        Standing.objects.filter(tournament=tournament)
        .exclude(round_number=LIVE_ROUND)
        .order_by("round_number")
        .values_list(whose, "round_number", "rank")
    ):
        history.setdefault(team_id, []).append((float(number), float(rank)))
    # Ordered by the latest rank, so the chart colours and the legend follow the standings.
    ordered = sorted(history.items(), key=lambda item: (item[1][-1][1], names.get(item[0], "")))
    return [(names.get(team_id, "?"), data) for team_id, data in ordered]


# --- a team, a player ------------------------------------------------------------------------


def team_match_row(team: Team, match: Match) -> dict[str, Any]:
    """A match seen from one team: its side, the opponent, its score first, its result."""
    ours_ns = match.ns_team_id == team.pk
    result = ""
    if match.status == Match.Status.FINISHED and match.winner:
        if match.winner == Match.Winner.DRAW:
            result = "draw"
        else:
            result = "won" if (match.winner == Match.Winner.NS) == ours_ns else "lost"
    return {
        "match": match,
        "side": Side.NS if ours_ns else Side.EW,
        "opponent": match.ew_team if ours_ns else match.ns_team,
        "ours": match.ns_total if ours_ns else match.ew_total,
        "theirs": match.ew_total if ours_ns else match.ns_total,
        "result": result,
    }


def next_row(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((row for row in rows if row["match"].status != Match.Status.FINISHED), None)


def team_rows(tournament: Tournament, team: Team) -> list[dict[str, Any]]:
    matches = (
        tournament.matches.filter(Q(ns_team=team) | Q(ew_team=team))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number")
    )
    return [team_match_row(team, match) for match in matches]


def latest_line(tournament: Tournament, team: Team) -> Standing | None:
    """The team's line in the live table while a match is in play, else after the last round."""
    live_first = Case(
        When(round_number=LIVE_ROUND, then=Value(1)), default=Value(0), output_field=IntegerField()
    )
    return (
        Standing.objects.filter(tournament=tournament, team=team)
        .order_by(live_first.desc(), "-round_number")
        .first()
    )


def player_teams(player: Player) -> list[dict[str, Any]]:
    """The player's teams in public tournaments, newest first, each with its matches (two queries)."""
    teams = list(
        Team.objects.filter(Q(first_player=player) | Q(second_player=player))
        .filter(tournament__is_public=True, round__isnull=True)
        .select_related("tournament__club", "first_player", "second_player")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    matches: dict[int, list[Match]] = {team.pk: [] for team in teams}
    for match in (
        Match.objects.filter(Q(ns_team__in=teams) | Q(ew_team__in=teams))
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number")
    ):
        for team_id in (match.ns_team_id, match.ew_team_id):
            if team_id in matches:
                matches[team_id].append(match)
    result = []
    for team in teams:
        rows = [team_match_row(team, m) for m in matches[team.pk]]
        running = team.tournament.status == Tournament.Status.RUNNING
        upcoming = next_row(rows) if running and not team.withdrawn else None
        result.append({"team": team, "rows": rows, "next": upcoming})
    return result


# --- a match sheet ---------------------------------------------------------------------------


def sheet_rows(deals: Iterable[Any]) -> list[dict[str, Any]]:
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
                "points_team": points.get("team", ""),
                "points_cards": points.get("cards", ""),
                "capot": entry.get("capot"),
                "declarations_ns": declared.get(Side.NS, 0),
                "declarations_ew": declared.get(Side.EW, 0),
                "ns_total": ns,
                "ew_total": ew,
                "pot": pot,
            }
        )
    return rows


# --- what the live pages poll --------------------------------------------------------------

# How long a tournament's versions are kept in the cache before they are read again: the
# writers set them after each change (changes.publish_live), so this only bounds how late a
# page learns of a change made where the cache is not shared (a worker's own memory).
LIVE_SECONDS = 1  # whole seconds: Redis keeps no fractions


class LiveState(NamedTuple):
    """What a polling page compares with its own version, without a database query.

    `changes` moves with every change of a deal, match, team or setting (the schedule, the
    match sheets, the team pages); `standings` when a recompute stores new standings.
    """

    tournament_id: int
    public: bool
    changes: str
    standings: str

    @property
    def both(self) -> str:
        return f"{self.changes}.{self.standings}"


def live_key(club_slug: str, slug: str) -> str:
    return f"belote:live:{club_slug}/{slug}"


def read_live_state(tournaments: QuerySet[Tournament]) -> tuple[str, LiveState] | None:
    """The cache key and the state of the (one) tournament of `tournaments`, read (one query)."""
    row = tournaments.values_list(
        "pk",
        "club__slug",
        "slug",
        "is_public",
        "change_seq",
        "standings_seq",
        "standings_computed_at",
    ).first()
    if row is None:
        return None
    pk, club_slug, slug, public, change_seq, standings_seq, computed_at = row
    tournament = Tournament(
        pk=pk,
        is_public=public,
        change_seq=change_seq,
        standings_seq=standings_seq,
        standings_computed_at=computed_at,
    )
    return live_key(club_slug, slug), state_of(tournament)


def state_of(tournament: Tournament) -> LiveState:
    """The versions of a tournament already read (its row as `get_tournament` reads it)."""
    return LiveState(
        tournament.pk,
        tournament.is_public,
        str(tournament.change_seq),
        standings_version(tournament),
    )


def live_state(club_slug: str, slug: str) -> LiveState | None:
    """The tournament's versions: from the cache, else read and kept for LIVE_SECONDS.

    A cache that fails (Redis down) is skipped: the state is read from the database.
    """
    key = live_key(club_slug, slug)
    try:
        state = cache.get(key)
    except Exception:
        log.warning("cache unavailable: live state read from the database", exc_info=True)
        state = None
    if isinstance(state, LiveState):
        return state
    read = read_live_state(Tournament.objects.filter(club__slug=club_slug, slug=slug))
    if read is None:
        return None
    try:
        # add, not set: a writer's fresher value, set meanwhile, wins over this read.
        cache.add(key, read[1], timeout=LIVE_SECONDS)
    except Exception:
        log.warning("cache unavailable: live state not kept", exc_info=True)
    return read[1]


def combined_version(tournament: Tournament) -> str:
    """The version of a page that shows both matches and standings (LiveState.both)."""
    return f"{tournament.change_seq}.{standings_version(tournament)}"


def last_update(rows: Iterable[Any]) -> Any:
    """The latest `updated_at` of matches or deals: when what a page shows last changed."""
    return max((row.updated_at for row in rows if row.updated_at), default=None)


def matches_in_play(tournament: Tournament) -> list[Match]:
    """The matches the live table counts on their current totals, in table order."""
    return list(
        tournament.matches.filter(status=Match.Status.PLAYING, ew_team__isnull=False)
        .select_related("round", "ns_team", "ew_team")
        .order_by("round__number", "table")
    )


# --- a player at a tournament: where they sit next ---------------------------------------------


def _folded(text: str) -> str:
    """Lower case without accents, so "chloe" finds "Chloé"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# How close a name must be to be offered when no name contains what was typed (rapidfuzz, 0-100).
NAME_MATCH_CUTOFF = 75


def find_players(tournament: Tournament, query: str) -> list[tuple[Player, Team | None]]:
    """The players of the tournament's teams (a mêlée's: its players, without a team) whose
    name holds every word typed, accents and case aside; when none does, the names closest
    to it (one query)."""
    entrants: list[tuple[Player, Team | None]]
    if tournament.is_individual:
        active = entrants_with_players(tournament).filter(withdrawn=False)
        entrants = [(entrant.player, None) for entrant in active]
    else:
        entrants = [
            (player, team)
            for team in teams_with_players(tournament).filter(withdrawn=False)
            for player in team.players
        ]
    words = _folded(query).split()
    if not words:
        return []
    found = [
        (player, team)
        for player, team in entrants
        if all(word in _folded(player.full_name) for word in words)
    ]
    if found:
        return sorted(found, key=lambda entry: _folded(entry[0].full_name))
    names = [_folded(player.full_name) for player, _team in entrants]
    close = process.extract(
        " ".join(words), names, scorer=fuzz.WRatio, score_cutoff=NAME_MATCH_CUTOFF, limit=5
    )
    return [entrants[index] for _name, _score, index in close]


def seat_of(team: Team, player: Player, side: str) -> str:
    """The seat of `player` when `team` sits `side`: the first player North (or East)."""
    first = player.pk == team.first_player_id
    if side == Side.NS:
        return Seat.NORTH if first else Seat.SOUTH
    return Seat.EAST if first else Seat.WEST


def player_next(tournament: Tournament, team: Team, player: Player) -> dict[str, Any] | None:
    """The player's next (or current) match, seen from their team, with their seat."""
    upcoming = next_row(team_rows(tournament, team)) if not team.withdrawn else None
    if upcoming is None:
        return None
    partner = team.second_player if player.pk == team.first_player_id else team.first_player
    return {
        **upcoming,
        "partner": partner,
        "seat": seat_of(team, player, upcoming["side"]),
    }
