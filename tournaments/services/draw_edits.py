"""Manual draw edits: before a round's first deal a director swaps two teams (a mêlée: two
players) between tables, or the sides of a table. Each edit says what it breaks
(`repeat_opponents`, `repeat_partners`, `score_gap` in a Swiss) and is audited."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Player

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import (
    Deal,
    Entrant,
    Match,
    MatchEvent,
    MatchSeat,
    Round,
    SitOut,
    Team,
    Tournament,
)
from ..permissions import require_director
from .individual import partnership_name

__all__ = ["DrawEdit", "RoundStarted", "swap_refusal", "swap_sides", "swap_teams"]

# What an edit may break, by stable code, with what the page says.
WARNINGS = {
    "repeat_opponents": gettext_lazy("opponents who have already met"),
    "repeat_partners": gettext_lazy("partners who have already played together"),
    "score_gap": gettext_lazy("teams with different scores at a table (Swiss)"),
}


def warnings_of(tournament: Tournament) -> list[str]:
    """What an edit of this tournament's draw can break, as the page says it."""
    codes = ["repeat_opponents"]
    if tournament.is_individual:
        codes.append("repeat_partners")
    if tournament.format == Tournament.Format.SWISS:
        codes.append("score_gap")
    return [str(WARNINGS[code]) for code in codes]


class RoundStarted(Conflict):
    code = "round_started"


@dataclass(frozen=True, slots=True)
class DrawEdit:
    """A round after an edit, and the codes of what the edit broke (`WARNINGS`)."""

    round: Round
    warnings: list[str]

    @property
    def warning_texts(self) -> list[str]:
        return [str(WARNINGS[code]) for code in self.warnings]


def swap_refusal(round_: Round, matches: Iterable[Match] | None = None) -> ServiceError | None:
    """Why the draw of `round_` can no longer be edited by hand; None while it can (no deal
    entered in it, not closed). `matches`: the round's matches already read (their stored
    deal counts then decide, without a query)."""
    if matches is not None:
        started = any(match.deal_count for match in matches)
    else:
        started = Deal.objects.filter(match__round=round_).exists()
    if round_.is_closed or started:
        return RoundStarted(
            _("%(round)s has started: its draw can no longer be changed.") % {"round": round_},
            field="round",
        )
    return None


# --- what an edit breaks ---------------------------------------------------------------------


def _pair(x: int, y: int) -> tuple[int, int]:
    return (x, y) if x < y else (y, x)


def _lineups(matches: Iterable[Match]) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    """Each match's (pk, NS players, EW players) as seated; byes left out."""
    seated = []
    for match in matches:
        if match.ew_team is None:
            continue
        ns = tuple(p.pk for p in match.line_up("NS"))
        ew = tuple(p.pk for p in match.line_up("EW"))
        seated.append((match.pk, (ns[0], ns[1]), (ew[0], ew[1])))
    return seated


def _problems(round_: Round) -> set[tuple[str, Any]]:
    """Every (code, who) the round's draw breaks, as it stands."""
    tournament = round_.tournament
    matches = list(
        Match.objects.filter(tournament=tournament, round__stage=round_.stage)
        .select_related(
            "round",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
        )
        .prefetch_related("seats")
    )
    here = [m for m in matches if m.round_id == round_.pk]
    others = [m for m in matches if m.round_id != round_.pk]
    found: set[tuple[str, Any]] = set()
    if tournament.is_individual:
        partners: set[tuple[int, int]] = set()
        opponents: set[tuple[int, int]] = set()
        for _pk, ns, ew in _lineups(others):
            partners |= {_pair(*ns), _pair(*ew)}
            opponents |= {_pair(x, y) for x in ns for y in ew}
        for _pk, ns, ew in _lineups(here):
            for pair in (_pair(*ns), _pair(*ew)):
                if pair in partners:
                    found.add(("repeat_partners", pair))
            for x in ns:
                for y in ew:
                    if _pair(x, y) in opponents:
                        found.add(("repeat_opponents", _pair(x, y)))
        return found
    met = {_pair(m.ns_team_id, m.ew_team_id) for m in others if m.ew_team_id is not None}
    for m in here:
        if m.ew_team_id is not None and _pair(m.ns_team_id, m.ew_team_id) in met:
            found.add(("repeat_opponents", _pair(m.ns_team_id, m.ew_team_id)))
    if tournament.format == Tournament.Format.SWISS and not round_.is_knockout:
        points = _points_before(tournament, others, round_.number)
        for m in here:
            if m.ew_team_id is not None and points[m.ns_team_id] != points[m.ew_team_id]:
                found.add(("score_gap", _pair(m.ns_team_id, m.ew_team_id)))
    return found


