"""Drawing the next round of a Swiss, a concours, an individual tournament or a knockout final,
and deleting the last round.

The draw itself is pure (`tournaments.scheduling`); here it is fed from the database and
stored. `next_round` computes the round the tournament would draw now without storing
anything: the director's preview shows it, and `draw_next_round` stores exactly it (the
same seed and the same results give the same round; a `fingerprint` tells the two apart
should a result change in between).

When (docs/formats.md): round k is drawn once every match of round k-1 is finished or
closed, never past the last round. The qualifying rounds of a Swiss, a concours or an
individual tournament come first (`round_count` of them); a knockout final, started after
the qualifying rounds of any team format (`finals.start_final`), adds its rounds after them,
drawn the same way. A round robin's qualifying rounds are generated at once
(`schedule.generate_round_robin`). An individual tournament's round is drawn by
`individual.next_individual_round`: its matches are two partnerships of that round, stored
here with the round, and its sit-outs.

Each table keeps its referee: the match at table t of a new round gets the referee of
table t in the round before, so a referee stays at their table all evening unless a
director moves them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import selectors
from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import (
    Deal,
    Match,
    MatchEvent,
    Round,
    SitOut,
    Team,
    Tournament,
)
from ..permissions import require_director
from ..scheduling import PairBy, TeamRecord, draw_team_round
from ..scheduling.knockout import KnockoutRound
from ..selectors.players import entries_in_play, entries_left_out
from ..selectors.results import table_of
from .individual import next_individual_round
from .lineup import line_ups_for
from .planned import PlannedMatch, PlannedRound
from .schedule import FIRST_DEALER

__all__ = [
    "NextRound",
    "PlannedMatch",
    "PlannedRound",
    "delete_last_round",
    "delete_round_refusal",
    "draw_next_round",
    "draw_refusal",
    "next_round",
    "what_comes_next",
]


class RoundNotOver(Conflict):
    code = "round_not_finished"


class AllRoundsDrawn(Conflict):
    code = "all_rounds_drawn"


class DrawChanged(Conflict):
    code = "draw_changed"


# --- what comes next -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NextRound:
    """Which round comes next and what its draw reads: the last round, the bracket."""

    number: int
    stage: str
    last: Round | None
    progress: selectors.KnockoutProgress | None

    @property
    def label(self) -> str:
        return str(Round(number=self.number, stage=self.stage))


def what_comes_next(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> NextRound:
    """The round the tournament may draw now, without drawing it (a few queries).

    Raises a Conflict saying why no round can be drawn: every round is drawn, the last one
    is not over (a knockout match without a winner), or the format generates its
    schedule at once. `schedule`: every round in order with its matches, when the caller
    has them (`selectors.tables`); then no query is needed.
    """
    if schedule is None:
        rounds = list(tournament.rounds.order_by("number"))
    else:
        rounds = [round_ for round_, _matches in schedule]
    last = rounds[-1] if rounds else None
    progress = selectors.knockout_progress(tournament, schedule)
    if progress is not None:
        if sum(r.is_knockout for r in rounds) >= progress.bracket.rounds:
            raise AllRoundsDrawn(_("Every round of the final is drawn."))
    elif not tournament.is_round_by_round:
        if rounds:
            raise AllRoundsDrawn(
                _("The round robin's rounds are all drawn; start a final to play on.")
            )
        raise Conflict(
            _("A round robin's schedule is generated at once: generate the schedule."),
            field="format",
        )
    elif len(rounds) >= (tournament.round_count or 0):
        raise AllRoundsDrawn(
            ngettext(
                "The tournament's %(n)d round is drawn.",
                "All %(n)d rounds of the tournament are drawn.",
                len(rounds),
            )
            % {"n": len(rounds)}
        )
    if last is not None:
        _check_over(last, schedule[-1][1] if schedule else None)
    number = (last.number if last else 0) + 1
    if progress is None:
        return NextRound(number, Round.Stage.QUALIFYING, last, None)
    if progress.problem:
        raise Conflict(progress.problem)
    if progress.upcoming is None:
        _round, played, winners = progress.played[-1]
        undecided = [m.table for m in played.matches if m.table not in winners]
        raise RoundNotOver(
            _("%(round)s: table %(tables)s has no winner yet.")
            % {"round": _round, "tables": ", ".join(map(str, undecided))}
        )
    return NextRound(number, _knockout_stage(progress.upcoming), last, progress)


def draw_refusal(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> ServiceError | None:
    """Why no round can be drawn now (None: the next one can): `what_comes_next`'s reason.

    The draw itself may still find too few teams (or players) to pair; its preview says so.
    """
    try:
        what_comes_next(tournament, schedule)
    except ServiceError as refusal:
        return refusal
    return None


def next_round(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> PlannedRound:
    """The round the tournament would draw now, drawn but not stored (`what_comes_next`)."""
    upcoming = what_comes_next(tournament, schedule)
    referees = _referees_by_table(upcoming.last, schedule[-1][1] if schedule else None)
    if upcoming.progress is not None:
        assert upcoming.progress.upcoming is not None
        teams = {t.pk: t for t in tournament.teams.all()}
        matches = _knockout_matches(upcoming.progress.upcoming, teams, referees)
        return PlannedRound(upcoming.number, upcoming.stage, tuple(matches))
    planned = _next_qualifying_round(tournament, upcoming.number, referees, schedule)
    if tournament.checks_in:
        planned = dataclasses.replace(
            planned,
            left_out=tuple((entry.name, why) for entry, why in entries_left_out(tournament)),
        )
    return planned


def _check_over(last: Round, matches: list[Match] | None = None) -> None:
    """Every match of the last round finished or closed by a director; byes need nothing."""
    if matches is None:
        matches = list(last.matches.all())
    waiting = sorted(
        m.table or 0
        for m in matches
        if not m.is_bye and not m.is_closed and m.status != Match.Status.FINISHED
    )
    if waiting:
        raise RoundNotOver(
            ngettext(
                "%(round)s is not over: table %(tables)s is still to finish (or a director closes it).",
                "%(round)s is not over: tables %(tables)s are still to finish (or a director closes them).",
                len(waiting),
            )
            % {"round": last, "tables": ", ".join(str(t) for t in waiting)}
        )


def _referees_by_table(last: Round | None, matches: list[Match] | None = None) -> dict[int, Any]:
    if last is None:
        return {}
    if matches is None:
        matches = list(last.matches.select_related("referee__player"))
    return {
        match.table: match.referee
        for match in matches
        if match.table is not None and match.referee_id is not None
    }


def _active_teams(tournament: Tournament) -> dict[int, Team]:
    # With check-in on, a draw takes only the teams present (`entries_left_out` says who not).
    teams = {t.pk: t for t in entries_in_play(tournament)}
    if len(teams) < 2:
        if tournament.checks_in:
            message = _("A round needs at least two teams; %(n)d are checked in.")
        else:
            message = _("A round needs at least two teams; this tournament has %(n)d.")
        raise ServiceError(message % {"n": len(teams)}, field="teams")
    return teams


def _pair_by(tournament: Tournament) -> PairBy:
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


def _next_qualifying_round(
    tournament: Tournament,
    number: int,
    referees: dict[int, Any],
    schedule: list[tuple[Round, list[Match]]] | None,
) -> PlannedRound:
    if tournament.is_individual:
        return next_individual_round(tournament, number, referees, schedule)
    teams = _active_teams(tournament)
    drawn = draw_team_round(
        team_records(tournament, teams, number, schedule),
        round_number=number,
        seed=tournament.draw_seed,
        pair_by=_pair_by(tournament),
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


def _knockout_stage(drawn: KnockoutRound) -> str:
    return Round.Stage.of_knockout(drawn.size >> (drawn.round - 1))


def _knockout_matches(
    drawn: KnockoutRound, teams: dict[int, Team], referees: dict[int, Any]
) -> list[PlannedMatch]:
    """The bracket's matches; a team that has withdrawn since leaves its opponent a bye."""
    planned = []
    for match in drawn.matches:
        ns, ew = teams[match.ns], teams[match.ew]
        if ns.withdrawn:
            ns, ew = ew, ns
        if ew.withdrawn:
            planned.append(PlannedMatch(None, ns, None, third_place=match.third_place))
            continue
        planned.append(
            PlannedMatch(match.table, ns, ew, referees.get(match.table), match.third_place)
        )
    return planned


