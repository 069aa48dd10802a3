"""A club's seasons and series: set by its directors, and each series table recomputed from
its evenings' stored standings (the arithmetic is club.series; the rules docs/seasons.md).

club/ never imports tournaments/: this module reads the evenings' standings and the players'
ratings, turns them into the plain records club.series takes, and stores its lines.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club.errors import FieldsRefused
from club.models import Club, RatingChange, Season, Series, SeriesLine
from club.series import Evening, Result, Rules, rules_problems, series_table
from club.text import hidden_character_problem

from ..changes import record_series_change
from ..models import MatchSeat, Standing, Tournament
from ..permissions import require_director
from .ratings import rated_tournaments_q

log = logging.getLogger(__name__)

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


# --- the stored table ----------------------------------------------------------------------


def rules_of(series: Series) -> Rules:
    return Rules(
        points=series.points,
        place_points=tuple(int(v) for v in series.place_points or ()),
        participation_points=series.participation_points,
        best_of=series.best_of,
        absent_points=series.absent_points,
        min_evenings=series.min_evenings,
        handicap=series.handicap,
    )


def series_of_tournament(tournament_id: int) -> list[int]:
    """The series a tournament is an evening of."""
    through = Tournament.series.through
    return list(
        through.objects.filter(tournament_id=tournament_id).values_list("series_id", flat=True)
    )


def evening_tournaments(series: Series) -> list[Tournament]:
    """The series' tournaments that count, in the order they are played (date, then id).

    A series table is public, like the ratings: a private or draft tournament's evening
    counts in neither (`rated_tournaments_q`), or it would name its players publicly."""
    return list(
        Tournament.objects.filter(series=series)
        .filter(rated_tournaments_q(prefix=""))
        .order_by("starts_on", "pk")
        .only(
            "id",
            "name",
            "slug",
            "starts_on",
            "status",
            "standings_seq",
            "club_id",
            "finished_at",
            "created_at",
            "correction_minutes",
        )
    )


def _sat_for_teams(counted: dict[int, int]) -> dict[tuple[int, int], list[int]]:
    """Who sat for each registered team of the tournaments of `counted` (tournament id: the
    last round its standings count) in those rounds: (tournament, team) → player ids, the
    first to sit first. One query.

    Read as the ratings read it (`MatchSeat.who_sat`): the seat's line-up (a substitute in
    place of a team's player), the team's players on a seat that names nobody. An
    individual tournament's partnerships are changed themselves, so they are not read here.
    """
    rows = (
        MatchSeat.objects.filter(round__tournament_id__in=counted, team__round__isnull=True)
        .order_by("round__number", "pk")
        .values_list(
            "round__tournament_id",
            "team_id",
            "round__number",
            "first_player_id",
            "second_player_id",
            "team__first_player_id",
            "team__second_player_id",
        )
    )
    sat: dict[tuple[int, int], dict[int, None]] = {}
    for tid, team, number, first, second, team_first, team_second in rows.iterator(2000):
        if number > counted[tid]:
            continue  # a round drawn but not in these standings yet
        for player in MatchSeat.who_sat((first, second), (team_first, team_second)):
            if player is not None:
                sat.setdefault((tid, team), {})[player] = None
    return {key: list(players) for key, players in sat.items()}


def _results(tournament_ids: list[int]) -> dict[int, list[Result]]:
    """Each tournament's players with their results in its latest stored standings (the live
    table while its first round is in play): two queries.

    A team's line counts for every player who sat for the team in a round those standings
    count (docs/seasons.md: a substitute who sat one round gets the team's result, a player
    replaced before sitting gets none); its registered players when no seat says who sat.
    An individual tournament's line counts for its player.
    """
    rows = list(
        Standing.objects.filter(tournament_id__in=tournament_ids)
        .order_by("tournament_id", "-round_number", "rank")
        .values_list(
            "tournament_id",
            "round_number",
            "rank",
            "points_for",
            "match_points",
            "team_id",
            "team__first_player_id",
            "team__second_player_id",
            "entrant__player_id",
        )
        .iterator(2000)
    )
    latest: dict[int, int] = {}
    for row in rows:
        latest.setdefault(row[0], row[1])
    # The live table (LIVE_ROUND) stands while the first round is in play.
    sat = _sat_for_teams({tid: max(number, 1) for tid, number in latest.items()})
    found: dict[int, list[Result]] = {}
    credited: dict[int, set[int]] = {}
    for tid, number, rank, score, match_points, team, first, second, alone in rows:
        if latest[tid] != number:
            continue  # an earlier round's table
        if alone is not None:
            players: Iterable[int | None] = (alone,)
        else:
            players = sat.get((tid, team)) or (first, second)
        for player in players:
            # A player who sat for two teams (a substitute after their own withdrew) is
            # credited once, with the better place (the lines come best first).
            if player is not None and player not in credited.setdefault(tid, set()):
                credited[tid].add(player)
                found.setdefault(tid, []).append(Result(player, score, match_points, rank))
    return found


def _ratings_before(
    club_id: int, players: set[int], days: list[datetime.date]
) -> list[dict[int, float]]:
    """Each player's club rating before each of `days` (the latest change before that day
    began, in the site's time zone)."""
    history: dict[int, tuple[list[float], list[float]]] = {}
    for player_id, played_at, rating in (
        RatingChange.objects.filter(club_id=club_id, player_id__in=players)
        .order_by("player_id", "played_at", "match_id")
        .values_list("player_id", "played_at", "rating")
    ):
        times, values = history.setdefault(player_id, ([], []))
        times.append(played_at.timestamp())
        values.append(rating)
    before = []
    for day in days:
        midnight = timezone.make_aware(datetime.datetime.combine(day, datetime.time())).timestamp()
        ratings = {}
        for player_id, (times, values) in history.items():
            index = bisect_left(times, midnight)
            if index:
                ratings[player_id] = values[index - 1]
        before.append(ratings)
    return before


