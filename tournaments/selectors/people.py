"""Reads of a team or a player: their matches, their teams, where they sit next."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, Q, Value, When
from rapidfuzz import fuzz, process

from club.models import Player
from club.text import folded

from ..models import Entry, Match, MatchSeat, Side, Standing, Team, Tournament, seat_of
from ..standings.names import LIVE_ROUND
from .players import entries_with_players

# --- a team, a player ------------------------------------------------------------------------


def team_match_row(team: Team, match: Match) -> dict[str, Any]:
    """A match seen from one team: its side, the opponent, its score first, its result."""
    ours_ns = match.ns_team_id == team.pk
    result = ""
    if match.status == Match.Status.FINISHED and match.winner:
        if match.winner == Match.Winner.DRAW:
            result = Match.Winner.DRAW.value
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


def latest_line(tournament: Tournament, whose: Entry) -> Standing | None:
    """The line of a team (or of an individual tournament's player) in the live table while
    a match is in play, else after the last round."""
    live_first = Case(
        When(round_number=LIVE_ROUND, then=Value(1)), default=Value(0), output_field=IntegerField()
    )
    return (
        Standing.objects.filter(tournament=tournament, **{whose.line_field: whose})
        .order_by(live_first.desc(), "-round_number")
        .first()
    )


def _sat_for(match: Match, team: Team, player_id: int) -> bool:
    """Whether the player sat for `team` at `match` (the seat's line-up, else the team's)."""
    seat = next((s for s in match.seats.all() if s.team_id == team.pk), None)
    if seat is not None and seat.first_player_id is not None:
        return player_id in (seat.first_player_id, seat.second_player_id)
    return player_id in (team.first_player_id, team.second_player_id)


def player_teams(player: Player) -> list[dict[str, Any]]:
    """The player's teams in public tournaments, newest first, each with the matches the
    player sat at (three queries): a team they substituted in for is listed with the
    matches they played for it; a team's matches a substitute played instead are left out."""
    substituted = MatchSeat.objects.filter(Q(first_player=player) | Q(second_player=player)).values(
        "team_id"
    )
    teams = list(
        Team.objects.filter(
            Q(first_player=player) | Q(second_player=player) | Q(pk__in=substituted)
        )
        .filter(tournament__is_public=True, round__isnull=True)
        .select_related("tournament__club", "first_player", "second_player")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    by_pk = {team.pk: team for team in teams}
    matches: dict[int, list[Match]] = {team.pk: [] for team in teams}
    for match in (
        Match.objects.filter(Q(ns_team__in=teams) | Q(ew_team__in=teams))
        .select_related("round", "ns_team", "ew_team")
        .prefetch_related("seats")
        .order_by("round__number")
    ):
        for team_id in (match.ns_team_id, match.ew_team_id):
            if team_id in matches and _sat_for(match, by_pk[team_id], player.pk):
                matches[team_id].append(match)
    result = []
    for team in teams:
        rows = [team_match_row(team, m) for m in matches[team.pk]]
        running = team.tournament.status == Tournament.Status.RUNNING
        upcoming = next_row(rows) if running and not team.withdrawn else None
        result.append({"team": team, "rows": rows, "next": upcoming})
    return result


# --- a player at a tournament: where they sit next ---------------------------------------------


# Lower case without accents, so "chloe" finds "Chloé": the folding the club's matchers use.
_folded = folded


# How close a name must be to be offered when no name contains what was typed (rapidfuzz, 0-100).
NAME_MATCH_CUTOFF = 75


def find_players(tournament: Tournament, query: str) -> list[tuple[Player, Entry]]:
    """The players of the tournament's entries not withdrawn, each with their entry (a team,
    or a mêlée's player), whose name holds every word typed, accents and case aside; when
    none does, the names closest to it (one query)."""
    entrants = [
        (player, entry)
        for entry in entries_with_players(tournament).filter(withdrawn=False).order_by("seed")
        for player in entry.players
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


def player_next(tournament: Tournament, team: Team, player: Player) -> dict[str, Any] | None:
    """The player's next (or current) match, seen from their team, with their seat."""
    upcoming = next_row(team_rows(tournament, team)) if not team.withdrawn else None
    if upcoming is None:
        return None
    partner = team.second_player if player.pk == team.first_player_id else team.first_player
    return {
        **upcoming,
        "partner": partner,
        "seat": seat_of(upcoming["side"], first=player.pk == team.first_player_id),
    }
