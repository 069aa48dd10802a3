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

Which round comes next and why none may be drawn is `upcoming`'s; a Swiss's or a
concours's round fed from the database is `team_draws`'.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Deal, Match, MatchEvent, Round, SitOut, Team, Tournament
from ..permissions import require_director
from ..scheduling.knockout import KnockoutRound
from ..selectors.players import entries_left_out
from .lineup import line_ups_for
from .planned import PlannedMatch, PlannedRound
from .schedule import FIRST_DEALER
from .team_draws import next_qualifying_round
from .upcoming import AllRoundsDrawn, NextRound, RoundNotOver, draw_refusal, what_comes_next

__all__ = [
    "AllRoundsDrawn",
    "DrawChanged",
    "NextRound",
    "PlannedMatch",
    "PlannedRound",
    "RoundNotOver",
    "delete_last_round",
    "delete_round_refusal",
    "draw_next_round",
    "draw_refusal",
    "next_round",
    "what_comes_next",
]


class DrawChanged(Conflict):
    code = "draw_changed"


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
    planned = next_qualifying_round(tournament, upcoming.number, referees, schedule)
    if tournament.checks_in:
        planned = dataclasses.replace(
            planned,
            left_out=tuple((entry.name, why) for entry, why in entries_left_out(tournament)),
        )
    return planned


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
