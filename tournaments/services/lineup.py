"""Substitutes: a player of a team (a mêlée: of a round's partnership) replaced from a round on.

The team keeps its results. Each match's seats name who sat (`MatchSeat.first_player`,
`second_player`), so the match sheet, the player's page and the ratings follow the
substitute; rounds drawn later seat the team's line-up of their round (`line_ups_for`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Membership, Player
from club.registration import ASK_IF_SIMILAR, RegistrationRefused, register_players

from ..changes import changing
from ..errors import Conflict, ServiceError
from ..models import (
    Entrant,
    Match,
    MatchEvent,
    MatchSeat,
    SitOut,
    Substitution,
    Team,
    Tournament,
)
from ..permissions import actor_user, require_director, results_final_refusal
from .individual import partnership_name

__all__ = [
    "line_ups_by_round",
    "line_ups_for",
    "remove_substitution",
    "substitute",
    "substitute_refusal",
    "substitute_walk_in",
]


class RoundFinished(Conflict):
    code = "round_finished"


def line_ups_for(tournament: Tournament, number: int) -> dict[int, tuple[int, int]]:
    """The teams with a substitute in round `number`: team id → the two players who sit."""
    return line_ups_by_round(tournament, [number])[number]


def line_ups_by_round(
    tournament: Tournament, numbers: list[int]
) -> dict[int, dict[int, tuple[int, int]]]:
    """`line_ups_for` of each round of `numbers`, in one query."""
    subs = list(
        Substitution.objects.filter(
            tournament=tournament,
            from_round__lte=max(numbers, default=0),
            team__round__isnull=True,
        ).select_related("team")
    )
    teams = {sub.team_id: sub.team for sub in subs}
    return {
        n: {
            pk: Substitution.line_up(team, n, subs)
            for pk, team in teams.items()
            if any(s.team_id == pk and s.from_round <= n for s in subs)
        }
        for n in numbers
    }


def _seat_players(seat: MatchSeat) -> tuple[int, int]:
    if seat.first_player_id is None or seat.second_player_id is None:
        return seat.team.first_player_id, seat.team.second_player_id
    return seat.first_player_id, seat.second_player_id


def _last_round(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(top=Max("number"))["top"] or 0


def substitute_refusal(
    team: Team, *, out: Player | None, into: Player | None, from_round: int
) -> ServiceError | None:
    """Why `into` cannot replace `out` in `team` from round `from_round` on; None when it can.

    Refused: a team that withdrew, a round not drawn (a round robin) or beyond the next
    draw, a round already finished for the team (or closed), a player out who does not
    play for the team in that round, a player in who already plays in it (or in a later
    round already drawn), and, for a team, a player in who is not a member of the club.
    A player the club does not know (neither a member nor a player of the tournament) is
    refused as an id that does not exist, naming nobody.
    """
    tournament = team.tournament
    # Who sat at the table moves the ratings: fixed with the results.
    if (final := results_final_refusal(tournament)) is not None:
        return final
    if team.withdrawn:
        return Conflict(_("%(team)s has withdrawn.") % {"team": team}, field="team")
    if team.is_partnership and team.round is not None and from_round != team.round.number:
        return ServiceError(
            _("This partnership plays round %(n)d only: substitute from round %(n)d.")
            % {"n": team.round.number},
            field="from_round",
        )
    last = _last_round(tournament)
    drawable = last + 1 if tournament.is_round_by_round else last
    if from_round < 1 or from_round > drawable:
        return ServiceError(
            _("There is no round %(n)d to substitute from: choose 1 to %(last)d.")
            % {"n": from_round, "last": max(drawable, 1)},
            field="from_round",
        )
    round_ = tournament.rounds.filter(number=from_round).first()
    match = None
    if round_ is not None:
        match = (
            Match.objects.filter(round=round_)
            .filter(Q(ns_team=team) | Q(ew_team=team))
            .prefetch_related("seats")
            .first()
        )
        if round_.is_closed or (match is not None and match.status == Match.Status.FINISHED):
            return RoundFinished(
                _("%(round)s is already finished for %(team)s.") % {"round": round_, "team": team},
                field="from_round",
            )
    if out is None:
        return ServiceError(_("Choose the player who leaves."), field="out")
    if into is None:
        return ServiceError(_("Choose the substitute."), field="in")
    # Asked before any refusal that names the player: any player id may be sent, and one
    # known only from another club (or a private tournament) must not be named, nor told
    # apart from an id that does not exist (the API's answer for that, word for word).
    for field, player in (("out", out), ("in", into)):
        if not _known_to_club(tournament, player):
            return ServiceError(_("There is no player %(id)s.") % {"id": player.pk}, field=field)
    seat = next((s for s in match.seats.all() if s.team_id == team.pk), None) if match else None
    if seat is not None:
        seat.team = team
        sitting = _seat_players(seat)
    else:
        subs = list(Substitution.objects.filter(team=team))
        sitting = Substitution.line_up(team, from_round, subs)
    if out.pk not in sitting:
        return ServiceError(
            _("%(player)s does not play for %(team)s in round %(n)d.")
            % {"player": out, "team": team, "n": from_round},
            field="out",
        )
    if into.pk in sitting:
        return ServiceError(
            _("%(player)s already plays for %(team)s.") % {"player": into, "team": team},
            field="in",
        )
    if _sits_from(tournament, into, from_round, team):
        return ServiceError(
            _("%(player)s already plays in round %(n)d.") % {"player": into, "n": from_round},
            field="in",
        )
    if (other := _registered_elsewhere(tournament, into, team)) is not None:
        return ServiceError(
            _(
                "%(player)s is a player of %(team)s: withdraw that team first (an absent "
                "team is withdrawn from the check-in page in one step)."
            )
            % {"player": into, "team": other},
            field="in",
        )
    if tournament.is_individual:
        if not Entrant.objects.filter(tournament=tournament, player=into, withdrawn=False).exists():
            return ServiceError(
                _("%(player)s is not a player of this tournament: register them first.")
                % {"player": into},
                field="in",
            )
    elif not Membership.objects.filter(club_id=tournament.club_id, player=into).exists():
        return ServiceError(
            _("%(player)s is not a member of %(club)s.")
            % {"player": into, "club": tournament.club},
            field="in",
        )
    return None


def _known_to_club(tournament: Tournament, player: Player) -> bool:
    """Whether the tournament's club knows `player`: a member of the club, or already a
    player of this tournament (a team's, an entrant, a substitute)."""
    if Membership.objects.filter(club_id=tournament.club_id, player=player).exists():
        return True
    in_teams = Team.objects.filter(tournament=tournament).filter(
        Q(first_player=player) | Q(second_player=player)
    )
    return (
        in_teams.exists()
        or Entrant.objects.filter(tournament=tournament, player=player).exists()
        or Substitution.objects.filter(tournament=tournament)
        .filter(Q(player_in=player) | Q(player_out=player))
        .exists()
    )


def _sits_from(tournament: Tournament, player: Player, number: int, team: Team) -> bool:
    """Whether `player` sits at a table of round `number` (or, for a registered team, of any
    later round drawn)."""
    last = number if team.is_partnership else _last_round(tournament)
    for n in range(number, last + 1):
        seats = MatchSeat.objects.filter(round__tournament=tournament, round__number=n)
        if seats.filter(Q(first_player=player) | Q(second_player=player)).exists():
            return True
        plain = seats.filter(first_player__isnull=True).filter(
            Q(team__first_player=player) | Q(team__second_player=player)
        )
        if plain.exists():
            return True
    return False


def _registered_elsewhere(tournament: Tournament, player: Player, team: Team) -> Team | None:
    """The other registered team still in the tournament that `player` plays for, if any (a
    mêlée's partnerships are the round's: none)."""
    if team.is_partnership:
        return None
    others = list(
        Team.objects.filter(tournament=tournament, round__isnull=True, withdrawn=False)
        .exclude(pk=team.pk)
        .filter(Q(first_player=player) | Q(second_player=player))
    )
    if not others:
        return None
    # A registered player of another team is free only where a substitute took their place:
    # the latest line-up of that team decides.
    subs = list(Substitution.objects.filter(tournament=tournament, team__in=others))
    return next((t for t in others if player.pk in Substitution.line_up(t, 1 << 15, subs)), None)


def substitute(
    team: Team, *, out: Player | None, into: Player | None, from_round: int, by: Any
) -> Substitution:
    """`into` sits for `team` in place of `out` from round `from_round` on.

    Every seat of the team from that round on (the rounds drawn already) names the
    substitute; a round drawn later seats them too. In a mêlée the round's partnership is
    changed itself (its players and name), and the substitute no longer sits out.
    """
    tournament = team.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        team = Team.objects.select_related("tournament__club", "round").get(pk=team.pk)
        refusal = substitute_refusal(team, out=out, into=into, from_round=from_round)
        if refusal is not None:
            raise refusal
        assert out is not None and into is not None
        sub = Substitution.objects.create(
            tournament=tournament,
            team=team,
            player_out=out,
            player_in=into,
            from_round=from_round,
            by=actor_user(by),
        )
        if team.is_partnership:
            _substitute_in_partnership(team, out, into)
        for seat in MatchSeat.objects.filter(
            team=team, round__number__gte=from_round
        ).select_related("team"):
            first, second = _seat_players(seat)
            seat.first_player_id = into.pk if first == out.pk else first
            seat.second_player_id = into.pk if second == out.pk else second
            seat.save(update_fields=["first_player", "second_player"])
        Match.objects.filter(seats__team=team, round__number__gte=from_round).update(
            updated_at=sub.at
        )
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.SUBSTITUTE,
            detail=_("%(team)s, from round %(n)d: %(into)s for %(out)s")
            % {"team": team, "n": from_round, "into": into, "out": out},
            by=by,
        )
    return sub


