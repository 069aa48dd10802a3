"""Withdrawals: a team (or mêlée player) withdrawn, its matches made byes, and brought back."""

from __future__ import annotations

from typing import Any

from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import Deal, Entry, Match, MatchEvent, MatchSeat, Round, Seat, Team, Tournament
from ..permissions import require_director, results_final_refusal
from .registration import require_registered


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
