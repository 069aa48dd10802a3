"""Who may do what (tournament.md): the one module pages, the API, services and templates ask.

The people: anonymous readers, a match's referee, a club's directors (a site admin
directs every club), and `SYSTEM`, the explicit actor of management commands, tasks and
the demo. Every service takes `by=` and asks here; nothing skips the check.

A referee signed in by a private link (`RefereeLink`) is a referee of one tournament only:
the link middleware marks the session's user (`LINK_TOURNAMENT_ATTRIBUTE`), `club.permissions`
then never counts them as a director, and every referee check below stays inside that
tournament. Links are only made for plain accounts (`may_hold_referee_link`), so a link never
opens more than a referee's rights: no director pages, no admin, no API tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from club.models import Club, Membership
from club.permissions import REFEREE_ONLY_ATTRIBUTE as REFEREE_ONLY_ATTRIBUTE
from club.permissions import SYSTEM as SYSTEM  # the actors, named here for every caller
from club.permissions import SystemActor as SystemActor
from club.permissions import actor_user as actor_user
from club.permissions import directed_club_ids, directs_club, is_referee_only

from .errors import NotAllowed
from .models import Match, Tournament


def is_director(user: Any, club: Club | int) -> bool:
    """A director (staff) of the club; a site admin (and the system) directs every club."""
    return directs_club(user, club if isinstance(club, int) else club.pk)


def directs(user: Any, tournament: Tournament) -> bool:
    return is_director(user, tournament.club_id)


# The tournament a private-link session is limited to, set beside REFEREE_ONLY_ATTRIBUTE.
LINK_TOURNAMENT_ATTRIBUTE = "belote_link_tournament_id"


def link_tournament_id(user: Any) -> int | None:
    """The one tournament a private-link session may referee in; None for an ordinary sign-in."""
    if not is_referee_only(user):
        return None
    return getattr(user, LINK_TOURNAMENT_ATTRIBUTE, None) or 0


def _within_link(user: Any, tournament_id: int) -> bool:
    limit = link_tournament_id(user)
    return limit is None or limit == tournament_id


def is_referee_of(user: Any, match: Match) -> bool:
    return (
        bool(getattr(user, "is_authenticated", False))
        and match.referee_id == user.pk
        and _within_link(user, match.tournament_id)
    )


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


def open_tables_q(user: Any) -> Q:
    """The matches whose table page `user` may open, as a filter: their own tables (inside
    the link's tournament for a private-link session) and every table of the clubs they direct."""
    if getattr(user, "is_superuser", False) and not is_referee_only(user):
        return Q()
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    q = Q(referee_id=user.pk)
    limit = link_tournament_id(user)
    if limit is not None:
        return q & Q(tournament_id=limit)
    return q | Q(tournament__club_id__in=directed_club_ids(user))


def can_confirm_for(user: Any, match: Match) -> bool:
    """Who records a team's answer to the finished sheet.

    The match's referee, on whose phone the players tap (while no director has closed the
    match), and a director of the club, in person or on the players' behalf. The teams have
    no accounts: the referee's device is where they answer.
    """
    if match.is_bye:
        return False
    if is_director(user, match.tournament.club_id):
        return True
    return is_referee_of(user, match) and not match.is_closed


def link_holders(users: Iterable[Any]) -> set[int]:
    """Which of `users` may be given a private link: plain accounts only, no staff, no site
    admin, no director of any club. So a link can never open more than a referee's rights,
    even by mistake."""
    users = [u for u in users if u is not None]
    plain = {u.pk for u in users if not getattr(u, "is_staff", False) and not u.is_superuser}
    # club.selectors.referee_users says already who directs a club; ask for the others.
    known = {u.pk: u.directs_a_club for u in users if hasattr(u, "directs_a_club")}
    unknown = plain - set(known)
    directors = {pk for pk, directs in known.items() if directs}
    if unknown:
        directors |= set(
            Membership.objects.filter(
                player__user__in=unknown, role=Membership.Role.DIRECTOR
            ).values_list("player__user", flat=True)
        )
    return plain - directors


def may_hold_referee_link(user: Any) -> bool:
    return user is not None and user.pk in link_holders([user])


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
    if getattr(user, "is_superuser", False) and not is_referee_only(user):
        return Q()
    q = Q(**{f"{prefix}is_public": True})
    if getattr(user, "is_authenticated", False):
        q |= Q(**{f"{prefix}club_id__in": directed_club_ids(user)})
        refereed = Match.objects.filter(open_tables_q(user), referee=user)
        q |= Q(**{f"{prefix}pk__in": refereed.values("tournament_id")})
    return q


def readable_tournaments(user: Any) -> QuerySet[Tournament]:
    return Tournament.objects.filter(readable_q(user))


def can_read_tournament(user: Any, tournament: Tournament) -> bool:
    if tournament.is_public or is_director(user, tournament.club_id):
        return True
    return (
        bool(getattr(user, "is_authenticated", False))
        and _within_link(user, tournament.pk)
        and Match.objects.filter(tournament=tournament, referee_id=user.pk).exists()
    )


def token_recipient_q(director: Any) -> Q | None:
    """The users `director` may give an API token to, as a filter; None: nobody.

    Staff or referees of the clubs they direct, and the referees of those clubs' matches.
    """
    if is_referee_only(director):
        return None
    if getattr(director, "is_superuser", False):
        return Q()
    clubs = directed_club_ids(director)
    if not clubs:
        return None
    staff = Membership.objects.filter(
        club_id__in=clubs, role__in=[Membership.Role.REFEREE, Membership.Role.DIRECTOR]
    ).values("player__user")
    referees = Match.objects.filter(tournament__club_id__in=clubs).values("referee")
    return Q(pk__in=staff) | Q(pk__in=referees)


# --- refusals: services raise these, pages turn them into 403, the API into its 403 body ---


def require_director(user: Any, club: Club | int) -> None:
    if not is_director(user, club):
        raise NotAllowed(_("Only a director of this club may do this."))


def require_confirmer(user: Any, match: Match) -> None:
    if not can_confirm_for(user, match):
        raise NotAllowed(
            _("Only this match's referee or a director of the club may record the teams' answers.")
        )


def require_deal_writer(user: Any, match: Match) -> None:
    if not can_write_deals(user, match):
        raise NotAllowed(
            _("Only this match's referee or a director of the club may change its deals.")
        )
