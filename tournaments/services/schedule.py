"""Generating a tournament's round-robin schedule: rounds and matches from the Berger tables."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..changes import changing
from ..errors import EntriesNotCheckedIn, ScheduleLocked, ServiceError
from ..models import Attendance, Bracket, Match, MatchEvent, MatchSeat, Round, Seat, Tournament
from ..permissions import require_director
from ..scheduling import round_robin
from .lineup import line_ups_by_round

# Every match starts with North dealing: the referee rotates from there (the engine's
# dealer_of), and a fixed first dealer keeps the schedule reproducible and the sheet simple.
FIRST_DEALER = Seat.NORTH


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
    if tournament.is_round_by_round:
        raise ServiceError(
            _(
                "A Swiss, a concours or an individual tournament is drawn one round at a time: draw the next round."
            ),
            field="format",
        )
    with changing(tournament.pk):
        # The lock makes two directors generating at once take turns instead of mixing rounds.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if Bracket.objects.filter(tournament=tournament).exists():
            raise ScheduleLocked(_("The final has started: the schedule can no longer change."))
        if tournament.has_deals():
            raise ScheduleLocked(
                _("Deals have been entered: the schedule can no longer be regenerated.")
            )
        playing = tournament.teams.filter(withdrawn=False)
        if tournament.checks_in:
            expected = list(
                playing.filter(attendance=Attendance.EXPECTED)
                .order_by("seed")
                .values_list("name", flat=True)
            )
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
            playing = playing.filter(attendance=Attendance.PRESENT)
        teams = list(playing.order_by("seed", "pk"))
        if len(teams) < 2:
            raise ServiceError(
                _("A round robin needs at least two teams; this tournament has %(n)d.")
                % {"n": len(teams)},
                field="teams",
            )
        if draw_lots:
            (rng or random.SystemRandom()).shuffle(teams)
        double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
        schedule = round_robin(len(teams), double=double)

        # Rounds cascade to their matches and seats.
        tournament.rounds.all().delete()
        rounds = Round.objects.bulk_create(
            [Round(tournament=tournament, number=n) for n in range(1, len(schedule) + 1)]
        )
        matches = Match.objects.bulk_create(
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
            ]
        )
        # bulk_create skips Match.save, so the seats that keep "once a round" are made here.
        line_ups = line_ups_by_round(tournament, [r.number for r in rounds])
        MatchSeat.objects.bulk_create(
            [seat for match in matches for seat in match.seat_rows(line_ups[match.round.number])]
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
