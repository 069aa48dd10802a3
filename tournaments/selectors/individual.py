"""Reads of an individual tournament (mêlée): its players, who sits out, each player's rounds
with their seat, partner and opponents, and their line (imported as `selectors.individual`).

A mêlée's tables are matches of two partnerships of their round (`Team.round`), so a player's
round is the match one of whose teams they are in; a round they sit out is a SitOut row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from club.models import Player

from ..models import Entrant, Match, SitOut, Team, Tournament, seat_of
from .people import team_match_row
from .tournament import SEATED, entrants_with_players, open_round_numbers

__all__ = [
    "entrant_next",
    "entrant_rows",
    "entrants_with_draws",
    "player_entries",
    "sit_outs_by_round",
]


def entrants_with_draws(tournament: Tournament) -> QuerySet[Entrant]:
    """The players by seed, each with `drawn`: already drawn in a round, at a table or
    sitting out (they can then be withdrawn, no longer deleted). One query."""
    partnered = Team.objects.filter(tournament=OuterRef("tournament")).filter(
        Q(first_player=OuterRef("player")) | Q(second_player=OuterRef("player"))
    )
    sat_out = SitOut.objects.filter(entrant=OuterRef("pk"))
    return entrants_with_players(tournament).annotate(drawn=Exists(partnered) | Exists(sat_out))


def sit_outs_by_round(tournament: Tournament, numbers: Iterable[int]) -> dict[int, list[Entrant]]:
    """Who sits out each of those rounds of an individual tournament (one query; none in a
    team format, where nobody does)."""
    found: dict[int, list[Entrant]] = {}
    if not tournament.is_individual:
        return found
    for sit_out in (
        SitOut.objects.filter(round__tournament=tournament, round__number__in=list(numbers))
        .select_related("round", "entrant__player")
        .order_by("round__number", "entrant__seed")
    ):
        found.setdefault(sit_out.round.number, []).append(sit_out.entrant)
    return found


def _plays_in(player: Player | int) -> Q:
    return (
        Q(ns_team__first_player=player)
        | Q(ns_team__second_player=player)
        | Q(ew_team__first_player=player)
        | Q(ew_team__second_player=player)
    )


def entrant_rows(tournament: Tournament, entrant: Entrant) -> list[dict[str, Any]]:
    """An individual tournament's player round by round (two queries): each match seen from
    their partnership (`team_match_row`) with their seat, partner and two opponents; a round
    they sat out has no match (`sat_out`)."""
    matches = tournament.matches.filter(_plays_in(entrant.player_id))
    sit_outs = SitOut.objects.filter(entrant=entrant)
    return _rows_of(entrant.player, _seated(matches), sit_outs.select_related("round"))


def _seated(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.select_related("round", *SEATED).order_by("round__number")


def _rows_of(
    player: Player, matches: Iterable[Match], sit_outs: Iterable[SitOut]
) -> list[dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    for match in matches:
        ours = match.ns_team if player.pk in _player_ids(match.ns_team) else match.ew_team
        assert ours is not None
        row = team_match_row(ours, match)
        across = match.ew_team if ours is match.ns_team else match.ns_team
        row.update(
            round=match.round,
            sat_out=False,
            team=ours,
            seat=seat_of(row["side"], first=player.pk == ours.first_player_id),
            partner=ours.second_player if player.pk == ours.first_player_id else ours.first_player,
            opponents=across.players if across is not None else (),
        )
        rows[match.round.number] = row
    for sit_out in sit_outs:
        rows[sit_out.round.number] = {"round": sit_out.round, "match": None, "sat_out": True}
    return [rows[number] for number in sorted(rows)]


def entrant_next(
    tournament: Tournament, entrant: Entrant, rows: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Of `entrant_rows`, the player's next (or current) table, or the round in play they sit
    out; None once every round drawn is played, or once they have withdrawn (one query)."""
    if entrant.withdrawn:
        return None
    waiting = open_round_numbers(tournament)
    for row in rows:
        if row["sat_out"]:
            if row["round"].number in waiting:
                return row
        elif row["match"].status != Match.Status.FINISHED:
            return row
    return None


def _player_ids(team: Team) -> tuple[int, int]:
    return (team.first_player_id, team.second_player_id)


def player_entries(player: Player) -> list[dict[str, Any]]:
    """The player's individual tournaments that are public, newest first, each with its
    rounds as `entrant_rows` gives them (three queries, however many tournaments)."""
    entries = list(
        Entrant.objects.filter(player=player, tournament__is_public=True)
        .select_related("tournament__club", "player")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    matches: dict[int, list[Match]] = {entry.tournament_id: [] for entry in entries}
    for match in _seated(Match.objects.filter(_plays_in(player.pk), tournament__in=list(matches))):
        matches[match.tournament_id].append(match)
    sit_outs: dict[int, list[SitOut]] = {entry.pk: [] for entry in entries}
    for sit_out in SitOut.objects.filter(entrant__in=entries).select_related("round"):
        sit_outs[sit_out.entrant_id].append(sit_out)
    return [
        {
            "entrant": entry,
            "rows": _rows_of(player, matches[entry.tournament_id], sit_outs[entry.pk]),
        }
        for entry in entries
    ]
