"""Generating a tournament's round-robin schedule: rounds and matches from the Berger tables."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..changes import changing
from ..errors import EntriesNotCheckedIn, ScheduleLocked, ServiceError
from ..models import Attendance, Bracket, Match, MatchEvent, Round, Seat, Tournament
from ..permissions import require_director
from ..scheduling import round_robin
from ..selectors.players import entries_in_play, entries_left_out
from .lineup import line_ups_by_round

# Every match starts with North dealing: the referee rotates from there (the engine's
# dealer_of), and a fixed first dealer keeps the schedule reproducible and the sheet simple.
FIRST_DEALER = Seat.NORTH


def generate_refusal(
    tournament: Tournament,
    *,
    teams: int | None = None,
    played: bool | None = None,
    final: bool | None = None,
) -> ServiceError | None:
    """Why the round robin cannot be generated (again) now; None: it can.

    `teams` (active teams), `played` (whether a deal exists) and `final` (whether a final
    was started), when the caller has read them.
    """
    if tournament.is_round_by_round:
        return ServiceError(
            _(
                "A Swiss, a concours or an individual tournament is drawn one round at a time: draw the next round."
            ),
            field="format",
        )
    if final is None:
        final = Bracket.objects.filter(tournament=tournament).exists()
    if final:
        return ScheduleLocked(_("The final has started: the schedule can no longer change."))
    if played if played is not None else tournament.has_deals():
        return ScheduleLocked(
            _("Deals have been entered: the schedule can no longer be regenerated.")
        )
    if teams is None:
        teams = tournament.teams.filter(withdrawn=False).count()
    if teams < 2:
        return ServiceError(
            _("A round robin needs at least two teams; this tournament has %(n)d.") % {"n": teams},
            field="teams",
        )
    return None


def generate_round_robin(
    tournament: Tournament,
    *,
    by: Any,
    draw_lots: bool = False,
    rng: random.Random | None = None,
    leave_out_expected: bool = False,
) -> list[Round]:
    """Build (or rebuild) the single or double round robin (those formats only) of the tournament's active teams.

    Pairing numbers follow the seeds, or are drawn by lot with `rng` when `draw_lots`.
    Withdrawn teams are left out; with check-in on, so are the teams not present, and
    teams still expected (not checked in) are asked about first (`EntriesNotCheckedIn`)
    unless `leave_out_expected`. An existing schedule is replaced while no deal has
    been entered; after that the schedule is locked.
    """
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        # The lock makes two directors generating at once take turns instead of mixing rounds.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        # The format, a final, deals (the count of teams comes after the check-in).
        if (refusal := generate_refusal(tournament, teams=2)) is not None:
            raise refusal
        if tournament.checks_in:
            expected = [
                entry.name
                for entry, _why in entries_left_out(tournament)
                if entry.attendance == Attendance.EXPECTED
            ]
            if expected and not leave_out_expected:
                raise EntriesNotCheckedIn(
                    ngettext(
                        "%(n)d team is not checked in (%(teams)s): generate the schedule without it?",
                        "%(n)d teams are not checked in (%(teams)s): generate the schedule without them?",
                        len(expected),
                    )
                    % {"n": len(expected), "teams": ", ".join(expected)},
                    expected=expected,
                )
        teams = list(entries_in_play(tournament))
        refusal = generate_refusal(tournament, teams=len(teams), final=False, played=False)
        if refusal is not None:
            raise refusal
        if draw_lots:
            (rng or random.SystemRandom()).shuffle(teams)
        double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
        schedule = round_robin(len(teams), double=double)

        # Rounds cascade to their matches and seats.
        tournament.rounds.all().delete()
        rounds = Round.objects.bulk_create(
            [Round(tournament=tournament, number=n) for n in range(1, len(schedule) + 1)]
        )
        Match.objects.create_seated(
            [
                Match(
                    round=rounds[pairing.round - 1],
                    tournament=tournament,
                    table=pairing.table,
                    ns_team=teams[pairing.ns - 1],
                    ew_team=None if pairing.ew is None else teams[pairing.ew - 1],
                    first_dealer=FIRST_DEALER,
                )
                for pairing in schedule.pairings()
            ],
            line_ups=line_ups_by_round(tournament, [r.number for r in rounds]),
        )
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.SCHEDULE,
            detail=_("%(rounds)d rounds for %(teams)d teams%(lots)s")
            % {
                "rounds": len(rounds),
                "teams": len(teams),
                "lots": _(", drawn by lot") if draw_lots else "",
            },
            by=by,
        )
    return rounds
