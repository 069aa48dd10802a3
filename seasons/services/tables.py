"""A series' stored table, recomputed from its evenings' stored standings: the evenings'
results and the players' ratings turned into the plain records seasons.arithmetic takes, and
its lines stored (the rules: docs/seasons.md).

Who played an evening is who sat at one of its tables (or had a bye or sat out a drawn round):
an entry never drawn (absent at check-in, say) has no evening in any series.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
from bisect import bisect_left
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from club.models import RatingChange
from tournaments.models import MatchSeat, SitOut, Standing, Tournament
from tournaments.services.ratings import rated_tournaments_q

from ..arithmetic import Evening, Result, Rules, series_table
from ..models import Series, SeriesLine

log = logging.getLogger(__name__)


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
    through = Series.tournaments.through
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


def _who_played(
    counted: dict[int, int],
) -> tuple[dict[tuple[int, int], list[int]], dict[int, set[int]]]:
    """Who played the tournaments of `counted` (tournament id: the last round its standings
    count) in those rounds: (tournament, team) → the players who sat for the team, the first
    to sit first; and per tournament the players of an individual tournament who sat at a
    table or sat out a drawn round (scored as a bye). Two queries.

    A team played if it had a seat (a bye is one); a player sat for it as the ratings read it
    (`MatchSeat.who_sat`): the seat's line-up (a substitute in place of a team's player), the
    team's players on a seat that names nobody. An entry that was never drawn (absent at
    check-in, say) is in neither: it played no evening (docs/seasons.md).
    """
    rows = (
        MatchSeat.objects.filter(round__tournament_id__in=counted)
        .order_by("round__number", "pk")
        .values_list(
            "round__tournament_id",
            "team_id",
            "round__number",
            "first_player_id",
            "second_player_id",
            "team__first_player_id",
            "team__second_player_id",
            "team__round_id",
        )
    )
    sat: dict[tuple[int, int], dict[int, None]] = {}
    alone: dict[int, set[int]] = {}
    for tid, team, number, first, second, team_first, team_second, drawn in rows.iterator(2000):
        if number > counted[tid]:
            continue  # a round drawn but not in these standings yet
        for player in MatchSeat.who_sat((first, second), (team_first, team_second)):
            if player is None:
                continue
            if drawn is not None:  # a partnership of one round: an individual tournament
                alone.setdefault(tid, set()).add(player)
            else:
                sat.setdefault((tid, team), {})[player] = None
    for tid, number, player in SitOut.objects.filter(round__tournament_id__in=counted).values_list(
        "round__tournament_id", "round__number", "entrant__player_id"
    ):
        if number <= counted[tid]:
            alone.setdefault(tid, set()).add(player)
    return {key: list(players) for key, players in sat.items()}, alone


def _results(tournament_ids: list[int]) -> dict[int, list[Result]]:
    """Each tournament's players with their results in its latest stored standings (the live
    table while its first round is in play): four queries.

    A team's line counts for every player who sat for the team in a round those standings
    count (docs/seasons.md: a substitute who sat one round gets the team's result, a player
    replaced before sitting gets none); an individual tournament's line for its player if
    they played. A line of an entry that never played (`_who_played`) counts for no one and
    takes no place: the places are counted among those who played.
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
            "entrant__player_id",
        )
        .iterator(2000)
    )
    latest: dict[int, int] = {}
    for row in rows:
        latest.setdefault(row[0], row[1])
    # The live table (LIVE_ROUND) stands while the first round is in play.
    sat, played_alone = _who_played({tid: max(number, 1) for tid, number in latest.items()})
    found: dict[int, list[Result]] = {}
    credited: dict[int, set[int]] = {}
    # Per tournament: the lines of entries that played so far, and the last such line's
    # rank and place. The standings' lines come best first.
    ahead: dict[int, tuple[int, int | None, int]] = {}
    for tid, number, rank, score, match_points, team, alone in rows:
        if latest[tid] != number:
            continue  # an earlier round's table
        players: Iterable[int]
        if alone is not None:
            players = (alone,) if alone in played_alone.get(tid, ()) else ()
        else:
            players = sat.get((tid, team), ())
        if not players:
            continue  # never sat at a table: no place, no evening
        # The place among those who played: an entry that did not play, wherever the
        # standings list it, takes no place from anyone; lines sharing a rank share a place.
        count, last_rank, last_place = ahead.get(tid, (0, None, 0))
        place = last_place if rank == last_rank else count + 1
        ahead[tid] = (count + 1, rank, place)
        for player in players:
            # A player who sat for two teams (a substitute after their own withdrew) is
            # credited once, with the better place (the lines come best first).
            if player not in credited.setdefault(tid, set()):
                credited[tid].add(player)
                found.setdefault(tid, []).append(Result(player, score, match_points, place))
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
    """The series' evenings with results so far, as seasons.arithmetic takes them."""
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
