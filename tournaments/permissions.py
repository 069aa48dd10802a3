"""Who may do what (docs/director.md): the one module pages, the API, services and templates ask.

The people: anonymous readers, a match's referee, a club's directors (a site admin
directs every club), and `SYSTEM`, the explicit actor of management commands, tasks and
the demo. Every service takes `by=` and asks here; nothing skips the check.

A referee-only credential — a director-issued device token (limited to a club) or a private
link's session (limited to one tournament) — is marked on the request's user by
`club.permissions.act_as_referee_in`: `club.permissions` then never counts them as a director
or a site admin, and every referee check below stays inside the club or tournament. Links
are only made for plain accounts (`link_holders`), so a link never opens more than a
referee's rights: no director pages, no admin, no API tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club, Membership, Player, Rating
from club.permissions import SYSTEM as SYSTEM  # the actors, named here for every caller
from club.permissions import SystemActor as SystemActor
from club.permissions import actor_user as actor_user
from club.permissions import (
    directed_club_ids,
    directs_club,
    holds_only_referee_rights_q,
    is_referee_only,
    referee_only_club,
    referee_only_tournament,
)
from club.permissions import is_site_admin as is_site_admin

from .errors import (
    Conflict,
    MatchClosed,
    NotAllowed,
    ResultsFinal,
    ResultsNotFinished,
    ServiceError,
)
from .models import Entrant, Match, Team, Tournament


def is_director(user: Any, club: Club | int) -> bool:
    """A director (staff) of the club; a site admin (and the system) directs every club."""
    return directs_club(user, club if isinstance(club, int) else club.pk)


def _credential_limit_q(user: Any, prefix: str = "") -> Q:
    """The matches a referee-only credential keeps `user` to (all, for a person's own rights)."""
    q = Q()
    club, tournament = referee_only_club(user), referee_only_tournament(user)
    if club is not None:
        q &= Q(**{f"{prefix}tournament__club_id": club})
    if tournament is not None:
        q &= Q(**{f"{prefix}tournament_id": tournament})
    return q


def is_referee_of(user: Any, match: Match) -> bool:
    """The match's referee; with a referee-only credential, only inside its club or tournament.

    Not while the tournament is a draft: a draft is its directors' alone (its tables open when
    it is published).
    """
    if not getattr(user, "is_authenticated", False) or match.referee_id != user.pk:
        return False
    if match.tournament.is_draft:
        return False
    club, tournament = referee_only_club(user), referee_only_tournament(user)
    return (club is None or match.tournament.club_id == club) and (
        tournament is None or match.tournament_id == tournament
    )


def refereed_matches(user: Any) -> QuerySet[Match]:
    """The matches `user` referees (inside the credential's club or tournament, if limited)."""
    return (
        Match.objects.filter(referee=user)
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .filter(_credential_limit_q(user))
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
    if is_site_admin(user):
        return Q()
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    own = (
        Q(referee_id=user.pk)
        & ~Q(tournament__status=Tournament.Status.DRAFT)
        & _credential_limit_q(user)
    )
    if is_referee_only(user):
        return own
    return own | Q(tournament__club_id__in=directed_club_ids(user))


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


def can_call_director(user: Any, match: Match) -> bool:
    """Who calls the director from a table: the match's referee and the club's directors."""
    if match.is_bye:
        return False
    return is_referee_of(user, match) or is_director(user, match.tournament.club_id)


def link_holders(users: Iterable[Any]) -> set[int]:
    """Which of `users` may be given a private link: those who hold only a referee's rights
    (`holds_only_referee_rights_q`: active, no staff, no site admin, no director of any
    club). So a link can never open more than a referee's rights, even by mistake."""
    users = [u for u in users if u is not None]
    # club.selectors.referee_users has already read it for its users; ask for the others.
    holders = {u.pk for u in users if getattr(u, "only_referee_rights", False)}
    unknown = {u.pk for u in users if not hasattr(u, "only_referee_rights")}
    if unknown:
        holders |= set(
            get_user_model()
            .objects.filter(holds_only_referee_rights_q(), pk__in=unknown)
            .values_list("pk", flat=True)
        )
    return holders


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
    A draft is its club's directors' alone (and a site admin's): by list, id or address, its
    teams, players and matches answer "not found" to everyone else, its referees included.
    """
    if is_site_admin(user):
        return Q()
    published = ~Q(**{f"{prefix}status": Tournament.Status.DRAFT})
    q = Q(**{f"{prefix}is_public": True}) & published
    if getattr(user, "is_authenticated", False):
        q |= Q(**{f"{prefix}club_id__in": directed_club_ids(user)})
        q |= Q(**{f"{prefix}pk__in": refereed_matches(user).values("tournament_id")}) & published
    return q


def listed_q(user: Any) -> Q:
    """The tournaments listed to `user`: the readable ones (drafts only to their directors)."""
    return readable_q(user)


def directed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments of the clubs `user` directs (every one for a site admin)."""
    if is_site_admin(user):
        return Tournament.objects.all()
    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    return Tournament.objects.filter(club_id__in=directed_club_ids(user))


def readable_tournaments(user: Any) -> QuerySet[Tournament]:
    return Tournament.objects.filter(readable_q(user))


def can_read_tournament(user: Any, tournament: Tournament) -> bool:
    if is_director(user, tournament.club_id):
        return True
    if tournament.is_draft:
        return False
    if tournament.is_public:
        return True
    return bool(getattr(user, "is_authenticated", False)) and (
        refereed_matches(user).filter(tournament=tournament).exists()
    )


def readable_players(user: Any) -> QuerySet[Player]:
    """The players `user` may see: those of the tournaments they may read, the club rankings.

    A player is public through a team (or an individual entry) of a public tournament or a
    line of a club's ranking (which is public); a player known only from private tournaments,
    or only registered in a club, is seen by that club's directors (and the referees of those
    tournaments) alone.
    """
    if is_site_admin(user):
        return Player.objects.all()
    in_team = Team.objects.filter(readable_q(user, "tournament__")).filter(
        Q(first_player=OuterRef("pk")) | Q(second_player=OuterRef("pk"))
    )
    # An individual tournament's players are its entrants (and, once drawn, its partnerships).
    entered = Entrant.objects.filter(readable_q(user, "tournament__"), player=OuterRef("pk"))
    visible: Any = (
        Exists(in_team) | Exists(entered) | Exists(Rating.objects.filter(player=OuterRef("pk")))
    )
    if getattr(user, "is_authenticated", False):
        members = Membership.objects.filter(
            player=OuterRef("pk"), club_id__in=directed_club_ids(user)
        )
        visible |= Exists(members)
    return Player.objects.filter(visible)


def can_see_player(user: Any, player: Player) -> bool:
    return readable_players(user).filter(pk=player.pk).exists()


def may_see_draw_seed(user: Any, tournament: Tournament) -> bool:
    """The club's directors always; everyone once no draw is left to make with it
    (`Tournament.draw_seed_published`), so a draw cannot be computed before it is made."""
    return is_director(user, tournament.club_id) or tournament.draw_seed_published()


# --- refusals: services raise these, pages turn them into 403, the API into its 403 body ---


def require_director(user: Any, club: Club | int) -> None:
    if not is_director(user, club):
        raise NotAllowed(_("Only a director of this club may do this."))


def require_confirmer(user: Any, match: Match) -> None:
    if not can_confirm_for(user, match):
        raise NotAllowed(
            _("Only this match's referee or a director of the club may record the teams' answers.")
        )


def results_final_refusal(tournament: Tournament) -> ResultsFinal | None:
    """Final results (`Tournament.results_state`): no deal is added, changed or removed, by
    anyone, until a director reopens them (`reopen_results`)."""
    if tournament.results_are_final():
        return ResultsFinal(
            _(
                "The results of this tournament are final: no deal can be added, changed or "
                "removed until a director reopens them."
            )
        )
    return None


def deal_removal_refusal(
    user: Any, match: Match, number: int, count: int, *, last_only: bool = False
) -> Conflict | None:
    """Why `user` may not remove deal `number` of `match`, which has `count` deals (None: may).

    Whether they may write the match's deals at all is `require_deal_writer`'s. A director
    removes any deal; a referee, and every "remove the last deal" form, only the last.
    """
    if count == 0:
        return Conflict(_("This match has no deal to remove."), field="number")
    if not 1 <= number <= count:
        return Conflict(
            ngettext(
                "This match has no deal %(number)s: it has %(count)s deal now. The page was "
                "out of date; nothing was removed.",
                "This match has no deal %(number)s: it has %(count)s deals now. The page was "
                "out of date; nothing was removed.",
                count,
            )
            % {"number": number, "count": count},
            field="number",
        )
    if number != count and (last_only or not is_director(user, match.tournament.club_id)):
        return Conflict(
            _("Only the last deal (%(last)s) can be removed, not deal %(number)s.")
            % {"last": count, "number": number},
            field="number",
        )
    return None


def deal_write_refusal(user: Any, match: Match) -> ServiceError | None:
    """Why `user` may not add, change or remove a deal of `match` now, or None.

    Asked by the deal services' guard (under the match's lock), the table page (whether its
    form shows) and the API. Strangers are refused before anything about the match is said;
    the match's own referee of a closed match is told so (409); final results refuse all.
    """
    if not can_write_deals(user, match):
        if is_referee_of(user, match) and match.is_closed:
            return MatchClosed(_("A director has closed this match: it is read-only."))
        return NotAllowed(
            _("Only this match's referee or a director of the club may change its deals.")
        )
    return results_final_refusal(match.tournament)


def require_caller(user: Any, match: Match) -> None:
    if not can_call_director(user, match):
        raise NotAllowed(
            _("Only this match's referee or a director of the club may call the director.")
        )


def require_deal_writer(user: Any, match: Match) -> None:
    if (refusal := deal_write_refusal(user, match)) is not None:
        raise refusal


def reopen_results_refusal(user: Any, tournament: Tournament) -> ServiceError | None:
    """Why `user` may not reopen the tournament's results now, or None: a director of the
    club, once the tournament is finished (provisional or final)."""
    if not is_director(user, tournament.club_id):
        return NotAllowed(_("Only a director of this club may do this."))
    if not tournament.is_finished:
        return ResultsNotFinished(
            _("This tournament is not finished: its results are open to corrections already.")
        )
    return None
