"""Creating a tournament and changing its settings: checked by setting_checks, stored here.

A change records itself (so the standings follow); a change of house rules after deals (a
site admin's, in the Django admin) re-scores every match from its deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club.models import Club

from ..changes import capacity_changed, changing, record_ratings_change
from ..errors import ServiceError
from ..models import MatchEvent, Tournament
from ..permissions import is_site_admin, require_director
from ..standings.criteria import default_tie_breaks_for

# The checks, named here too: callers create and change settings through this module.
from .setting_checks import SETTINGS as SETTINGS
from .setting_checks import SLUG_MAX_LENGTH, matches_with_deals, normalise, settings_problems
from .setting_checks import SettingProblem as SettingProblem
from .setting_checks import SettingsRefused as SettingsRefused
from .setting_checks import settings_errors as settings_errors


def _apply(tournament: Tournament, values: Mapping[str, Any]) -> list[str]:
    unknown = sorted(set(values) - set(SETTINGS))
    if unknown:
        raise TypeError(f"not a tournament setting: {', '.join(unknown)}")
    old_format = tournament.format
    changed = []
    for name, value in normalise(values).items():
        if getattr(tournament, name) != value:
            setattr(tournament, name, value)
            changed.append(name)
    for name, value in _follow_format(tournament, old_format, values).items():
        if getattr(tournament, name) != value:
            setattr(tournament, name, value)
            changed.append(name)
    return changed


def _published_by_registration(tournament: Tournament, values: dict[str, Any]) -> None:
    """Opening registration on a draft publishes it ("open for registration"): a draft's page
    answers "not found" to all but its directors, so nobody could register (issue 38). A status
    given with it is kept."""
    if values.get("registration") == Tournament.RegistrationMode.OPEN and tournament.is_draft:
        values.setdefault("status", Tournament.Status.OPEN)


def _follow_format(
    tournament: Tournament, old_format: str, given: Mapping[str, Any]
) -> dict[str, Any]:
    """The settings a (new) format brings along where the caller did not give them."""
    follow: dict[str, Any] = {}
    concours = tournament.format == Tournament.Format.CONCOURS
    if "draw" not in given:
        if concours and not tournament.draw:
            follow["draw"] = Tournament.Draw.RANDOM
        elif not concours and tournament.format != old_format:
            follow["draw"] = ""
    if tournament.format == old_format:
        return follow
    if tournament.format not in Tournament.ROUND_BY_ROUND:
        for name in ("round_count", "bye_points"):
            if name not in given:
                follow[name] = None
    # A list the caller gave is kept as given, even when it is the old format's default: what
    # the form showed is what is saved.
    untouched = list(tournament.tie_breaks or []) == default_tie_breaks_for(old_format)
    if "tie_breaks" not in given and untouched:
        follow["tie_breaks"] = default_tie_breaks_for(tournament.format)
    return follow


def create_tournament(club: Club, *, by: Any, **values: Any) -> Tournament:
    """A new tournament of `club` with these settings (defaults for the others)."""
    require_director(by, club.pk)
    values.setdefault("slug", slugify(values.get("name") or "")[:SLUG_MAX_LENGTH])
    _published_by_registration(Tournament(club=club), values)
    # A new tournament starts as the model's default format (round robin, with its tie-break
    # list) and moves to its own, which brings its own list unless one is given.
    tournament = Tournament(club=club)
    _apply(tournament, values)
    problems = settings_problems(tournament)
    if problems:
        raise SettingsRefused(problems)
    save_settings(tournament, list(values), by=by)
    return tournament


def update_tournament(
    tournament: Tournament, *, by: Any, rescore: bool = False, **values: Any
) -> Tournament:
    """Change some settings; the standings follow (a change is recorded).

    `rescore` (site admins only): house rules may change after deals; every match is then
    replayed under the new rules and its stored results rewritten.
    """
    require_director(by, tournament.club_id)
    if rescore and not is_site_admin(by):
        raise ServiceError(_("Only a site admin may re-score a tournament."), field="rules")
    _published_by_registration(tournament, values)
    changed = _apply(tournament, values)
    problems = settings_problems(tournament, rescore=rescore)
    if problems:
        tournament.refresh_from_db()
        raise SettingsRefused(problems)
    if not changed:
        return tournament
    save_settings(tournament, changed, by=by)
    return tournament


def save_settings(tournament: Tournament, changed: list[str], *, by: Any) -> None:
    """Store settings already checked (`settings_problems`), a new tournament or changes.

    A change of house rules after deals (a site admin's) re-scores every match.
    """
    for name, value in normalise({n: getattr(tournament, n) for n in changed}).items():
        setattr(tournament, name, value)
    if tournament.pk is None:
        with transaction.atomic():
            tournament.save()
            MatchEvent.record(
                tournament=tournament,
                action=MatchEvent.Action.CREATED,
                detail=tournament.name,
                by=by,
            )
        return
    with changing(tournament.pk):
        tournament.save(update_fields=changed)
        if "rules" in changed:
            rescore_matches(tournament)
        if "capacity" in changed:
            # More places: the waiting list (entries/) moves up into them.
            capacity_changed.send(sender=Tournament, tournament=tournament)
        MatchEvent.record(
            tournament=tournament,
            action=MatchEvent.Action.SETTINGS,
            detail=", ".join(changed),
            by=by,
        )
        if {"is_public", "status"} & set(changed):
            # Whether its matches count in the club's ratings (services.ratings) changed.
            record_ratings_change(tournament.club_id)


def rescore_matches(tournament: Tournament) -> int:
    """Replay every match with deals under the tournament's rules and store the results."""
    from .deals import replay_and_store

    matches = matches_with_deals(tournament).select_for_update(of=("self",)).order_by("pk")
    count = 0
    for match in matches.select_related("tournament", "round"):
        replay_and_store(match)
        count += 1
    return count


__all__ = [
    "SETTINGS",
    "SettingProblem",
    "SettingsRefused",
    "create_tournament",
    "save_settings",
    "settings_errors",
    "settings_problems",
    "update_tournament",
]