def _points_before(tournament: Tournament, matches: list[Match], number: int) -> Counter[int]:
    """Each team's match points from the rounds before `number` (a bye counts as won)."""
    win, draw, loss = tournament.match_points
    points: Counter[int] = Counter()
    for m in matches:
        if m.round.number >= number:
            continue
        if m.ew_team_id is None:
            points[m.ns_team_id] += win
        elif m.status == Match.Status.FINISHED:
            if m.winner == Match.Winner.DRAW:
                points[m.ns_team_id] += draw
                points[m.ew_team_id] += draw
            else:
                ns_won = m.winner == Match.Winner.NS
                points[m.ns_team_id] += win if ns_won else loss
                points[m.ew_team_id] += loss if ns_won else win
    return points


def _broken(before: set[tuple[str, Any]], after: set[tuple[str, Any]]) -> list[str]:
    new = {code for code, _who in after - before}
    return [code for code in WARNINGS if code in new]


# --- the edits -------------------------------------------------------------------------------


def _guard(round_: Round, by: Any) -> Round:
    require_director(by, round_.tournament.club_id)
    Tournament.objects.select_for_update().filter(pk=round_.tournament_id).first()
    round_ = Round.objects.select_related("tournament__club").get(pk=round_.pk)
    refusal = swap_refusal(round_)
    if refusal is not None:
        raise refusal
    return round_


def _players(seat: MatchSeat) -> tuple[int, int]:
    if seat.first_player_id is None or seat.second_player_id is None:
        return seat.team.first_player_id, seat.team.second_player_id
    return seat.first_player_id, seat.second_player_id


def _reseat(matches: list[Match], sitting: dict[int, tuple[int, int]]) -> None:
    """Make the seats of `matches` again from their teams, each team keeping who sits for it."""
    MatchSeat.objects.filter(match__in=matches).delete()
    MatchSeat.objects.bulk_create([seat for m in matches for seat in m.seat_rows(sitting)])


def _set_teams(match: Match, ns: Team, ew: Team | None) -> None:
    # An update, not a save: the seats are made again by the edit, keeping who sits.
    match.ns_team, match.ew_team = ns, ew
    Match.objects.filter(pk=match.pk).update(ns_team=ns, ew_team=ew, updated_at=timezone.now())


def swap_sides(match: Match, *, by: Any) -> DrawEdit:
    """Swap the sides of a table: North–South sit East–West and the other way round."""
    with changing(match.tournament_id):
        round_ = _guard(match.round, by)
        match = Match.objects.select_related("ns_team", "ew_team").get(pk=match.pk)
        if match.ew_team is None:
            raise ServiceError(_("A bye has no sides to swap."), field="table")
        before = _problems(round_)
        sitting = {s.team_id: _players(s) for s in match.seats.select_related("team")}
        MatchSeat.objects.filter(match=match).delete()
        _set_teams(match, match.ew_team, match.ns_team)
        _reseat([match], sitting)
        _audit(round_, match, _("table %(table)s: sides swapped") % {"table": match.table}, by)
        return DrawEdit(round_, _broken(before, _problems(round_)))


def swap_teams(round_: Round, *, a: int | None, b: int | None, by: Any) -> DrawEdit:
    """Swap two teams (a mêlée: two players, by player id) between their tables.

    Each takes the other's place (table, side; a bye or, in a mêlée, a sit-out included).
    """
    with changing(round_.tournament_id):
        round_ = _guard(round_, by)
        if a is None:
            raise ServiceError(_("Choose the first to swap."), field="a")
        if b is None:
            raise ServiceError(_("Choose the second to swap."), field="b")
        if a == b:
            raise ServiceError(_("Choose two different ones to swap."), field="b")
        before = _problems(round_)
        if round_.tournament.is_individual:
            detail = _swap_players(round_, a, b)
        else:
            detail = _swap_teams(round_, a, b)
        _audit(round_, None, detail, by)
        return DrawEdit(round_, _broken(before, _problems(round_)))


