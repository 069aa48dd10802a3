"""Starting a knockout final: the top of the qualifying standings seeded into a bracket.

Team formats only: an individual tournament's players have no partnership to take into a
bracket, so it is refused there.

Its rounds are then drawn like any other (`draws.draw_next_round`), numbered after the
qualifying rounds; the bracket's seeds are fixed here, so a correction of a qualifying
match later does not reshuffle a bracket being played.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Bracket, Match, MatchEvent, Round, Tournament
from ..permissions import require_director
from ..scheduling.knockout import BRACKET_SIZES
from ..selectors.results import table_of
from .draws import locked
from .upcoming import RoundNotOver

__all__ = ["start_final", "start_final_refusal"]


def start_final(tournament: Tournament, *, size: int, third_place: bool, by: Any) -> Bracket:
    """Seed the top `size` of the qualifying standings into a knockout bracket.

    Its first round is then drawn like any other (`draw_next_round`). Until it is, the final
    may be started again (another size, with or without a third place).
    """
    require_director(by, tournament.club_id)
    if tournament.is_individual:
        raise _individual_refusal()
    if isinstance(size, bool) or size not in BRACKET_SIZES:
        raise ServiceError(
            _("A final is played by %(sizes)s teams.")
            % {"sizes": ", ".join(str(n) for n in BRACKET_SIZES)},
            field="size",
        )
    if not isinstance(third_place, bool):
        raise ServiceError(_("Expected true or false."), field="third_place")
    if third_place and size < 4:
        raise ServiceError(
            _("A third-place match needs a final of 4 teams or more."), field="third_place"
        )
    caller = tournament
    with changing(tournament.pk):
        tournament = locked(tournament)
        if (refusal := start_final_refusal(tournament)) is not None:
            raise refusal
        last = tournament.rounds.order_by("-number").first()
        assert last is not None  # the refusal says so otherwise
        lines = table_of(tournament).get(last.number, [])
        active = set(tournament.teams.filter(withdrawn=False).values_list("pk", flat=True))
        qualifiers = [
            line.team_id for line in lines if not line.withdrawn and line.team_id in active
        ]
        if len(qualifiers) < size:
            raise ServiceError(
                _("Only %(n)d teams can play the final: choose a smaller one.")
                % {"n": len(qualifiers)},
                field="size",
            )
        bracket, _created = Bracket.objects.update_or_create(
            tournament=tournament,
            defaults={
                "size": size,
                "third_place": third_place,
                "seeds": qualifiers[:size],
                "after_round": last.number,
            },
        )
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.FINAL,
            detail=_("final of %(size)d%(third)s")
            % {"size": size, "third": _(", with a third place") if third_place else ""},
            by=by,
        )
    caller.bracket = bracket  # the caller's copy may remember that there was no final
    return bracket


def _individual_refusal() -> Conflict:
    return Conflict(
        _(
            "A knockout final is played by teams; an individual tournament ranks its players by the standings."
        ),
        field="format",
    )


def start_final_refusal(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> ServiceError | None:
    """Why the final cannot be started (or seeded again) now; None: it can.

    A team format whose qualifying rounds are all drawn and over (every match finished, or
    closed by a director), before the final's first round is drawn. `schedule`: every round
    in order with its matches, when the caller has them (`selectors.tables`); then no query
    is needed.
    """
    if tournament.is_individual:
        return _individual_refusal()
    if schedule is None:
        rounds = list(tournament.rounds.order_by("number"))
        waiting = sorted(
            set(
                Match.objects.filter(tournament=tournament, ew_team__isnull=False, is_closed=False)
                .exclude(status=Match.Status.FINISHED)
                .values_list("round__number", flat=True)
            )
        )
    else:
        rounds = [round_ for round_, _matches in schedule]
        waiting = sorted(
            {
                round_.number
                for round_, matches in schedule
                for m in matches
                if not m.is_bye and not m.is_closed and m.status != Match.Status.FINISHED
            }
        )
    if any(r.is_knockout for r in rounds):
        return Conflict(_("The final has started: its bracket can no longer change."))
    if not rounds:
        return Conflict(_("The final follows the qualifying rounds: none is drawn yet."))
    planned = tournament.round_count if tournament.is_round_by_round else len(rounds)
    if len(rounds) < (planned or 0):
        return Conflict(
            _("The final follows the qualifying rounds: %(drawn)d of %(planned)d are drawn.")
            % {"drawn": len(rounds), "planned": planned}
        )
    if waiting:
        return RoundNotOver(
            _("The qualifying rounds are not over: round %(rounds)s still has matches to finish.")
            % {"rounds": ", ".join(map(str, waiting))}
        )
    return None
