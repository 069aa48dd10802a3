"""Online registration (docs/director.md): anyone registers for a public tournament without an
account; past the capacity entries wait in order of arrival, and a cancellation moves the first
of the list up; a director accepts entries (names matched to the club's members exactly as
pasted teams are), pairs players who want a partner, and closes registration.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from club.registration import ASK_IF_SIMILAR, name_problem, split_name
from club.text import require_visible_text
from tournaments.changes import changing
from tournaments.errors import (
    AlreadyRegistered,
    Conflict,
    NotAllowed,
    ServiceError,
    TournamentFull,
)
from tournaments.models import Entry, MatchEvent, Tournament
from tournaments.permissions import is_director, require_director
from tournaments.selectors.players import entries_with_players, has_sat
from tournaments.services.entrants import register_entrant_names
from tournaments.services.registration import (
    TeamLine,
    register_team_lines,
)
from tournaments.services.settings import update_tournament

from ..models import Registration
from ..selectors import fits, registration_refusal
from . import mail
from .waiting_list import move_up

__all__ = [
    "AcceptAll",
    "accept_all",
    "accept_registration",
    "cancel_registration",
    "close_registration",
    "pair_registrations",
    "register_online",
]

_PHONE = re.compile(r"^\+?[0-9 ().-]{6,30}$")


def _event(tournament: Tournament, action: MatchEvent.Action, detail: str, by: Any) -> None:
    MatchEvent.record(tournament=tournament, action=action, detail=detail, by=by)


def _key(name: str) -> str:
    return " ".join(part.casefold() for part in split_name(name) if part)


def _check_names(tournament: Tournament, players: Any, partner_wanted: Any) -> list[str]:
    if not isinstance(partner_wanted, bool):
        raise ServiceError(_("Expected true or false."), field="partner_wanted")
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise ServiceError(_("Give the players' names, as a list."), field="players")
    names = [" ".join(p.split()) for p in players]
    if tournament.is_individual:
        if partner_wanted:
            raise ServiceError(
                _("In an individual tournament every player comes alone: partners are drawn."),
                field="partner_wanted",
            )
        wanted = 1
    else:
        wanted = 1 if partner_wanted else 2
    if len(names) != wanted:
        if tournament.is_individual:
            message = _("An individual tournament registers one player at a time.")
        elif partner_wanted:
            message = _("A player looking for a partner registers alone: give one name.")
        else:
            message = _("A team is two players: give both names (or ask for a partner).")
        raise ServiceError(message, field="players")
    for index, name in enumerate(names):
        if problem := name_problem(name):
            raise ServiceError(problem, field=f"players.{index}")
    if len(names) == 2 and _key(names[0]) == _key(names[1]):
        raise ServiceError(_("A team needs two different players."), field="players.1")
    return names


def _check_duplicates(tournament: Tournament, names: list[str]) -> None:
    """A name already in a pending or accepted entry, or in a team (or entrant) playing."""
    taken: set[str] = set()
    for registration in Registration.objects.filter(tournament=tournament).exclude(
        status=Registration.Status.CANCELLED
    ):
        taken.update(_key(n) for n in (registration.player, registration.partner) if n)
    playing = entries_with_players(tournament).filter(withdrawn=False)
    taken.update(_key(p.full_name) for entry in playing for p in entry.players)
    for index, name in enumerate(names):
        if _key(name) in taken:
            raise AlreadyRegistered(
                _("%(player)s is already registered for this tournament.") % {"player": name},
                field=f"players.{index}",
            )


def register_online(
    tournament: Tournament,
    *,
    by: Any,
    players: Any,
    partner_wanted: Any = False,
    email: str = "",
    phone: str = "",
    link: Callable[[str], str] | None = None,
) -> Registration:
    """Register a team (two names), a player asking for a partner, or (individual) a player.

    Refused while registration is not open (`registration_refusal`, 409). Past the capacity
    the entry waits (`Status.WAITING`) in order of arrival. Nothing is stored on a refusal.
    With an e-mail, once stored the entry is confirmed by mail (Django's e-mail backend) with
    its status and its private link; `link` makes that address absolute (a request's
    `build_absolute_uri`).
    """
    if refusal := registration_refusal(tournament):
        raise refusal
    names = _check_names(tournament, players, partner_wanted)
    email = (email or "").strip()
    # Django's check lets bidirectional and zero-width characters through in the domain.
    require_visible_text(email, field="email", label=_("The e-mail address"))
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(_("Enter a valid e-mail address."), field="email") from None
    phone = " ".join((phone or "").split())
    if phone and not _PHONE.match(phone):
        raise ServiceError(
            _("Enter a phone number: digits, spaces and a leading +."), field="phone"
        )
    with transaction.atomic():
        # One registration at a time per tournament: the last place is given once.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if refusal := registration_refusal(tournament):
            raise refusal
        _check_duplicates(tournament, names)
        registration = Registration(
            tournament=tournament,
            player=names[0],
            partner=names[1] if len(names) > 1 else "",
            partner_wanted=partner_wanted,
            email=email,
            phone=phone,
            language=translation.get_language() or settings.LANGUAGE_CODE,
        )
        if not fits(tournament, registration.places(tournament)):
            registration.status = Registration.Status.WAITING
        registration.save()
        _event(
            tournament,
            MatchEvent.Action.ONLINE_REGISTRATION,
            f"{registration} ({registration.status})",
            by,
        )
        # Worded now, in the registrant's language; sent only once the entry is stored.
        mail.confirm_entry(registration, link)
    return registration


def _may_cancel(registration: Registration, by: Any, key: str | None) -> bool:
    if is_director(by, registration.tournament.club_id):
        return True
    return bool(key) and secrets.compare_digest(str(key), registration.key)


def cancel_registration(
    registration: Registration,
    *,
    by: Any,
    key: str | None = None,
    link: Callable[[str], str] | None = None,
) -> list[Registration]:
    """Cancel an entry (a director, or anyone with its private key); returns the waiting
    entries moved up into the places it freed (each told by mail, `link` making its address
    absolute).

    An accepted entry gives up its team (or entrant) while it has not been drawn; after the
    draw it is withdrawn by a director instead. A player paired with it waits for a partner
    again.
    """
    tournament = registration.tournament
    if not _may_cancel(registration, by, key):
        raise NotAllowed(
            _("Only a director or the holder of the entry's private link may cancel it.")
        )
    with changing(tournament.pk):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.status == Registration.Status.CANCELLED:
            raise Conflict(_("This entry is already cancelled."), field="status")
        entry = registration.team or registration.entrant
        if entry is not None and has_sat(entry):
            raise Conflict(
                _("%(entry)s has been drawn: a director withdraws it instead.") % {"entry": entry},
                field="status",
            )
        partner = registration.paired_with
        registration.status = Registration.Status.CANCELLED
        registration.decided_at = timezone.now()
        registration.paired_with = None
        registration.team = registration.entrant = None
        registration.save()
        if partner is not None:
            partner.paired_with = None
            if partner.status == Registration.Status.ACCEPTED:
                partner.status, partner.team, partner.decided_at = (
                    Registration.Status.REGISTERED,
                    None,
                    None,
                )
            partner.save()
        if entry is not None:
            entry.delete()
        _event(tournament, MatchEvent.Action.CANCEL_REGISTRATION, str(registration), by)
        moved = move_up(tournament, link=link)
    return moved


def accept_registration(
    registration: Registration, *, by: Any, new_members: str = ASK_IF_SIMILAR
) -> Entry:
    """Accept an entry: its names become the club's members (found by name, or created once
    the director confirms: club.registration's `new_members`) and it becomes a team (an
    entrant). A player looking for a partner is accepted with the partner paired to them.
    A waiting entry is accepted only if a place is free (`TournamentFull`, naming `capacity`).
    """
    tournament = registration.tournament
    require_director(by, tournament.club_id)
    with changing(tournament.pk):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if not registration.is_pending:
            raise Conflict(
                _("This entry is already %(status)s.")
                % {"status": registration.get_status_display()},
                field="status",
            )
        group = [registration]
        if registration.partner_wanted and not tournament.is_individual:
            partner = registration.paired_with
            if partner is None:
                raise Conflict(
                    _("%(player)s is looking for a partner: pair them with another player first.")
                    % {"player": registration.player},
                    field="paired_with",
                )
            group.append(partner)
        waiting = [r for r in group if r.status == Registration.Status.WAITING]
        if waiting:
            extra = sum(r.places(tournament) for r in waiting)
            if not fits(tournament, extra):
                raise TournamentFull(
                    _(
                        "Every place is taken: raise the capacity, or wait for a cancellation to accept an entry of the waiting list."
                    ),
                    field="capacity",
                )
        entry: Entry
        if tournament.is_individual:
            entry = register_entrant_names(
                tournament, [registration.player], by=by, new_members=new_members
            )[0]
        else:
            first, second = (
                (registration.player, registration.partner)
                if len(group) == 1
                else (group[0].player, group[1].player)
            )
            # No name given: the event's one rule names it (and tells family pairs apart).
            line = TeamLine(first, second, name="")
            entry = register_team_lines(tournament, [line], by=by, new_members=new_members)[0]
        now = timezone.now()
        for row in group:
            row.status, row.decided_at = Registration.Status.ACCEPTED, now
            setattr(row, entry.line_field, entry)
            row.save(update_fields=["status", "decided_at", "team", "entrant"])
        _event(tournament, MatchEvent.Action.ACCEPT_REGISTRATION, str(entry), by)
    return entry


@dataclass
class AcceptAll:
    """What "Accept all" did: the entries accepted, and each one left with the reason."""

    accepted: list[Entry] = field(default_factory=list)
    refused: list[tuple[Registration, str]] = field(default_factory=list)


def accept_all(tournament: Tournament, *, by: Any) -> AcceptAll:
    """Accept every registered entry (not the waiting list) in order of arrival, each as
    `accept_registration` would, in one transaction. An entry it cannot accept (a name close
    to a member's, a player still without a partner) is left as it was and reported with
    why; the others are accepted."""
    require_director(by, tournament.club_id)
    report = AcceptAll()
    with transaction.atomic():
        done: set[int] = set()
        registered = Registration.objects.filter(
            tournament=tournament, status=Registration.Status.REGISTERED
        ).order_by("created_at", "pk")
        for registration in registered:
            if registration.pk in done:
                continue  # accepted with the partner paired to it
            registration.tournament = tournament
            try:
                # Its own savepoint (`changing`): a refusal undoes this entry only.
                entry = accept_registration(registration, by=by)
            except ServiceError as error:
                report.refused.append((registration, error.message))
                continue
            done.update(filter(None, (registration.pk, registration.paired_with_id)))
            report.accepted.append(entry)
    return report


def pair_registrations(first: Registration, second: Registration, *, by: Any) -> None:
    """Pair two players who registered alone looking for a partner: accepted, they are a team."""
    tournament = first.tournament
    require_director(by, tournament.club_id)
    if tournament.is_individual:
        raise Conflict(_("An individual tournament draws partners every round."), field="format")
    with transaction.atomic():
        rows = {
            r.pk: r
            for r in Registration.objects.select_for_update().filter(pk__in=[first.pk, second.pk])
        }
        if first.pk == second.pk or len(rows) != 2:
            raise ServiceError(_("Choose two different players."), field="second")
        for field, row in (("first", rows[first.pk]), ("second", rows[second.pk])):
            if row.tournament_id != tournament.pk:
                raise ServiceError(_("That entry is of another tournament."), field=field)
            if not row.partner_wanted or row.paired_with_id is not None:
                raise ServiceError(
                    _("%(player)s is not looking for a partner.") % {"player": row.player},
                    field=field,
                )
            if row.status != Registration.Status.REGISTERED:
                raise Conflict(
                    _("%(player)s is %(status)s: only registered players are paired.")
                    % {"player": row.player, "status": row.get_status_display()},
                    field=field,
                )
        a, b = rows[first.pk], rows[second.pk]
        a.paired_with, b.paired_with = b, a
        a.save(update_fields=["paired_with"])
        b.save(update_fields=["paired_with"])
        _event(tournament, MatchEvent.Action.PAIR_REGISTRATIONS, f"{a.player} & {b.player}", by)


def close_registration(tournament: Tournament, *, by: Any) -> Tournament:
    """Close online registration (a setting: it may be opened again)."""
    return update_tournament(tournament, by=by, registration=Tournament.RegistrationMode.CLOSED)
