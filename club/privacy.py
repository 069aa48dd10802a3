"""A member's privacy: how a player's name is shown to a viewer (the one owner of that answer,
for pages, the big screen, the CSV exports and the API), the erasure of a member's personal
data for good, and the export of it."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .errors import Conflict
from .hooks import member_erased
from .members import record, require_member_reader
from .models import Club, MemberEvent, Membership, Player
from .permissions import directed_club_ids, is_site_admin, member_club_ids

ERASED_FIRST_NAME = "Former member"


def initials(first_name: str, last_name: str) -> str:
    """ "Jean Dupont" → "J. D."; "Marie de la Fontaine" → "M. F." (the name's last word)."""
    parts = [first_name.split()[:1], last_name.split()[-1:]]
    return " ".join(f"{words[0][0].upper()}." for words in parts if words)


def erased_name(player: Player) -> str:
    return _("Former member %(number)d") % {"number": player.pk}


def _reader_clubs(viewer: Any) -> frozenset[int]:
    """The clubs whose members' full names the viewer reads (cached on the viewer object,
    that is, once per request)."""
    if viewer is None:
        return frozenset()
    cached = getattr(viewer, "_belote_name_clubs", None)
    if cached is None:
        cached = member_club_ids(viewer) | directed_club_ids(viewer)
        viewer._belote_name_clubs = cached
    return frozenset(cached)


def name_is_shown(player: Any, viewer: Any, club_ids: frozenset[int] | None = None) -> bool:
    """Whether `viewer` (a user, or None for every visitor: the big screen, a stored page)
    reads `player`'s full name: always for `public`; for `members` the signed-in members of
    a club of the player's; for `hidden` that club's directors only."""
    profile = getattr(player, "profile", Player.Profile.PUBLIC)
    if profile == Player.Profile.PUBLIC or getattr(player, "erased_at", None):
        return True
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    if is_site_admin(viewer):
        return True
    if club_ids is None:
        prefetched = getattr(player, "_prefetched_objects_cache", {}).get("memberships")
        if prefetched is not None:
            club_ids = frozenset(m.club_id for m in prefetched)
        else:
            club_ids = frozenset(
                Membership.objects.filter(player_id=player.pk).values_list("club_id", flat=True)
            )
    readers = (
        directed_club_ids(viewer) if profile == Player.Profile.HIDDEN else _reader_clubs(viewer)
    )
    return bool(readers & club_ids)


def shown_name(player: Any, viewer: Any = None, club_ids: frozenset[int] | None = None) -> str:
    """The player's name as `viewer` may read it: the full name, "Former member N" once
    erased, else initials ("J. D.")."""
    if getattr(player, "erased_at", None):
        return erased_name(player)
    if name_is_shown(player, viewer, club_ids):
        return str(player.full_name)
    return initials(player.first_name, player.last_name)


def public_name(player: Any) -> str:
    """The name shown to every visitor (the big screen, a page rendered once for all)."""
    return shown_name(player, None)


def pair_name(first: Any, second: Any, viewer: Any = None) -> str:
    """A partnership named after its two players ("Jean Dupont & Marie Roux"), each as the
    viewer may read them: how a drawn pair's or a team's stored name is shown when one of
    its players is not public."""
    return f"{shown_name(first, viewer)} & {shown_name(second, viewer)}"


def team_shown_name(team: Any, viewer: Any = None) -> str:
    """A team's name for `viewer`: its own name, unless it holds the name of a player who is
    not shown to them (a team named after its members, a drawn partnership): then made from
    its players as they may read them."""
    players = [getattr(team, "first_player", None), getattr(team, "second_player", None)]
    name = str(team.name)
    for player in players:
        if player is None or name_is_shown(player, viewer):
            continue
        full = player.full_name
        if full and (full in name or (player.last_name and player.last_name in name)):
            return pair_name(players[0], players[1], viewer)
    return name


# --- erasure and export ------------------------------------------------------------------------


def erase_member(club: Club, player: Player, *, by: Any) -> Player:
    """Replace the member's name, e-mail, phone and licence by "Former member N", for good,
    in every club's record of them and wherever the apps above copied the name
    (`member_erased`); results, standings and series keep their figures. Audited without
    the erased data."""
    require_member_reader(by, club)
    if player.erased_at is not None:
        raise Conflict(_("This member's data is already erased."), field="detail")
    # The records merged into this one are the same person's (a misspelt name): erased too.
    merged: list[int] = []
    wave = [player.pk]
    while wave:
        wave = list(Player.objects.filter(merged_into_id__in=wave).values_list("pk", flat=True))
        merged += wave
    names = [player.full_name] + [
        old.full_name
        for old in Player.objects.filter(pk__in=merged).only("first_name", "last_name")
    ]
    with transaction.atomic():
        Player.objects.filter(pk__in=merged).update(
            first_name=ERASED_FIRST_NAME, last_name=str(player.pk), erased_at=timezone.now()
        )
        # The audit keeps what was done, not the names it once carried (a merge's).
        for event in MemberEvent.objects.filter(player_id__in=[player.pk, *merged]):
            if "name" in event.details:
                event.details = {k: v for k, v in event.details.items() if k != "name"}
                event.save(update_fields=["details"])
        player.first_name = ERASED_FIRST_NAME
        player.last_name = str(player.pk)
        player.profile = Player.Profile.PUBLIC
        player.erased_at = timezone.now()
        account = player.user
        player.user = None
        player.save()
        Membership.objects.filter(player=player).update(email="", phone="", licence="")
        if account is not None:
            # The account was theirs: its personal fields go too, and it cannot sign in.
            account.username = f"former-member-{player.pk}"
            account.first_name = account.last_name = account.email = ""
            account.is_active = False
            account.set_unusable_password()
            account.save()
        record(club, player.pk, MemberEvent.Action.ERASED, by)
        member_erased.send(sender=Player, player=player, names=names)
    return player


def _iso(value: datetime.date | datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_member(club: Club, player: Player, *, by: Any) -> dict[str, Any]:
    """The member's data as JSON (the right of access), as the club keeps it: the person,
    their memberships, ratings and rating history (the results are the tournaments' pages)."""
    require_member_reader(by, club)
    memberships = Membership.objects.filter(player=player).select_related("club")
    data = {
        "id": player.pk,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "profile": player.profile,
        "created_at": _iso(player.created_at),
        "erased_at": _iso(player.erased_at),
        "account": player.user.get_username() if player.user is not None else None,
        "memberships": [
            {
                "club": m.club.name,
                "role": m.role,
                "joined_on": _iso(m.joined_on),
                "email": m.email,
                "phone": m.phone,
                "licence": m.licence,
                "active": m.active,
            }
            for m in memberships
        ],
        "ratings": [
            {"club": r.club_id, "rating": r.rating, "matches_played": r.matches_played}
            for r in player.ratings.order_by("club_id")  # type: ignore[attr-defined]
        ],
        "rating_history": [
            {
                "club": c.club_id,
                "match": c.match_id,
                "played_at": _iso(c.played_at),
                "rating": c.rating,
                "won": c.won,
            }
            for c in player.rating_changes.order_by("played_at", "match_id")  # type: ignore[attr-defined]
        ],
    }
    record(club, player.pk, MemberEvent.Action.EXPORTED, by)
    return data
