"""A player's evenings read from the tournaments: where they sat, with whom and against whom,
their places and points, head to head against another player; what club's members page and
merge ask of the tournaments (club.hooks) answered here."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, prefetch_related_objects

from club.models import Player
from club.privacy import team_shown_name

from ..models import Entrant, Match, MatchSeat, Standing, Team, Tournament
from ..permissions import readable_q
from ..standings.names import LIVE_ROUND

# The evenings a member has played: the tournaments under way or over.
PLAYED_STATUSES = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)


@dataclass(frozen=True, slots=True)
class Sitting:
    """One match the player sat at: their side's partner, the two opponents, the score seen
    from their side and the result (`won`, `lost`, `draw`, or "" while not finished)."""

    match_id: int
    tournament_id: int
    partner_id: int | None
    opponent_ids: tuple[int, ...]
    ours: int
    theirs: int
    result: str


def sittings(player_id: int, *, tournaments: Q | None = None) -> list[Sitting]:
    """Every match the player sat at (a substitute's too, not the ones a substitute played
    in their place), oldest first; `tournaments` narrows them (a filter on tournament).
    Three queries of plain values, whatever the number of matches (a player's page reads
    hundreds: no model objects built)."""
    lined_up = MatchSeat.objects.filter(
        Q(first_player_id=player_id) | Q(second_player_id=player_id)
    ).values("team_id")
    teams = Team.objects.filter(
        Q(first_player_id=player_id) | Q(second_player_id=player_id) | Q(pk__in=lined_up)
    )
    if tournaments is not None:
        teams = teams.filter(tournaments)
    # A subquery of both reads below, not a list: one query fewer, whatever the teams.
    team_ids = teams.values("pk")
    theirs_q = Q(ns_team_id__in=team_ids) | Q(ew_team_id__in=team_ids)
    lineups = {
        (match, team): (first, second)
        for match, team, first, second in MatchSeat.objects.filter(
            Q(match__ns_team_id__in=team_ids) | Q(match__ew_team_id__in=team_ids),
            first_player__isnull=False,
        ).values_list("match_id", "team_id", "first_player_id", "second_player_id")
    }
    matches = (
        Match.objects.filter(theirs_q)
        .exclude(ew_team__isnull=True)
        .order_by("tournament__starts_on", "tournament_id", "round__number", "pk")
        .values_list(
            "pk",
            "tournament_id",
            "status",
            "winner",
            "ns_total",
            "ew_total",
            "ns_team_id",
            "ns_team__first_player_id",
            "ns_team__second_player_id",
            "ew_team_id",
            "ew_team__first_player_id",
            "ew_team__second_player_id",
        )
    )
    found = []
    for pk, tournament, status, winner, ns_total, ew_total, *sides in matches:
        ns_team, ns1, ns2, ew_team, ew1, ew2 = sides
        ns = MatchSeat.who_sat(lineups.get((pk, ns_team), (None, None)), (ns1, ns2))
        ew = MatchSeat.who_sat(lineups.get((pk, ew_team), (None, None)), (ew1, ew2))
        if player_id in ns:
            ours_ns, mine, theirs = True, ns, ew
        elif player_id in ew:
            ours_ns, mine, theirs = False, ew, ns
        else:
            continue  # a substitute sat in their place
        result = ""
        if status == Match.Status.FINISHED and winner:
            if winner == Match.Winner.DRAW:
                result = "draw"
            else:
                result = "won" if (winner == Match.Winner.NS) == ours_ns else "lost"
        found.append(
            Sitting(
                match_id=pk,
                tournament_id=tournament,
                partner_id=next((p for p in mine if p != player_id), None),
                opponent_ids=tuple(p for p in theirs if p is not None),
                ours=ns_total if ours_ns else ew_total,
                theirs=ew_total if ours_ns else ns_total,
                result=result,
            )
        )
    return found


def played_together(first: Player, second: Player) -> tuple[str, str] | None:
    """The merge's refusal (club.hooks): two records that sat at one table in the same match
    are two people."""
    from django.utils.translation import gettext as _

    for sitting in sittings(second.pk):
        if first.pk == sitting.partner_id or first.pk in sitting.opponent_ids:
            return (
                "played_together",
                _("%(first)s and %(second)s sat at one table (match %(match)d): two people.")
                % {"first": first.full_name, "second": second.full_name, "match": sitting.match_id},
            )
    return None


def evenings_of(club_id: int, player_ids: list[int]) -> dict[int, tuple[int, datetime.date | None]]:
    """Per member of the club: the club's evenings (tournaments under way or over) they
    played in, and the last one's date (club.hooks; two queries)."""
    wanted = set(player_ids)
    played: dict[int, set[tuple[int, datetime.date]]] = {}
    club_q = Q(tournament__club_id=club_id, tournament__status__in=PLAYED_STATUSES)
    for first, second, tournament, day in Team.objects.filter(
        club_q, round__isnull=True
    ).values_list("first_player_id", "second_player_id", "tournament_id", "tournament__starts_on"):
        for player in (first, second):
            if player in wanted:
                played.setdefault(player, set()).add((tournament, day))
    for player, tournament, day in Entrant.objects.filter(club_q, player_id__in=wanted).values_list(
        "player_id", "tournament_id", "tournament__starts_on"
    ):
        played.setdefault(player, set()).add((tournament, day))
    return {
        player: (len(evenings), max(day for _t, day in evenings))
        for player, evenings in played.items()
    }


