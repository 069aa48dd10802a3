"""The e-mails of online registration: an entry confirmed, and a place freed for a waiting
entry; each with the entry's private link, sent through Django's e-mail backend once the
transaction that decided it has committed."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _

from ..models import Registration
from ..selectors import waiting_position

__all__ = ["confirm_entry", "tell_moved_up"]

log = logging.getLogger(__name__)

# Makes a path absolute: a request's `build_absolute_uri`.
Link = Callable[[str], str]


def _entry_link(registration: Registration, link: Link | None) -> str:
    """The entry's private address, whole: from the request when there is one, else from
    the site's address (`BELOTE_SITE_URL`)."""
    tournament = registration.tournament
    path = reverse("entries:entry", args=[tournament.club.slug, tournament.slug, registration.key])
    return link(path) if link else f"{settings.BELOTE_SITE_URL}{path}"


def _values(registration: Registration) -> dict[str, str]:
    tournament = registration.tournament
    return {
        "entry": registration.names,
        "tournament": tournament.name,
        "date": formats.date_format(tournament.starts_on, "DATE_FORMAT"),
    }


def _send(to: str, subject: str, text: str) -> None:
    try:
        send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [to])
    except Exception:
        # The entry is stored and its page shows the link: a mail server that is down or
        # not configured must not turn a registration into an error.
        log.exception("an e-mail about an online entry was not sent")


def confirm_entry(registration: Registration, link: Link | None) -> None:
    """After commit, confirm a new entry: registered, or its number on the waiting list.
    Worded now, in the active language (the registrant's request)."""
    if not registration.email:
        return
    values = _values(registration)
    position = waiting_position(registration)
    if position is None:
        status = _("%(entry)s: registered for %(tournament)s on %(date)s.") % values
    else:
        status = _(
            "%(entry)s: on the waiting list for %(tournament)s on %(date)s, number %(position)d. You move up when a place is freed."
        ) % {**values, "position": position}
    see = _("See or cancel your entry: %(link)s") % {"link": _entry_link(registration, link)}
    subject = _("Your entry for %(tournament)s") % values
    to, text = registration.email, f"{status}\n\n{see}\n"
    transaction.on_commit(lambda: _send(to, subject, text))


def tell_moved_up(registration: Registration, link: Link | None = None) -> None:
    """After commit, tell a waiting entry that moved up (a cancellation, a higher capacity)
    that it has a place, in the language it registered in."""
    if not registration.email:
        return
    with translation.override(registration.language or settings.LANGUAGE_CODE):
        values = _values(registration)
        status = (
            _(
                "%(entry)s: a place was freed for %(tournament)s on %(date)s. You are off the waiting list and registered."
            )
            % values
        )
        see = _("See or cancel your entry: %(link)s") % {"link": _entry_link(registration, link)}
        subject = _("A place for you at %(tournament)s") % values
    to, text = registration.email, f"{status}\n\n{see}\n"
    transaction.on_commit(lambda: _send(to, subject, text))
