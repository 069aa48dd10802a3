"""Who may do what (tournament.md): the one module pages, the API, services and templates ask.

The people: anonymous readers, a match's referee, a club's directors (a site admin
directs every club), and `SYSTEM`, the explicit actor of management commands, tasks and
the demo. Every service takes `by=` and asks here; nothing skips the check.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player, Rating
from club.permissions import SYSTEM as SYSTEM  # the actors, named here for every caller
from club.permissions import SystemActor as SystemActor
from club.permissions import actor_user as actor_user
from club.permissions import directed_club_ids, directs_club, referee_only_club
from club.permissions import is_site_admin as is_site_admin

from .errors import NotAllowed
from .models import Match, Team, Tournament


def is_director(user: Any, club: Club | int) -> bool:
    """A director (staff) of the club; a site admin (and the system) directs every club."""
    return directs_club(user, club if isinstance(club, int) else club.pk)


def directs(user: Any, tournament: Tournament) -> bool:
    return is_director(user, tournament.club_id)


def is_referee_of(user: Any, match: Match) -> bool:
    """The match's referee; with a referee's device token, only in the club it was issued for."""
    if not getattr(user, "is_authenticated", False) or match.referee_id != user.pk:
        return False
    club = referee_only_club(user)
    return club is None or match.tournament.club_id == club


def refereed_matches(user: Any) -> QuerySet[Match]:
    """The matches `user` referees (those of the token's club for a device token)."""
    matches = Match.objects.filter(referee=user)
    club = referee_only_club(user)
    return matches if club is None else matches.filter(tournament__club_id=club)


def can_write_deals(user: Any, match: Match) -> bool:
    """The match's referee while no director has closed it, or a director of the club."""
    if is_director(user, match.tournament.club_id):
        return True
    return is_referee_of(user, match) and not match.is_closed and not match.is_bye


def can_open_table(user: Any, match: Match) -> bool:
    """Who sees a table's entry page: its referee (even when closed) and the club's directors."""
    return not match.is_bye and (
        is_referee_of(user, match) or is_director(user, match.tournament.club_id)
    )


def may_referee(user: Any, club_id: int) -> bool:
    """Whether `user` can be given a table: a referee or director member of the club."""
    return Membership.objects.filter(
        club_id=club_id,
        player__user=user,
        role__in=[Membership.Role.REFEREE, Membership.Role.DIRECTOR],
    ).exists()


def readable_q(user: Any, prefix: str = "") -> Q:
    """The tournaments `user` may read, as a filter (`prefix` reaches a related tournament).

    Public ones, those of the clubs they direct, and those they referee a match in; a
    private tournament answers "not found" to everyone else, so its existence does not leak.
    """
    if is_site_admin(user):
        return Q()
    q = Q(**{f"{prefix}is_public": True})
    if getattr(user, "is_authenticated", False):
        q |= Q(**{f"{prefix}club_id__in": directed_club_ids(user)})
        q |= Q(**{f"{prefix}pk__in": refereed_matches(user).values("tournament_id")})
    return q


def readable_tournaments(user: Any) -> QuerySet[Tournament]:
    return Tournament.objects.filter(readable_q(user))


def can_read_tournament(user: Any, tournament: Tournament) -> bool:
    if tournament.is_public or is_director(user, tournament.club_id):
        return True
    return bool(getattr(user, "is_authenticated", False)) and (
        refereed_matches(user).filter(tournament=tournament).exists()
    )


def readable_players(user: Any) -> QuerySet[Player]:
    """The players `user` may see: those of the tournaments they may read, the club rankings.

    A player is public through a team of a public tournament or a line of a club's ranking
    (which is public); a player known only from private tournaments, or only registered in
    a club, is seen by that club's directors (and the referees of those tournaments) alone.
    """
    if is_site_admin(user):
        return Player.objects.all()
    in_team = Team.objects.filter(readable_q(user, "tournament__")).filter(
        Q(first_player=OuterRef("pk")) | Q(second_player=OuterRef("pk"))
    )
    visible: Any = Exists(in_team) | Exists(Rating.objects.filter(player=OuterRef("pk")))
    if getattr(user, "is_authenticated", False):
        members = Membership.objects.filter(
            player=OuterRef("pk"), club_id__in=directed_club_ids(user)
        )
        visible |= Exists(members)
    return Player.objects.filter(visible)


def can_see_player(user: Any, player: Player) -> bool:
    return readable_players(user).filter(pk=player.pk).exists()


# --- refusals: services raise these, pages turn them into 403, the API into its 403 body ---


def require_director(user: Any, club: Club | int) -> None:
    if not is_director(user, club):
        raise NotAllowed(_("Only a director of this club may do this."))


def require_deal_writer(user: Any, match: Match) -> None:
    if not can_write_deals(user, match):
        raise NotAllowed(
            _("Only this match's referee or a director of the club may change its deals.")
        )
