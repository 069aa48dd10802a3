"""The score pad's actions: one function each, the game replayed by the engine before it is stored."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club
from club.permissions import may_attach_friendly_game
from scoring.engine import InvalidDeal, InvalidMatch

from .game import Errors, for_one_deal, game_rules, replay, replay_errors
from .models import Pad

# Opening a game moves its expiry; a page opened every few seconds writes once an hour.
OPENED_EVERY = datetime.timedelta(hours=1)


class PadRefused(ValueError):
    """Bad input: `errors` names every field, nothing was stored."""

    def __init__(self, errors: Errors, code: str = "invalid") -> None:
        self.errors = errors
        self.code = code
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


def _replayed(
    rules: dict[str, Any], first_dealer: object, deals: Sequence[object]
) -> dict[str, Any]:
    try:
        return replay(rules, first_dealer, deals)
    except (InvalidDeal, InvalidMatch) as error:
        raise PadRefused(replay_errors(error)) from None


def create_pad(
    *, players: object, rules: object, first_dealer: object = "N", deals: object = None
) -> tuple[Pad, dict[str, Any]]:
    """A new game, saved: its players' names, house rules and any deals already played."""
    full, errors = game_rules(players, rules)
    if deals is None:
        deals = []
    if not isinstance(deals, list):
        errors["deals"] = [_("Expected a list.")]
    if errors:
        raise PadRefused(errors)
    assert isinstance(players, list) and isinstance(deals, list)
    game = _replayed(full, first_dealer, deals)
    pad = Pad.objects.create(
        players=[" ".join(p.split()) for p in players],
        rules=full,
        first_dealer=str(first_dealer),
        deals=deals,
    )
    return pad, game


def mark_opened(pad: Pad) -> None:
    """The game was opened: its expiry counts again from now."""
    now = timezone.now()
    if pad.last_opened_at > now - OPENED_EVERY:
        return
    Pad.objects.filter(pk=pad.pk).update(last_opened_at=now)
    pad.last_opened_at = now


def delete_expired_pads() -> int:
    """Delete the games nobody opened for `PAD_EXPIRY_DAYS` (kept: those filed with a club)."""
    with transaction.atomic():
        deleted, _by_model = Pad.objects.expired().delete()
    return deleted


def pad_game(pad: Pad) -> dict[str, Any]:
    """The stored game replayed (it was valid when stored, and the engine is deterministic)."""
    return _replayed(pad.rules, pad.first_dealer, pad.deals)


def _change_deals(key: str, change: Any) -> tuple[Pad, dict[str, Any]]:
    with transaction.atomic():
        pad = Pad.objects.kept().select_for_update().get(key=key)
        deals, index = change(list(pad.deals))
        try:
            game = replay(pad.rules, pad.first_dealer, deals)
        except (InvalidDeal, InvalidMatch) as error:
            raise PadRefused(for_one_deal(replay_errors(error), index)) from None
        pad.deals, pad.last_opened_at = deals, timezone.now()
        pad.save(update_fields=["deals", "updated_at", "last_opened_at"])
    return pad, game


def _number(deals: list[Any], number: int) -> int:
    if not 1 <= number <= len(deals):
        raise PadRefused({"number": [_("There is no deal %(n)s.") % {"n": number}]}, "not_found")
    return number - 1


def add_deal(*, key: str, entry: object) -> tuple[Pad, dict[str, Any]]:
    def change(deals: list[Any]) -> tuple[list[Any], int]:
        return [*deals, entry], len(deals)

    return _change_deals(key, change)


def replace_deal(*, key: str, number: int, entry: object) -> tuple[Pad, dict[str, Any]]:
    """Any deal corrected; the game is replayed from its deals."""

    def change(deals: list[Any]) -> tuple[list[Any], int]:
        index = _number(deals, number)
        deals[index] = entry
        return deals, index

    return _change_deals(key, change)


def remove_deal(*, key: str, number: int) -> tuple[Pad, dict[str, Any]]:
    """Any deal removed, the later ones renumbered and the game replayed."""

    def change(deals: list[Any]) -> tuple[list[Any], int]:
        index = _number(deals, number)
        del deals[index]
        return deals, index

    return _change_deals(key, change)


def attach_to_club(*, key: str, club: Club, by: Any) -> Pad:
    """File the game with a club the signed-in person belongs to, as a friendly game (not rated)."""
    if not may_attach_friendly_game(by, club.pk):
        raise PadRefused(
            {"club": [_("Only a member of this club may add a game to it.")]}, "forbidden"
        )
    with transaction.atomic():
        pad = Pad.objects.kept().select_for_update().get(key=key)
        pad.club = club
        pad.attached_by = by
        pad.save(update_fields=["club", "attached_by", "updated_at"])
    return pad
