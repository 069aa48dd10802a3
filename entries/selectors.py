"""Reads of the evening before its first deal: whether one may register, the places taken and
the waiting list, the entries to check in, and the cash received. (Who a draw takes or
leaves out is the event's: tournaments.selectors.players.)"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Rating
from club.registration import Roster
from tournaments.errors import Conflict, NotAllowed, RegistrationClosed
from tournaments.models import Entry, Payment, Tournament
from tournaments.selectors.people import find_players
from tournaments.selectors.players import entries, entries_with_players

from .models import Registration

# --- online registration -------------------------------------------------------------------


def registration_refusal(
    tournament: Tournament, now: datetime.datetime | None = None
) -> RegistrationClosed | None:
    """Why nobody may register online now, or None: the one check of the page, the API and
    the service. Only a public tournament, published (not a draft), not finished, with
    registration open and its closing time (if any) still ahead."""
    now = now or timezone.now()
    if not tournament.is_public:
        return RegistrationClosed(_("This tournament is private: it takes no registration."))
    if tournament.is_finished:
        return RegistrationClosed(_("This tournament is over."))
    if tournament.registration != Tournament.RegistrationMode.OPEN:
        return RegistrationClosed(_("Registration is closed for this tournament."))
    if tournament.is_draft:
        # A draft's page answers "not found" to all but its directors: the director's page
        # would otherwise hand out a link nobody can open.
        return RegistrationClosed(
            _(
                "This tournament is a draft, seen by its directors only: publish it, or set its status to open for registration, so people can register."
            )
        )
    closes_at = tournament.registration_closes_at
    if closes_at is not None and closes_at <= now:
        return RegistrationClosed(
            _("Registration closed on %(when)s.")
            % {"when": timezone.localtime(closes_at).strftime("%Y-%m-%d %H:%M")}
        )
    return None


def door_refusal(tournament: Tournament, door: str) -> NotAllowed | None:
    """Why someone cannot check an entry in themselves with the door's code `door`, or None.

    The code is in the QR code of the directors' poster and big screen alone
    (`Tournament.door_key`): it is the proof of being at the door, so that nobody checks in
    an entry that has not come (and gets it drawn) from anywhere else.
    """
    if isinstance(door, str) and door and secrets.compare_digest(door, tournament.door_key):
        return None
    return NotAllowed(
        _(
            "Scan the QR code at the door to check in: this address does not carry the "
            "door's current code. Or see the director."
        ),
        field="door",
    )


def self_check_in_refusal(tournament: Tournament) -> Conflict | None:
    """Why players cannot check themselves in now, or None (the page, the poster and the
    service ask here)."""
    if not tournament.checks_in:
        return Conflict(_("This tournament does not check entries in."), field="check_in")
    if not tournament.self_check_in:
        return Conflict(
            _("Check in with the director: self check-in is turned off."), field="self_check_in"
        )
    if tournament.is_finished:
        return Conflict(_("This tournament is over."), field="status")
    return None


def half_places_taken(tournament: Tournament) -> int:
    """Half places held: each entry not withdrawn (2), and each online entry still to be
    accepted (a player looking for a partner 1, in a team format)."""
    taken = entries(tournament).filter(withdrawn=False).count() * 2
    pending = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.REGISTERED
    ).only("partner_wanted")
    return taken + sum(registration.places(tournament) for registration in pending)


def fits(tournament: Tournament, half_places: int, taken: int | None = None) -> bool:
    """Whether an entry of `half_places` fits under the capacity (always, without one)."""
    if tournament.capacity is None:
        return True
    taken = half_places_taken(tournament) if taken is None else taken
    return taken + half_places <= tournament.capacity * 2


def waiting_position(registration: Registration) -> int | None:
    """Its place in the waiting list (1 first), or None when it is not waiting."""
    if registration.status != Registration.Status.WAITING:
        return None
    earlier = Q(created_at__lt=registration.created_at) | Q(
        created_at=registration.created_at, pk__lt=registration.pk
    )
    waiting = Registration.objects.filter(
        tournament_id=registration.tournament_id, status=Registration.Status.WAITING
    )
    return 1 + waiting.filter(earlier).count()


def registrations(tournament: Tournament) -> list[Registration]:
    """Every online entry in order of arrival, each with `position` in the waiting list."""
    rows = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("paired_with", "team", "entrant")
        .order_by("created_at", "pk")
    )
    position = 0
    for row in rows:
        if row.status == Registration.Status.WAITING:
            position += 1
            row.position = position  # type: ignore[attr-defined]
        else:
            row.position = None  # type: ignore[attr-defined]
    return rows


@dataclass(frozen=True, slots=True)
class Places:
    """What the public page says: places taken (whole places) and left, the waiting list."""

    capacity: int | None
    taken: Decimal
    waiting: int

    @property
    def left(self) -> Decimal | None:
        return (
            None if self.capacity is None else max(Decimal(self.capacity) - self.taken, Decimal(0))
        )


def places(tournament: Tournament) -> Places:
    waiting = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITING
    ).count()
    return Places(tournament.capacity, Decimal(half_places_taken(tournament)) / 2, waiting)


def partner_suggestions(tournament: Tournament) -> dict[str, list[Any]]:
    """Players waiting for a partner, paired two by two: by order of arrival, and by closest
    club rating (members found by name as when teams are pasted; unrated players last)."""
    singles = [
        r
        for r in Registration.objects.filter(
            tournament=tournament,
            status=Registration.Status.REGISTERED,
            partner_wanted=True,
            paired_with__isnull=True,
        ).order_by("created_at", "pk")
    ]
    roster = Roster(tournament.club)
    ids = {
        r.pk: (found[0].pk if len(found := roster.named(r.player)) == 1 else None) for r in singles
    }
    ratings = dict(
        Rating.objects.filter(
            club_id=tournament.club_id, player_id__in=[i for i in ids.values() if i]
        ).values_list("player_id", "rating")
    )
    rating_of = {r.pk: ratings.get(ids[r.pk] or 0) for r in singles}
    by_rating = sorted(singles, key=lambda r: (rating_of[r.pk] is None, -(rating_of[r.pk] or 0.0)))
    return {
        "arrival": list(zip(singles[::2], singles[1::2], strict=False)),
        "rating": [
            (a, b, rating_of[a.pk], rating_of[b.pk])
            for a, b in zip(by_rating[::2], by_rating[1::2], strict=False)
        ],
    }


# --- check-in ------------------------------------------------------------------------------


def check_in_entries(tournament: Tournament) -> list[Entry]:
    """Every entry (`players.entries`), withdrawn ones last, with its players (one query)."""
    order = tournament.entry_model.name_order
    return list(entries_with_players(tournament).order_by("withdrawn", *order, "seed"))


def entry_players(entry: Entry) -> str:
    return entry.players_in_words


def self_check_in_matches(tournament: Tournament, query: str) -> list[tuple[Any, Entry]]:
    """The players whose name is what was typed, or close to it (typos forgiven), each with
    the entry it checks in (`find_players`, the "find my table" search)."""
    return find_players(tournament, query)


# --- entry fees ----------------------------------------------------------------------------


def fee_due(tournament: Tournament, entry: Entry) -> Decimal:
    """What an entry owes: the fee per team, or per player (two in a team)."""
    fee = tournament.entry_fee or Decimal(0)
    if tournament.entry_fee_per == Tournament.FeePer.PLAYER:
        return fee * entry.player_count
    return fee


@dataclass(slots=True)
class CashSummary:
    """The evening's takings: amount and count per method, and the entries present unpaid."""

    fee: Decimal | None
    per: str
    received: dict[str, Decimal] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    unpaid: list[tuple[Entry, Decimal]] = field(default_factory=list)
    paid: list[Entry] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum(self.received.values(), Decimal(0))

    @property
    def unpaid_total(self) -> Decimal:
        return sum((due for _entry, due in self.unpaid), Decimal(0))

    def rows(self) -> list[tuple[str, Decimal, int]]:
        return [
            (str(Payment(method).label), self.received[method], self.counts[method])
            for method in Payment.values
        ]


def cash_summary(tournament: Tournament) -> CashSummary:
    summary = CashSummary(tournament.entry_fee, tournament.entry_fee_per)
    summary.received = {method: Decimal(0) for method in Payment.values}
    summary.counts = {method: 0 for method in Payment.values}
    for entry in check_in_entries(tournament):
        if entry.paid:
            summary.received[entry.paid] += entry.fee_paid or Decimal(0)
            summary.counts[entry.paid] += 1
            summary.paid.append(entry)
        elif entry.is_present and not entry.withdrawn:
            due = fee_due(tournament, entry)
            if due:
                summary.unpaid.append((entry, due))
    return summary