# --- the player's page and the API's history and head to head ---------------------------------


@dataclass
class Evening:
    """An evening the player played: the tournament, their place, partners and points."""

    tournament: Tournament
    place: int | None = None
    shared: bool = False
    points: int = 0
    match_points: int = 0
    partner_ids: list[int] = field(default_factory=list)
    partners: list[Player] = field(default_factory=list)


@dataclass
class PlayerHistory:
    evenings: list[Evening]
    partners: list[tuple[Player, int]]  # met most often, with the number of matches
    opponents: list[tuple[Player, int]]
    players: dict[int, Player]


def player_history(player: Player, viewer: Any, *, most: int = 5) -> PlayerHistory:
    """The player's evenings in the tournaments `viewer` may read, newest first, and the
    partners and opponents they met most often (seven queries, whatever the number)."""
    readable = readable_q(viewer, "tournament__")
    seen = sittings(player.pk, tournaments=readable)
    teams = Team.objects.filter(readable, round__isnull=True).filter(
        Q(first_player=player) | Q(second_player=player)
    )
    entrants = Entrant.objects.filter(readable, player=player)
    lines: dict[int, Standing] = {}
    for line in (
        Standing.objects.filter(Q(team__in=teams) | Q(entrant__in=entrants))
        .exclude(round_number=LIVE_ROUND)
        .order_by("tournament_id", "-round_number")
    ):
        lines.setdefault(line.tournament_id, line)
    evenings: dict[int, Evening] = {}
    tournaments = Tournament.objects.select_related("club").in_bulk(
        {sitting.tournament_id for sitting in seen}
    )
    for sitting in seen:
        tournament = tournaments[sitting.tournament_id]
        evening = evenings.setdefault(tournament.pk, Evening(tournament))
        if sitting.partner_id and sitting.partner_id not in evening.partner_ids:
            evening.partner_ids.append(sitting.partner_id)
    for tournament_id, evening in evenings.items():
        if final := lines.get(tournament_id):
            evening.place, evening.shared = final.rank, final.shared_rank
            evening.points, evening.match_points = final.points_for, final.match_points
    partners = Counter(s.partner_id for s in seen if s.partner_id)
    opponents = Counter(o for s in seen for o in s.opponent_ids)
    ids = set(partners) | set(opponents)
    players = Player.objects.in_bulk(ids)
    # Whose name the viewer may not read in full is decided from their clubs, read in one
    # query for those who are not public (most often none: no query).
    private = [p for p in players.values() if p.profile != Player.Profile.PUBLIC]
    if private:
        prefetch_related_objects(private, "memberships")
    for evening in evenings.values():
        evening.partners = [players[p] for p in evening.partner_ids if p in players]
    ordered = sorted(
        evenings.values(), key=lambda e: (e.tournament.starts_on, e.tournament.pk), reverse=True
    )
    return PlayerHistory(
        evenings=ordered,
        partners=[(players[p], n) for p, n in partners.most_common(most) if p in players],
        opponents=[(players[p], n) for p, n in opponents.most_common(most) if p in players],
        players=players,
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    matches: int
    won: int
    lost: int
    drawn: int
    points_for: int
    points_against: int


def head_to_head(player: Player, against: Player, viewer: Any) -> HeadToHead:
    """The matches `player` sat at against `against` (opponents at one table), in the
    tournaments `viewer` may read: how many, won, lost, drawn, points for and against."""
    met = [
        s
        for s in sittings(player.pk, tournaments=readable_q(viewer, "tournament__"))
        if against.pk in s.opponent_ids
    ]
    return HeadToHead(
        matches=len(met),
        won=sum(s.result == "won" for s in met),
        lost=sum(s.result == "lost" for s in met),
        drawn=sum(s.result == "draw" for s in met),
        points_for=sum(s.ours for s in met),
        points_against=sum(s.theirs for s in met),
    )


def public_team_names(tournament: Tournament) -> dict[int, str]:
    """The tournament's teams holding a member whose name is not public, with the name every
    visitor may read (club.privacy.team_shown_name); one query, usually finding none, kept
    on the tournament object (a page asks for its table and its chart)."""
    cached: dict[int, str] | None = getattr(tournament, "_public_team_names", None)
    if cached is None:
        cached = tournament._public_team_names = _public_team_names(tournament)  # type: ignore[attr-defined]
    return cached


def _public_team_names(tournament: Tournament) -> dict[int, str]:
    private = [Player.Profile.MEMBERS, Player.Profile.HIDDEN]
    teams = Team.objects.filter(tournament=tournament).filter(
        Q(first_player__profile__in=private) | Q(second_player__profile__in=private)
    )
    return {
        team.pk: team_shown_name(team, None)
        for team in teams.select_related("first_player", "second_player")
    }
