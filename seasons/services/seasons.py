"""Setting a club's seasons and series: their names, dates, rules and evenings, each refused
by field with every problem (the rules: docs/seasons.md). Their tables follow (tables.py)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from club.errors import FieldsRefused
from club.models import Club
from club.text import hidden_character_problem
from tournaments.models import Tournament
from tournaments.permissions import require_director

from ..arithmetic import rules_problems
from ..changes import record_series_change
from ..models import Season, Series

NAME_MAX_LENGTH = 80


# --- seasons -------------------------------------------------------------------------------


def season_problems(
    club: Club,
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    season: Season | None = None,
) -> dict[str, list[str]]:
    """What is wrong with a season's name and dates, by field (empty: nothing)."""
    problems: dict[str, list[str]] = {}
    if not name.strip():
        problems["name"] = [_("Give the season a name.")]
    elif len(name) > NAME_MAX_LENGTH:
        problems["name"] = [_("Keep the name to %(n)s characters.") % {"n": NAME_MAX_LENGTH}]
    elif hidden := hidden_character_problem(name, label=_("The season's name")):
        problems["name"] = [hidden]
    if ends_on < starts_on:
        problems["ends_on"] = [_("A season ends on or after the day it starts.")]
        return problems
    others = Season.objects.filter(club=club, starts_on__lte=ends_on, ends_on__gte=starts_on)
    if season is not None and season.pk:
        others = others.exclude(pk=season.pk)
    other = others.order_by("starts_on").first()
    if other is not None:
        message = _("These dates overlap the season %(name)s (%(start)s to %(end)s).") % {
            "name": other.name,
            "start": other.starts_on.isoformat(),
            "end": other.ends_on.isoformat(),
        }
        # The date that falls in the other season; a season around it: its end.
        field = "starts_on" if other.holds(starts_on) else "ends_on"
        problems[field] = [message]
    if season is not None and season.pk:
        outside = season.series.filter(
            Q(tournaments__starts_on__lt=starts_on) | Q(tournaments__starts_on__gt=ends_on)
        )
        if outside.exists():
            problems.setdefault("starts_on", []).append(
                _("A series of this season has evenings outside these dates.")
            )
    return problems


def save_season(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    by: Any,
    season: Season | None = None,
) -> Season:
    """Create a season of `club` (or change `season`); refused, naming the field, when its
    dates overlap another season of the club. Nothing is stored on a refusal."""
    require_director(by, club)
    with transaction.atomic():
        # One season written at a time per club: two at once could overlap each other.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        problems = season_problems(
            club, name=name, starts_on=starts_on, ends_on=ends_on, season=season
        )
        if problems:
            raise FieldsRefused(problems)
        if season is None:
            season = Season(club=club)
        season.name, season.starts_on, season.ends_on = name.strip(), starts_on, ends_on
        season.save()
    return season


def season_of(club: Club | int, day: datetime.date) -> Season | None:
    """The club's season that `day` falls in (None: the club has no season then)."""
    club_id = club if isinstance(club, int) else club.pk
    return Season.objects.filter(club_id=club_id, starts_on__lte=day, ends_on__gte=day).first()


# --- series --------------------------------------------------------------------------------

RULE_FIELDS = (
    "points",
    "place_points",
    "participation_points",
    "best_of",
    "absent_points",
    "min_evenings",
    "handicap",
)


def _rule_messages(codes: dict[str, str]) -> dict[str, list[str]]:
    words = {
        ("best_of", "below_one"): _("Count at least one evening (leave it empty to count all)."),
        ("place_points", "not_decreasing"): _(
            "The points per place must decrease from each place to the next (e.g. 25, 20, 16)."
        ),
        ("place_points", "negative"): _("Points per place cannot be negative."),
        ("place_points", "missing"): _("A series by place needs its points per place."),
        ("participation_points", "negative"): _("Participation points cannot be negative."),
        ("min_evenings", "negative"): _("The minimum number of evenings cannot be negative."),
    }
    return {
        name: [words.get((name, code), _("Choose one of the options offered."))]
        for name, code in codes.items()
    }