def _swap_teams(round_: Round, a: int, b: int) -> str:
    seats = {
        seat.team_id: seat
        for seat in MatchSeat.objects.filter(round=round_, team_id__in=[a, b]).select_related(
            "team", "match__ns_team", "match__ew_team"
        )
    }
    for field, pk in (("a", a), ("b", b)):
        if pk not in seats:
            raise ServiceError(
                _("Team %(id)s does not play in %(round)s.") % {"id": pk, "round": round_},
                field=field,
            )
    seat_a, seat_b = seats[a], seats[b]
    sitting = {pk: _players(seat) for pk, seat in seats.items()}
    for other in MatchSeat.objects.filter(match__in=[seat_a.match, seat_b.match]).select_related(
        "team"
    ):
        sitting.setdefault(other.team_id, _players(other))
    team_a, team_b = seat_a.team, seat_b.team
    if seat_a.match_id == seat_b.match_id:
        match = seat_a.match
        MatchSeat.objects.filter(match=match).delete()
        assert match.ew_team is not None
        _set_teams(match, match.ew_team, match.ns_team)
        _reseat([match], sitting)
    else:
        match_a, match_b = seat_a.match, seat_b.match
        MatchSeat.objects.filter(match__in=[match_a, match_b]).delete()
        place = {
            "NS": lambda m, t: _set_teams(m, t, m.ew_team),
            "EW": lambda m, t: _set_teams(m, m.ns_team, t),
        }
        place[seat_a.side](match_a, team_b)
        place[seat_b.side](match_b, team_a)
        _reseat([match_a, match_b], sitting)
        _give_byes_no_table([match_a, match_b])
    return _("%(round)s: %(a)s and %(b)s swapped") % {"round": round_, "a": team_a, "b": team_b}


def _give_byes_no_table(matches: list[Match]) -> None:
    """A bye keeps no table and no referee, whoever holds it."""
    for match in matches:
        if match.ew_team_id is None and match.table is not None:
            Match.objects.filter(pk=match.pk).update(table=None, referee=None)


def _where(round_: Round, player: int, field: str) -> tuple[Team | None, SitOut | None]:
    team = (
        Team.objects.filter(round=round_, first_player_id=player).first()
        or Team.objects.filter(round=round_, second_player_id=player).first()
    )
    if team is not None:
        return team, None
    sit_out = SitOut.objects.filter(round=round_, entrant__player_id=player).first()
    if sit_out is None:
        raise ServiceError(
            _("Player %(id)s does not play in %(round)s.") % {"id": player, "round": round_},
            field=field,
        )
    return None, sit_out


def _replace(team: Team, old: int, new: int) -> None:
    if team.first_player_id == old:
        team.first_player_id = new
    elif team.second_player_id == old:
        team.second_player_id = new


def _swap_players(round_: Round, a: int, b: int) -> str:
    team_a, out_a = _where(round_, a, "a")
    team_b, out_b = _where(round_, b, "b")
    if team_a is None and team_b is None:
        raise ServiceError(_("Both players sit this round out."), field="b")
    changed: list[Team] = []
    if team_a is not None and team_a == team_b:
        team_a.first_player_id, team_a.second_player_id = (
            team_a.second_player_id,
            team_a.first_player_id,
        )
        changed = [team_a]
    else:
        if team_a is not None:
            _replace(team_a, a, b)
            changed.append(team_a)
        if team_b is not None:
            _replace(team_b, b, a)
            changed.append(team_b)
        for sit_out, player in ((out_a, b), (out_b, a)):
            if sit_out is not None:
                sit_out.entrant = Entrant.objects.get(tournament=round_.tournament, player=player)
                sit_out.save(update_fields=["entrant"])
    for team in changed:
        first, second = team.first_player_id, team.second_player_id
        players = Player.objects.in_bulk([first, second])
        team.first_player, team.second_player = players[first], players[second]
        team.name = partnership_name(team.first_player, team.second_player)
        team.save(update_fields=["first_player", "second_player", "name"])
        MatchSeat.objects.filter(team=team).update(first_player=first, second_player=second)
    names = {e.player_id: e.name for e in Entrant.objects.filter(player_id__in=[a, b])}
    return _("%(round)s: %(a)s and %(b)s swapped") % {
        "round": round_,
        "a": names.get(a, a),
        "b": names.get(b, b),
    }


def _audit(round_: Round, match: Match | None, detail: str, by: Any) -> None:
    MatchEvent.record(
        tournament=round_.tournament_id,
        action=MatchEvent.Action.SWAP,
        match=match,
        detail=detail,
        by=by,
    )
