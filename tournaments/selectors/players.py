"""Who plays tonight: the one owner of which entries a draw takes, which it leaves out and why,
and which are players of the evening (a place in its standings, an evening in a series).

An entry is a registered team, or a player of an individual tournament (`Entrant`). It is in
play when it has not withdrawn and, with check-in on, is present. It is a player of the
evening when it is in play or has sat at a table (drawn in a match, or sitting a mêlée round
out): so a team withdrawn after playing keeps its line, and one that never came has none.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from ..models import Attendance, Entry, Match, SitOut, Team, Tournament

__all__ = [
    "entries",
    "entries_in_play",
    "entries_left_out",
    "entries_of_the_evening",
    "entries_with_players",
    "has_sat",
]


def entries(tournament: Tournament) -> QuerySet[Any]:
    """Every entry, withdrawn or not: registered teams (not a mêlée's partnerships) or
    entrants."""
    return tournament.entry_model.registered(tournament)


def entries_with_players(tournament: Tournament) -> QuerySet[Any]:
    """Every entry with its players joined (one query to name them all)."""
    return entries(tournament).select_related(*tournament.entry_model.players_related)


def _in_play(tournament: Tournament) -> Q:
    if tournament.checks_in:
        return Q(withdrawn=False, attendance=Attendance.PRESENT)
    return Q(withdrawn=False)


def entries_in_play(tournament: Tournament) -> QuerySet[Any]:
    """The entries the next draw takes (every format), in seed order."""
    return entries(tournament).filter(_in_play(tournament)).order_by("seed", "pk")


def entries_left_out(tournament: Tournament) -> list[tuple[Entry, str]]:
    """The entries not withdrawn that a draw leaves out (check-in on), in seed order, each
    with why: absent, or not checked in (still expected)."""
    if not tournament.checks_in:
        return []
    reasons = {Attendance.EXPECTED: _("not checked in"), Attendance.ABSENT: _("absent")}
    rows = (
        entries_with_players(tournament)
        .filter(withdrawn=False)
        .exclude(attendance=Attendance.PRESENT)
        .order_by("seed", "pk")
    )
    return [(entry, str(reasons[entry.attendance])) for entry in rows]


def _has_sat(tournament: Tournament) -> Q:
    if tournament.is_individual:
        partnered = Team.objects.filter(tournament_id=tournament.pk, round__isnull=False).filter(
            Q(first_player_id=OuterRef("player_id")) | Q(second_player_id=OuterRef("player_id"))
        )
        return Q(Exists(partnered)) | Q(Exists(SitOut.objects.filter(entrant_id=OuterRef("pk"))))
    drawn = Match.objects.filter(Q(ns_team_id=OuterRef("pk")) | Q(ew_team_id=OuterRef("pk")))
    return Q(Exists(drawn))


def entries_of_the_evening(tournament: Tournament) -> QuerySet[Any]:
    """The entries that are players of the evening: in play, or having sat at a table. The
    standings rank these and no others."""
    return entries(tournament).filter(_in_play(tournament) | _has_sat(tournament))


def has_sat(entry: Entry) -> bool:
    """Whether the entry has sat at a table: drawn in a match (a mêlée's player: in a
    partnership), or sitting a round out."""
    tournament = entry.tournament
    return entries(tournament).filter(pk=entry.pk).filter(_has_sat(tournament)).exists()