def _substitute_in_partnership(team: Team, out: Player, into: Player) -> None:
    if team.first_player_id == out.pk:
        team.first_player = into
    else:
        team.second_player = into
    team.name = partnership_name(team.first_player, team.second_player)
    team.save(update_fields=["first_player", "second_player", "name"])
    SitOut.objects.filter(round=team.round, entrant__player=into).delete()


def substitute_walk_in(
    team: Team,
    *,
    out: Player | None,
    first_name: str,
    last_name: str,
    from_round: int,
    by: Any,
    new_members: str = ASK_IF_SIMILAR,
) -> Substitution:
    """A person who walks in sits for `team` in place of `out`: found among the club's
    members by name, or made a new member, exactly as pasted names are (club.registration:
    a name close to a member's stops with NewMembersToConfirm unless `new_members` is CREATE,
    never a silent duplicate). All or nothing: a refused substitution creates nobody."""
    if team.is_partnership:
        raise ServiceError(
            _("A mêlée's substitute is a player of the tournament: register them first."),
            field="in",
        )
    first, last = " ".join(first_name.split()), " ".join(last_name.split())
    if not first:
        raise ServiceError(_("Type the substitute's first name."), field="in_first_name")
    # A first name of two words ("Jean Luc") stays the first name written "Last, First".
    name = f"{last}, {first}" if last and " " in first else f"{first} {last}".strip()
    with transaction.atomic():
        try:
            (person,) = register_players(team.tournament.club, name, by=by, new_members=new_members)
        except RegistrationRefused as refused:
            raise ServiceError(
                "; ".join(problem.message for problem in refused.problems),
                field="in_first_name",
            ) from refused
        return substitute(team, out=out, into=person, from_round=from_round, by=by)


