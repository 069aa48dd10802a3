"""A director's actions on a running tournament: withdrawals, rounds, referees, status."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import selectors
from ..changes import changing
from ..errors import Conflict, RoundNotReady, ServiceError
from ..models import Deal, Entry, Match, MatchEvent, MatchSeat, Round, Seat, Team, Tournament
from ..permissions import may_referee, require_director, results_final_refusal
from .registration import require_registered
from .upcoming import AllRoundsDrawn, draw_refusal


def withdraw_team(team: Team, *, by: Any) -> list[Match]:
    """Withdraw a team: each of its matches without a deal becomes a bye for the opponent.

    Matches with deals stay as they are (played, or in progress: the director closes or
    corrects them); the team's own byes disappear. Returns the matches turned into byes.
    What changed is kept on the team (`Team.withdrawal`), so `reinstate_team` can undo it
    until the next round is drawn.
    """
    tournament = team.tournament
    require_director(by, tournament.club_id)
    require_registered(team)
    with changing(tournament.pk):
        team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
        if (refusal := withdraw_refusal(team)) is not None:
            raise refusal
        undo: dict[str, Any] = {"rounds": last_round_number(tournament), "byes": [], "own_byes": []}
        team.withdrawn = True
        team.withdrawn_at = timezone.now()
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.WITHDRAW, detail=team, by=by
        )
        played = set(
            Deal.objects.filter(match__tournament=tournament).values_list("match_id", flat=True)
        )
        byes: list[Match] = []
        matches = (
            Match.objects.select_for_update(of=("self",))
            .filter(Q(ns_team=team) | Q(ew_team=team), tournament=tournament)
            .order_by("round__number", "table")
        )
        for match in matches:
            if match.pk in played or match.deal_count:
                continue
            if match.ew_team_id is None:
                # The withdrawn team's own bye: nothing left to play.
                MatchEvent.record(
                    tournament=tournament,
                    action=MatchEvent.Action.BYE_REMOVED,
                    detail=match,
                    by=by,
                )
                undo["own_byes"].append(match.round_id)
                match.delete()
                continue
            undo["byes"].append(
                {
                    "match": match.pk,
                    "side": "NS" if match.ns_team_id == team.pk else "EW",
                    "table": match.table,
                    "referee": match.referee_id,
                }
            )
            opponent_id = match.ew_team_id if match.ns_team_id == team.pk else match.ns_team_id
            match.ns_team_id, match.ew_team_id = opponent_id, None
            # A bye takes no table; the referee has nothing to referee.
            match.table, match.referee = None, None
            match.save()
            MatchEvent.record(
                tournament=tournament,
                match=match,
                action=MatchEvent.Action.BYE,
                detail=_("%(team)s withdrew") % {"team": team},
                by=by,
            )
            byes.append(match)
        team.withdrawal = undo
        team.save(update_fields=["withdrawn", "withdrawn_at", "withdrawal"])
    return byes


def last_round_number(tournament: Tournament) -> int:
    """The number of the last round drawn (0 before the first)."""
    return tournament.rounds.aggregate(top=Max("number"))["top"] or 0


class NextRoundDrawn(Conflict):
    code = "next_round_drawn"


def withdraw_refusal(whose: Entry) -> ServiceError | None:
    """Why a team (or mêlée player) cannot withdraw now; None when it can: not withdrawn yet,
    and not once the results are final (a withdrawal is marked in the standings)."""
    if whose.withdrawn:
        return Conflict(_("%(name)s has already withdrawn.") % {"name": whose})
    return results_final_refusal(whose.tournament)


def reinstate_refusal(whose: Entry) -> ServiceError | None:
    """Why a withdrawn team (or mêlée player) cannot come back; None when it can: only a
    withdrawn entry, only until the next round is drawn, and not once the results are final."""
    if (final := results_final_refusal(whose.tournament)) is not None:
        return final
    if not whose.withdrawn:
        return Conflict(_("%(name)s has not withdrawn.") % {"name": whose}, field="withdrawn")
    drawn = last_round_number(whose.tournament)
    if drawn > (whose.withdrawal or {}).get("rounds", drawn):
        return NextRoundDrawn(
            _("%(name)s cannot come back: a round has been drawn since the withdrawal.")
            % {"name": whose},
            field="withdrawn",
        )
    return None


def reinstate_team(team: Team, *, by: Any) -> list[Match]:
    """Undo a withdrawal before the next round is drawn: the byes it made are matches again
    (those still unplayed in rounds not closed), the team's own byes come back. Returns the
    matches the team plays again."""
    tournament = team.tournament
    require_director(by, tournament.club_id)
    require_registered(team)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
        refusal = reinstate_refusal(team)
        if refusal is not None:
            raise refusal
        undo = team.withdrawal or {}
        back: list[Match] = []
        for bye in undo.get("byes", []):
            match = (
                Match.objects.select_for_update(of=("self",))
                .filter(pk=bye["match"], ew_team__isnull=True, deal_count=0, round__is_closed=False)
                .select_related("round")
                .first()
            )
            if match is None or Deal.objects.filter(match=match).exists():
                continue
            if MatchSeat.objects.filter(round_id=match.round_id, team=team).exists():
                continue
            taken = {
                t
                for t in Match.objects.filter(round_id=match.round_id).values_list(
                    "table", flat=True
                )
                if t is not None
            }
            table = bye["table"]
            if table is None or table in taken:
                table = max(taken, default=0) + 1
            if bye["side"] == "NS":
                match.ns_team_id, match.ew_team_id = team.pk, match.ns_team_id
            else:
                match.ew_team_id = team.pk
            match.table = table
            match.referee_id = bye.get("referee")
            match.save()
            back.append(match)
        for round_id in undo.get("own_byes", []):
            round_ = Round.objects.filter(pk=round_id, is_closed=False).first()
            if round_ is None or MatchSeat.objects.filter(round=round_, team=team).exists():
                continue
            back.append(
                Match.objects.create(
                    round=round_, tournament=tournament, ns_team=team, first_dealer=Seat.NORTH
                )
            )
        team.withdrawn, team.withdrawn_at, team.withdrawal = False, None, {}
        team.save(update_fields=["withdrawn", "withdrawn_at", "withdrawal"])
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.REINSTATE, detail=team, by=by
        )
    return back


def _set_round_closed(round: Round, closed: bool, by: Any, force: bool = False) -> Round:
    require_director(by, round.tournament.club_id)
    with changing(round.tournament_id):
        round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        # A closed match counts as over for the final and the standings' notes: fixed too.
        if (final := results_final_refusal(round.tournament)) is not None:
            raise final
        detail = str(round)
        if closed and (refusal := close_round_refusal(round)) is not None:
            if not force:
                raise refusal
            detail = refusal.message
        round.is_closed = closed
        round.save(update_fields=["is_closed"])
        Match.objects.filter(round=round).update(is_closed=closed, updated_at=timezone.now())
        MatchEvent.record(
            tournament=round.tournament_id,
            action=MatchEvent.Action.CLOSE_ROUND if closed else MatchEvent.Action.REOPEN_ROUND,
            detail=detail,
            by=by,
        )
    return round


def close_round_refusal(round: Round, matches: list[Match] | None = None) -> RoundNotReady | None:
    """Why the round cannot be closed now (None: it can): a match unfinished or a sheet not
    confirmed by both teams. A director may close it anyway (`close_round(force=True)`).

    `matches`: the round's matches with their confirmations, when the caller has them."""
    unfinished, unconfirmed = round_gaps(round, matches)
    if not unfinished and not unconfirmed:
        return None
    return RoundNotReady(
        _not_ready_message(round, unfinished, unconfirmed),
        unfinished=unfinished,
        unconfirmed=unconfirmed,
    )