# --- storing ---------------------------------------------------------------------------------


def draw_next_round(tournament: Tournament, *, by: Any, expected: str | None = None) -> Round:
    """Draw and store the next round (`next_round`), each table with its referee.

    `expected`: the fingerprint of the draw a director was shown; a different draw (a
    result changed since) is refused rather than stored unseen.
    """
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        # Two directors drawing at once take turns: the second finds the round drawn.
        tournament = locked(tournament)
        planned = next_round(tournament)
        if expected is not None and expected != planned.fingerprint:
            raise DrawChanged(
                _(
                    "The draw has changed since it was shown (a result or a team changed): look at it again."
                )
            )
        round_ = Round.objects.create(
            tournament=tournament, number=planned.number, stage=planned.stage
        )
        # An individual round's partnerships are made with it: they play this round only.
        partnerships: list[Team] = []
        for m in planned.matches:
            for team in (m.ns, m.ew):
                if team is not None and team.pk is None:
                    team.round = round_
                    partnerships.append(team)
        Team.objects.bulk_create(partnerships)
        SitOut.objects.bulk_create(SitOut(round=round_, entrant=e) for e in planned.sit_outs)
        matches = Match.objects.create_seated(
            [
                Match(
                    round=round_,
                    tournament=tournament,
                    table=m.table,
                    ns_team=m.ns,
                    ew_team=m.ew,
                    referee=m.referee,
                    first_dealer=FIRST_DEALER,
                )
                for m in planned.matches
            ],
            line_ups={planned.number: line_ups_for(tournament, planned.number)},
        )
        byes = [m.ns.name for m in planned.matches if m.is_bye]
        sitting = [e.name for e in planned.sit_outs]
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.DRAW,
            detail=(
                _("%(round)s: %(n)d matches") % {"round": round_, "n": len(matches) - len(byes)}
                + (_(", bye: %(teams)s") % {"teams": ", ".join(byes)} if byes else "")
                + (
                    _(", sitting out: %(players)s") % {"players": ", ".join(sitting)}
                    if sitting
                    else ""
                )
            ),
            by=by,
        )
    return round_