def series_evenings(series: Series) -> tuple[list[Tournament], list[Evening]]:
    """The series' evenings with results so far, as club.series takes them."""
    tournaments = evening_tournaments(series)
    results = _results([t.pk for t in tournaments])
    played = [t for t in tournaments if results.get(t.pk)]
    ratings: list[dict[int, float]] = [{} for _t in played]
    if series.has_handicap and played:
        players = {r.player_id for t in played for r in results[t.pk]}
        ratings = _ratings_before(series.season.club_id, players, [t.starts_on for t in played])
    evenings = [
        Evening(t.pk, tuple(results[t.pk]), final=t.results_are_final(), ratings=ratings[i])
        for i, t in enumerate(played)
    ]
    return played, evenings


def _source(series: Series, evenings: list[Evening]) -> str:
    """A digest of everything the table is computed from (rules, results, ratings)."""
    digest = hashlib.sha256(repr(rules_of(series)).encode())
    for evening in evenings:
        results = [(r.player_id, r.score, r.match_points, r.place) for r in evening.results]
        ratings = sorted(evening.ratings.items())
        digest.update(repr((evening.tournament_id, evening.final, results, ratings)).encode())
    return digest.hexdigest()


def recompute_series(series_id: int, *, force: bool = False) -> bool:
    """Rebuild the series table from its evenings' stored standings; False when it was
    already current (nothing written). Idempotent: a retry or a duplicate is harmless."""
    series = Series.objects.select_related("season").filter(pk=series_id).first()
    if series is None:
        return False
    _played, evenings = series_evenings(series)
    source = _source(series, evenings)
    if source == series.computed_from and not force:
        return False
    lines = series_table(evenings, rules_of(series))
    with transaction.atomic():
        # Two recomputes of one series write one after the other.
        if Series.objects.select_for_update().filter(pk=series_id).first() is None:
            return False
        SeriesLine.objects.filter(series_id=series_id).delete()
        SeriesLine.objects.bulk_create(
            SeriesLine(
                series_id=series_id,
                player_id=line.player_id,
                position=position,
                rank=line.rank,
                shared_rank=line.shared_rank,
                played=line.played,
                total=line.total,
                handicap_total=line.handicap_total,
                handicap_rank=line.handicap_rank,
                needs=line.needs,
                evenings=[
                    [
                        c.tournament_id,
                        c.points,
                        c.counted,
                        c.played,
                        c.handicap_points,
                        c.handicap_counted,
                    ]
                    for c in line.cells
                ],
                ranks=list(line.ranks),
            )
            for position, line in enumerate(lines)
        )
        Series.objects.filter(pk=series_id).update(computed_from=source, computed_at=timezone.now())
    log.info("series %s recomputed over %s evenings", series_id, len(evenings))
    return True


def handicap_series_of_club(club_id: int) -> list[int]:
    """The club's series with a handicap: their tables follow the club's ratings."""
    return list(
        Series.objects.filter(season__club_id=club_id, handicap=Series.Handicap.RATING).values_list(
            "pk", flat=True
        )
    )
