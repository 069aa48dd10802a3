"""The next qualifying round drawn from the database, not stored: a Swiss's or a concours's
teams with their past (an individual tournament's players: `individual`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import Match, Round, Team, Tournament
from ..scheduling import PairBy, TeamRecord, draw_team_round
from ..selectors.players import entries_in_play
from ..selectors.results import table_of
from .individual import next_individual_round
from .planned import PlannedMatch, PlannedRound


def active_teams(tournament: Tournament) -> dict[int, Team]:
    # With check-in on, a draw takes only the teams present (`entries_left_out` says who not).
    teams = {t.pk: t for t in entries_in_play(tournament)}
    if len(teams) < 2:
        if tournament.checks_in:
            message = _("A round needs at least two teams; %(n)d are checked in.")
        else:
            message = _("A round needs at least two teams; this tournament has %(n)d.")
        raise ServiceError(message % {"n": len(teams)}, field="teams")
    return teams


def pair_by(tournament: Tournament) -> PairBy:
    if tournament.format == Tournament.Format.SWISS:
        return PairBy.MATCH_POINTS
    if tournament.draw == Tournament.Draw.RANKING:
        return PairBy.RANK
    return PairBy.LOT


@dataclass(slots=True)
class _Past:
    opponents: list[int] = field(default_factory=list)
    byes: int = 0
    ns: int = 0
    ew: int = 0


def team_records(
    tournament: Tournament,
    teams: dict[int, Team],
    number: int,
    schedule: list[tuple[Round, list[Match]]] | None = None,
) -> list[TeamRecord]:
    """Each team's past as the draw of round `number` reads it (three queries, two with `schedule`).

    Places and match points are the standings after the round before, computed now from
    the stored results (the stored standings may be a moment behind); opponents, byes and
    seats come from every qualifying match drawn so far.
    """
    history = {team: _Past() for team in teams}
    pairs: Iterable[tuple[int, int | None]]
    if schedule is None:
        pairs = Match.objects.filter(
            tournament=tournament, round__stage=Round.Stage.QUALIFYING
        ).values_list("ns_team_id", "ew_team_id")
    else:
        pairs = [
            (m.ns_team_id, m.ew_team_id)
            for round_, matches in schedule
            if not round_.is_knockout
            for m in matches
        ]
    for ns, ew in pairs:
        if ns in history:
            if ew is None:
                history[ns].byes += 1
                continue
            history[ns].opponents.append(ew)
            history[ns].ns += 1
        if ew in history:
            history[ew].opponents.append(ns)
            history[ew].ew += 1
    lines = {}
    if number > 1:
        by_round = table_of(tournament)
        after = max((n for n in by_round if n < number), default=None)
        lines = {line.team_id: line for line in by_round.get(after, [])} if after else {}
    last_place = max((line.rank for line in lines.values()), default=0) + 1
    return [
        TeamRecord(
            team=team,
            rank=lines[team].rank if team in lines else last_place,
            match_points=lines[team].match_points if team in lines else 0,
            opponents=tuple(past.opponents),
            byes=past.byes,
            ns=past.ns,
            ew=past.ew,
        )
        for team, past in history.items()
    ]


def next_qualifying_round(
    tournament: Tournament,
    number: int,
    referees: dict[int, Any],
    schedule: list[tuple[Round, list[Match]]] | None,
) -> PlannedRound:
    if tournament.is_individual:
        return next_individual_round(tournament, number, referees, schedule)
    teams = active_teams(tournament)
    drawn = draw_team_round(
        team_records(tournament, teams, number, schedule),
        round_number=number,
        seed=tournament.draw_seed,
        pair_by=pair_by(tournament),
    )
    matches = tuple(
        PlannedMatch(
            table=p.table,
            ns=teams[p.ns],
            ew=None if p.ew is None else teams[p.ew],
            referee=referees.get(p.table) if p.table else None,
        )
        for p in drawn.pairings
    )
    return PlannedRound(number, Round.Stage.QUALIFYING, matches, drawn.repeats)