def locked(tournament: Tournament) -> Tournament:
    """The tournament row locked, read again with its bracket (a copy read before may be stale)."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club", "bracket")
        .get(pk=tournament.pk)
    )


def delete_round_refusal(
    round: Round, *, last: Round | None = None, played: bool | None = None
) -> ServiceError | None:
    """Why `round` cannot be deleted now (None: it can): only the last round of a draw made
    round by round (or of a final), while none of its deals exists.

    `last` (the tournament's last round) and `played` (whether the round has a deal), when
    the caller has read them.
    """
    tournament = round.tournament
    if last is None:
        last = tournament.rounds.order_by("-number").first()
    if last is None or last.pk != round.pk:
        return Conflict(
            _("Only the last round can be deleted: %(last)s comes after %(round)s.")
            % {"last": last, "round": round},
            field="round",
        )
    if not round.is_knockout and not tournament.is_round_by_round:
        return Conflict(
            _("A round robin's rounds go together: generate the schedule again instead."),
            field="round",
        )
    if played is None:
        played = Deal.objects.filter(match__round=round).exists()
    if played:
        return Conflict(
            _("Deals have been entered in %(round)s: it can no longer be deleted.")
            % {"round": round},
            field="round",
        )
    return None


def delete_last_round(round: Round, *, by: Any) -> None:
    """Remove the last round while none of its deals exists, so it can be drawn again."""
    tournament = round.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if (refusal := delete_round_refusal(round)) is not None:
            raise refusal
        label = str(round)
        round.delete()
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.DELETE_ROUND, detail=label, by=by
        )
