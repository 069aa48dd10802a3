"""Merging two records of one person (a typo that slipped through): every row that names the
second names the first afterwards, in one transaction, whatever app the row belongs to.

The rows are found through the model's relations (`Player._meta`), not by importing the apps
above club: a team, a seat, an entrant, a substitution, a registration, a friendly game move
as they are. A row that cannot move because the first already has its twin (a rating in the
same club, a line in the same series) is dropped when its model says it is derived
(`derived_per_player`: a recompute rebuilds it); the apps above recompute on `member_merged`.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from .errors import Conflict, ServiceError
from .hooks import HOOKS, member_merged
from .members import record, require_member_reader
from .models import Club, MemberEvent, Membership, Player


class MergeRefused(Conflict):
    """The two records cannot be one person (`played_together`), or a row cannot move."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message, field="into")
        self.code = code


def final_record(player: Player) -> Player:
    """The record a merged one now lives in (following merges of merges)."""
    seen = {player.pk}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        seen.add(player.merged_into_id)
        player = Player.objects.get(pk=player.merged_into_id)
    return player


def merged_target_id(player_id: int) -> int | None:
    """Where the page of a merged record now is (its 301), or None for a record not merged."""
    player = Player.objects.filter(pk=player_id, merged_into__isnull=False).first()
    return final_record(player).pk if player is not None else None


def _player_relations() -> list[Any]:
    """Every foreign key (and one-to-one) of any installed model pointing at Player, hidden
    ones (`related_name="+"`, a many-to-many's table) included; the merge link itself aside."""
    fields = []
    for relation in Player._meta.get_fields(include_hidden=True):
        if not relation.auto_created or relation.concrete:
            continue
        if not (relation.one_to_many or relation.one_to_one):
            continue
        field = relation.field  # type: ignore[union-attr]
        if field.model is Player and field.name == "merged_into":
            continue
        fields.append(field)
    return fields


def merge_refusal(first: Player, second: Player) -> tuple[str, str] | None:
    """Why the two records cannot be merged (code, message), or None: the one read the
    service's guard, the page and the API use."""
    if first.pk == second.pk:
        return "same_player", _("A record cannot be merged into itself.")
    if first.erased_at or second.erased_at:
        return "erased", _("An erased record cannot be merged.")
    for refusal in HOOKS.merge_refusals:
        if found := refusal(first, second):
            return found
    return None


def _fill_membership(kept: Membership, moved: Membership) -> None:
    """The first's membership of a club both were in, completed with what only the second's
    had (an e-mail, a phone, a licence), and active if either was."""
    for field in ("email", "phone", "licence"):
        if not getattr(kept, field) and getattr(moved, field):
            setattr(kept, field, getattr(moved, field))
            setattr(moved, field, "")
    kept.active = kept.active or moved.active
    if list(Membership.Role).index(Membership.Role(moved.role)) > list(Membership.Role).index(
        Membership.Role(kept.role)
    ):
        kept.role = moved.role  # the greater role of the two (director over member)
    moved.save()
    kept.save()


def _move_rows(field: models.ForeignKey, first: Player, second: Player) -> dict[str, int]:
    """Point `field` of every row naming `second` at `first`; rows that collide with the
    first's own are dropped if derived, else the merge is refused."""
    model = field.model
    rows = model._default_manager.filter(**{field.name: second})
    try:
        with transaction.atomic():
            return {"moved": rows.update(**{field.name: first})}
    except IntegrityError:
        pass  # one or more rows collide: one at a time
    moved = dropped = 0
    for row in list(rows):
        try:
            with transaction.atomic():
                setattr(row, field.name, first)
                row.save(update_fields=[field.name])
                moved += 1
        except IntegrityError:
            setattr(row, field.name, second)  # as stored: the row stays the second's
            if isinstance(row, Membership):
                kept = Membership.objects.get(club_id=row.club_id, player=first)
                _fill_membership(kept, row)
                row.delete()
            elif getattr(model, "derived_per_player", False):
                row.delete()
            else:
                raise MergeRefused(
                    _("%(what)s of both records cannot be one: merge refused.")
                    % {"what": model._meta.verbose_name},
                    code="merge_conflict",
                ) from None
            dropped += 1
    return {"moved": moved, "dropped": dropped}


def merge_members(club: Club, second: Player, *, into: Player, by: Any) -> Player:
    """Everything of `second` moves to `into` (the record kept); `second` keeps only its
    link to `into` (its addresses answer 301) and is no longer anyone's member.

    A director of a club both belong to; refused (409) when they sat at one table in the
    same match (`played_together`), since two people did.
    """
    require_member_reader(by, club)
    first = into
    if not Membership.objects.filter(club=club, player=first).exists():
        raise ServiceError(
            _("%(id)s is not a member of this club.") % {"id": first.pk}, field="into"
        )
    if refusal := merge_refusal(first, second):
        raise MergeRefused(refusal[1], code=refusal[0])
    clubs = sorted(
        set(Membership.objects.filter(player__in=[first, second]).values_list("club_id", flat=True))
    )
    counts: dict[str, dict[str, int]] = {}
    with transaction.atomic():
        # Both records locked: a second merge of either waits for this one.
        list(Player.objects.select_for_update().filter(pk__in=[first.pk, second.pk]))
        for field in _player_relations():
            moved = _move_rows(field, first, second)
            if any(moved.values()):
                counts[f"{field.model._meta.label}.{field.name}"] = moved
        if first.user_id is None and second.user_id is not None:
            first.user_id, second.user_id = second.user_id, None
            second.save(update_fields=["user"])
        second.merged_into = first
        second.save(update_fields=["merged_into"])
        first.save()
        record(
            club,
            first.pk,
            MemberEvent.Action.MERGED,
            by,
            merged=second.pk,
            name=second.full_name,
            rows=counts,
        )
        member_merged.send(sender=Player, first=first, second=second, clubs=clubs)
    return first