def round_gaps(round: Round, matches: list[Match] | None = None) -> tuple[list[int], list[int]]:
    """The tables of the round still playing (or not started), and those finished whose sheet
    both teams have not confirmed (a dispute included)."""
    unfinished: list[int] = []
    unconfirmed: list[int] = []
    if matches is None:
        matches = list(
            Match.objects.filter(round=round, ew_team__isnull=False)
            .prefetch_related("confirmations")
            .order_by("table")
        )
    for match in sorted((m for m in matches if not m.is_bye), key=lambda m: m.table or 0):
        if match.status != Match.Status.FINISHED:
            unfinished.append(match.table or 0)
        elif not match.is_confirmed:
            unconfirmed.append(match.table or 0)
    return unfinished, unconfirmed


def _tables(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _not_ready_message(round: Round, unfinished: list[int], unconfirmed: list[int]) -> str:
    parts = []
    if unfinished:
        parts.append(
            ngettext(
                "%(n)d match is not finished (table %(tables)s)",
                "%(n)d matches are not finished (tables %(tables)s)",
                len(unfinished),
            )
            % {"n": len(unfinished), "tables": _tables(unfinished)}
        )
    if unconfirmed:
        parts.append(
            ngettext(
                "%(n)d sheet is not confirmed by both teams (table %(tables)s)",
                "%(n)d sheets are not confirmed by both teams (tables %(tables)s)",
                len(unconfirmed),
            )
            % {"n": len(unconfirmed), "tables": _tables(unconfirmed)}
        )
    return _("%(round)s: %(gaps)s.") % {"round": round, "gaps": "; ".join(parts)}


def close_round(round: Round, *, by: Any, force: bool = False) -> Round:
    """Close a round and every match in it: referees can no longer change their deals.

    A round with a match unfinished or a sheet unconfirmed is refused (`RoundNotReady`, which
    names the tables) unless `force`: the director was warned and closes it anyway.
    """
    return _set_round_closed(round, True, by, force)


def reopen_round(round: Round, *, by: Any) -> Round:
    """Reopen a round and its matches, so their referees may correct them again."""
    return _set_round_closed(round, False, by)


def _require_referee(tournament: Tournament, referee: Any) -> None:
    if not isinstance(referee, get_user_model()) or not may_referee(referee, tournament.club_id):
        raise ServiceError(
            # Never the person's name: they may be another club's, or the site's admin.
            _("User %(id)s is not a referee of %(club)s.")
            % {"id": getattr(referee, "pk", referee), "club": tournament.club},
            field="referee",
        )


def assign_referee(match: Match, referee: Any, *, by: Any) -> Match:
    """Give the match a referee (a referee or director of the club), or take it away (None)."""
    tournament = match.tournament
    require_director(by, tournament.club_id)
    if referee is not None:
        _require_referee(tournament, referee)
        if match.is_bye:
            raise ServiceError(_("A bye has no table to referee."), field="referee")
    with changing(tournament.pk):
        Match.objects.filter(pk=match.pk).update(referee=referee, updated_at=timezone.now())
        match.referee = referee
        MatchEvent.record(
            tournament=tournament,
            match=match,
            action=MatchEvent.Action.REFEREE,
            detail=referee if referee is not None else _("no referee"),
            by=by,
        )
    return match


def publish_refusal(tournament: Tournament, *, rounds: int | None = None) -> ServiceError | None:
    """Why the tournament cannot be published now (None: it can). `rounds`: how many rounds
    it has, when the caller has read them."""
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return AlreadyPublished(_("This tournament is already published."))
    if not (tournament.rounds.exists() if rounds is None else rounds):
        return NoSchedule(_("Generate the schedule first: then it can be played."), field="status")
    return None


def publish_tournament(tournament: Tournament, *, by: Any) -> Tournament:
    """Open play: a tournament whose schedule exists goes to `running`, in one step.

    Referees then find their tables, and the tournament is listed publicly if it is public.
    """
    require_director(by, tournament.club_id)
    if (refusal := publish_refusal(tournament)) is not None:
        raise refusal
    return set_status(tournament, Tournament.Status.RUNNING, by=by)


def finish_refusal(
    tournament: Tournament,
    schedule: list[tuple[Round, list[Match]]] | None = None,
    *,
    all_drawn: bool | None = None,
) -> ServiceError | None:
    """Why the evening cannot be finished in one step yet (None: it can): the tournament
    runs, every round is drawn (`all_drawn`, the draw's word) and every table is finished.

    `schedule` (`selectors.tables`) and `all_drawn`, when the caller has them: then no query
    of its own. (A director may still set any status by hand: `set_status`.)
    """
    if tournament.status == Tournament.Status.FINISHED:
        return AlreadyFinished(_("This tournament is already finished."))
    if tournament.status != Tournament.Status.RUNNING:
        return NotReadyToFinish(_("The tournament is not running."))
    if schedule is None:
        schedule = selectors.tables(tournament, answers=False)
    if all_drawn is None:
        all_drawn = isinstance(draw_refusal(tournament, schedule), AllRoundsDrawn)
    if not schedule or not all_drawn:
        return NotReadyToFinish(_("Rounds are still to be drawn."))
    # A table the director closed counts as played, as for the next draw.
    if any(
        not m.is_bye and not m.is_closed and m.status != Match.Status.FINISHED
        for _round, matches in schedule
        for m in matches
    ):
        return NotReadyToFinish(_("Some tables are still playing."))
    return None


def finish_tournament(tournament: Tournament, *, by: Any) -> Tournament:
    """End the tournament: its pages show the final standings."""
    require_director(by, tournament.club_id)
    if (refusal := finish_refusal(tournament)) is not None:
        raise refusal
    return set_status(tournament, Tournament.Status.FINISHED, by=by)


def assign_table_referee(
    tournament: Tournament, table: int, referee: Any, *, by: Any
) -> list[Match]:
    """Give table `table` the same referee (or none) in every round not closed, at once.

    Closed rounds keep who refereed them. Returns the matches that changed.
    """
    require_director(by, tournament.club_id)
    if referee is not None:
        _require_referee(tournament, referee)
    with changing(tournament.pk):
        wanted = referee.pk if referee is not None else None
        changed = [
            match
            for match in Match.objects.select_for_update(of=("self",)).filter(
                tournament=tournament, table=table, ew_team__isnull=False, round__is_closed=False
            )
            if match.referee_id != wanted
        ]
        Match.objects.filter(pk__in=[m.pk for m in changed]).update(
            referee=referee, updated_at=timezone.now()
        )
        if changed:
            who = str(referee) if referee is not None else _("no referee")
            MatchEvent.record(
                tournament=tournament,
                action=MatchEvent.Action.TABLE_REFEREE,
                detail=_("table %(table)s, every open round: %(who)s")
                % {"table": table, "who": who},
                by=by,
            )
    return changed


def set_status(tournament: Tournament, status: str, *, by: Any) -> Tournament:
    """Move the tournament to `status` (draft, open, running, finished)."""
    from .settings import update_tournament

    return update_tournament(tournament, by=by, status=status)


class AlreadyPublished(Conflict):
    code = "already_published"


class NoSchedule(ServiceError):
    code = "no_schedule"


class AlreadyFinished(Conflict):
    code = "already_finished"


class NotReadyToFinish(Conflict):
    code = "not_ready_to_finish"


__all__ = [
    "assign_referee",
    "assign_table_referee",
    "close_round",
    "close_round_refusal",
    "finish_refusal",
    "finish_tournament",
    "publish_refusal",
    "publish_tournament",
    "reinstate_refusal",
    "reinstate_team",
    "reopen_round",
    "round_gaps",
    "set_status",
    "withdraw_refusal",
    "withdraw_team",
]
