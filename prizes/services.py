"""Storing a tournament's prize list (computed from its final standings, overwritten), and
setting a series' prize table."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from seasons.models import Series
from tournaments.models import Tournament
from tournaments.permissions import require_director
from tournaments.services.setting_checks import SettingProblem, SettingsRefused

from .awards import InvalidPrizes, prize_list, read_prizes
from .checks import series_problems
from .models import PrizeList, SeriesPrizes
from .selectors import digest_of, fees_due, final_entries, last_round_finished

log = logging.getLogger(__name__)


def recompute_prize_list(tournament_id: int) -> bool:
    """Bring the stored prize list up to date; False when it already was.

    A tournament without prizes, or whose last round is not finished, has none (a stored one
    is removed: a round drawn again, a table cleared). Idempotent: the list is rebuilt from
    the stored standings and overwritten, and an unchanged digest stores nothing.
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    try:
        prizes = read_prizes(tournament.prizes)
    except InvalidPrizes:
        # Stored by hand past the settings check: nothing is awarded until it reads.
        log.warning("the prize table of tournament %s does not read", tournament_id)
        prizes = None
    if prizes is None or not last_round_finished(tournament):
        deleted, _kinds = PrizeList.objects.filter(tournament_id=tournament_id).delete()
        return bool(deleted)
    entries = final_entries(tournament)
    fees = fees_due(tournament)
    digest = digest_of(tournament.prizes, entries, fees)
    with transaction.atomic():
        stored = PrizeList.objects.select_for_update().filter(tournament_id=tournament_id).first()
        if stored is not None and stored.digest == digest:
            return False
        result = prize_list(prizes, entries, fees)
        lines = [
            {
                "place": award.place,
                "shared_place": award.shared_place,
                "entry": {"id": award.key, "name": award.name},
                "amount": None if award.amount is None else str(award.amount),
                "kind": award.kind,
                "shared": award.shared,
                "line": award.line,
                "category": award.category,
            }
            for award in result.awards
        ]
        PrizeList.objects.update_or_create(
            tournament_id=tournament_id,
            defaults={
                "digest": digest,
                "fees_due": fees,
                "pool": result.pool,
                "awarded": result.awarded,
                "lines": lines,
            },
        )
    return True


def set_series_prizes(series: Series, *, by: Any, prizes: Any) -> SeriesPrizes | None:
    """Set (or, with None, remove) a series' prize table; `SettingsRefused` names each problem."""
    require_director(by, series.season.club_id)
    problems = series_problems(prizes)
    if problems:
        raise SettingsRefused([SettingProblem(path, message) for path, message in problems])
    with transaction.atomic():
        if prizes is None:
            SeriesPrizes.objects.filter(series=series).delete()
            return None
        table, _created = SeriesPrizes.objects.update_or_create(
            series=series, defaults={"prizes": prizes}
        )
    return table