def series_problems(
    season: Season,
    *,
    name: str,
    rules: dict[str, Any],
    tournaments: Sequence[Tournament],
) -> dict[str, list[str]]:
    """What is wrong with a series' name, rules and evenings, by field (empty: nothing)."""
    problems: dict[str, list[str]] = {}
    if not name.strip():
        problems["name"] = [_("Give the series a name.")]
    elif len(name) > NAME_MAX_LENGTH:
        problems["name"] = [_("Keep the name to %(n)s characters.") % {"n": NAME_MAX_LENGTH}]
    elif hidden := hidden_character_problem(name, label=_("The series' name")):
        problems["name"] = [hidden]
    problems.update(
        _rule_messages(rules_problems(**{k: v for k, v in rules.items() if k != "absent_points"}))
    )
    foreign = [t for t in tournaments if t.club_id != season.club_id]
    outside = [t for t in tournaments if not season.holds(t.starts_on)]
    if foreign:
        # Never another club's tournament's name (it may be private): answered as an id
        # that does not exist, as the API answers one.
        problems["tournaments"] = [_("No tournament %(id)s.") % {"id": foreign[0].pk}]
    elif outside:
        problems["tournaments"] = [
            _("%(name)s (%(date)s) is outside the season's dates (%(start)s to %(end)s).")
            % {
                "name": outside[0].name,
                "date": outside[0].starts_on.isoformat(),
                "start": season.starts_on.isoformat(),
                "end": season.ends_on.isoformat(),
            }
        ]
    return problems


def save_series(
    *,
    season: Season,
    name: str,
    rules: dict[str, Any],
    tournaments: Iterable[Tournament],
    by: Any,
    series: Series | None = None,
) -> Series:
    """Create a series of `season` (or change `series`): its name, rules (RULE_FIELDS) and
    evenings. Refused with every problem by field, storing nothing; its table follows."""
    require_director(by, season.club_id)
    tournaments = list(tournaments)
    values: dict[str, Any] = {
        "points": Series.Points.PLACE.value,
        "place_points": [],
        "participation_points": 0,
        "best_of": None,
        "absent_points": 0,
        "min_evenings": 0,
        "handicap": Series.Handicap.NONE.value,
    }
    unknown = set(rules) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"not a series rule: {', '.join(sorted(unknown))}")
    if series is not None:
        values.update({field: getattr(series, field) for field in RULE_FIELDS})
    values.update(rules)
    values["place_points"] = list(values["place_points"] or [])
    problems = series_problems(season, name=name, rules=values, tournaments=tournaments)
    if problems:
        raise FieldsRefused(problems)
    with transaction.atomic():
        if series is None:
            series = Series(season=season)
        series.name = name.strip()
        for field, value in values.items():
            setattr(series, field, value)
        series.save()
        series.tournaments.set(tournaments)  # type: ignore[attr-defined]
        record_series_change(series.pk)
    return series


def delete_series(series: Series, *, by: Any) -> None:
    """Remove `series` and its stored table; its evenings stay, in no series of it."""
    require_director(by, series.season.club_id)
    with transaction.atomic():
        series.delete()


def evening_series_problems(
    club_id: int, starts_on: datetime.date, series: Sequence[Series]
) -> list[str]:
    """Why a tournament of `club_id` on `starts_on` cannot be an evening of `series`."""
    for chosen in series:
        if chosen.season.club_id != club_id:
            return [_("No series %(id)s.") % {"id": chosen.pk}]
        if not chosen.season.holds(starts_on):
            return [
                _(
                    "%(series)s: the tournament's date (%(date)s) is outside its season "
                    "(%(start)s to %(end)s)."
                )
                % {
                    "series": chosen.name,
                    "date": starts_on.isoformat(),
                    "start": chosen.season.starts_on.isoformat(),
                    "end": chosen.season.ends_on.isoformat(),
                }
            ]
    return []


def set_evening_series(tournament: Tournament, series: Iterable[Series], *, by: Any) -> None:
    """Make `tournament` an evening of exactly `series` (the tournament's side of a series'
    evenings): refused by field, storing nothing; the tables of the series it joins or
    leaves follow."""
    require_director(by, tournament.club_id)
    series = list(series)
    problems = evening_series_problems(tournament.club_id, tournament.starts_on, series)
    if problems:
        raise FieldsRefused({"series": problems})
    with transaction.atomic():
        before = set(tournament.series.values_list("pk", flat=True))
        tournament.series.set(series)
        for series_id in before ^ {chosen.pk for chosen in series}:
            record_series_change(series_id)