def remove_substitution(sub: Substitution, *, by: Any) -> None:
    """Undo a substitution: from its round on the team's seats name who sits without it.

    The deals stay with their matches, so the team's results do not change; the match
    sheets, the players' pages and the ratings follow the seats again. Refused while a
    later substitution of the team replaces this one's substitute, or while the player who
    left now plays elsewhere as a substitute (each is removed first); a mêlée's partnership
    is changed back by substituting again.
    """
    tournament = sub.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        sub = Substitution.objects.select_related("team__round", "player_in", "player_out").get(
            pk=sub.pk
        )
        team = sub.team
        if team.is_partnership:
            raise Conflict(
                _("A mêlée's partnership is changed back by substituting again in its round."),
                field="substitution",
            )
        later = (
            Substitution.objects.filter(team=team, player_out=sub.player_in)
            .exclude(pk=sub.pk)
            .filter(Q(from_round__gt=sub.from_round) | Q(from_round=sub.from_round, at__gt=sub.at))
            .first()
        )
        if later is not None:
            raise Conflict(
                _("%(player)s was replaced again from round %(n)d: remove that first.")
                % {"player": sub.player_in, "n": later.from_round},
                field="substitution",
            )
        elsewhere = (
            Substitution.objects.filter(tournament=tournament, player_in=sub.player_out)
            .select_related("team")
            .first()
        )
        if elsewhere is not None:
            raise Conflict(
                _("%(player)s now plays for %(team)s as a substitute: remove that first.")
                % {"player": sub.player_out, "team": elsewhere.team},
                field="substitution",
            )
        detail = _("%(team)s, from round %(n)d: %(into)s no longer plays for %(out)s") % {
            "team": team,
            "n": sub.from_round,
            "into": sub.player_in,
            "out": sub.player_out,
        }
        from_round = sub.from_round
        sub.delete()
        kept = list(Substitution.objects.filter(team=team))
        for seat in MatchSeat.objects.filter(
            team=team, round__number__gte=from_round
        ).select_related("round"):
            seat.first_player_id, seat.second_player_id = Substitution.line_up(
                team, seat.round.number, kept
            )
            seat.save(update_fields=["first_player", "second_player"])
        Match.objects.filter(seats__team=team, round__number__gte=from_round).update(
            updated_at=timezone.now()
        )
        MatchEvent.record(
            tournament=tournament, action=MatchEvent.Action.SUBSTITUTE, detail=detail, by=by
        )
