"""Reads of a tournament's knockout final: how far its bracket is played, the bracket as the page
draws it, the final ranking (named in tournaments.selectors too).

The bracket's rounds are stored like any round (a knockout stage); here each is laid beside
the pure draw of `scheduling.knockout` fed with the winners of the round before, so a round
that no longer follows from the results (a correction after the next round was drawn) is
named, and the next round is known as soon as the results decide it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F
from django.utils.translation import gettext as _

from ..models import Bracket, Match, Round, Side, Team, Tournament
from ..scheduling.knockout import (
    KnockoutRound,
    first_knockout_round,
    knockout_ranking,
    next_knockout_round,
)
from .standings import standings_after


@dataclass(frozen=True, slots=True)
class KnockoutProgress:
    """A bracket and how far it has been played: each drawn round beside its pure draw.

    `played` pairs each stored knockout round (in order) with its `KnockoutRound` of the
    pure draw and the winners of its matches so far; `upcoming` is the round the results
    decide next (None while a match of the last drawn round has no winner, or after the
    final); `problem` says why the stored rounds no longer follow from the results (a
    correction after the next round was drawn).
    """

    bracket: Bracket
    played: list[tuple[Round, KnockoutRound, dict[int, int]]]
    upcoming: KnockoutRound | None
    problem: str = ""
    # The stored matches of each drawn knockout round (by round id), in table order.
    matches: dict[int, list[Match]] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        if not self.played:
            return False
        _round, drawn, winners = self.played[-1]
        return drawn.is_final and len(winners) == len(drawn.matches)


def knockout_progress(
    tournament: Tournament, schedule: list[tuple[Round, list[Match]]] | None = None
) -> KnockoutProgress | None:
    """The tournament's bracket and its progress, or None without a final.

    Two queries, none when the caller has every round with its matches (`schedule`, as
    `tables` gives it), and one more for the bracket unless the tournament was read with it
    (`select_related("bracket")`).
    """
    if not tournament.has_final:
        return None
    bracket = tournament.bracket
    found: Iterable[Match]
    if schedule is None:
        rounds = list(tournament.rounds.exclude(stage=Round.Stage.QUALIFYING).order_by("number"))
        ordered = (F("table").asc(nulls_last=True), "pk")
        found = tournament.matches.filter(round__in=rounds).order_by(*ordered)
    else:
        rounds = [r for r, _matches in schedule if r.is_knockout]
        found = [m for r, matches in schedule if r.is_knockout for m in matches]
    matches: dict[int, list[Match]] = {r.pk: [] for r in rounds}
    by_pk = {r.pk: r for r in rounds}
    for match in sorted(found, key=lambda m: (m.table is None, m.table or 0, m.pk)):
        match.round = by_pk[match.round_id]
        matches[match.round_id].append(match)
    expected: KnockoutRound | None = first_knockout_round(
        bracket.seeds, size=bracket.size, third_place=bracket.third_place
    )
    played: list[tuple[Round, KnockoutRound, dict[int, int]]] = []
    for round_ in rounds:
        if expected is None:
            break
        winners, agrees = _knockout_winners(expected, matches[round_.pk])
        if not agrees:
            problem = _(
                "%(round)s no longer follows from the results before it: delete it and draw it again."
            ) % {"round": round_}
            return KnockoutProgress(bracket, played, None, problem, matches)
        played.append((round_, expected, winners))
        decided = len(winners) == len(expected.matches)
        expected = (
            next_knockout_round(expected, list(winners.values()))
            if decided and not expected.is_final
            else None
        )
    upcoming = expected if len(played) == len(rounds) else None
    return KnockoutProgress(bracket, played, upcoming, "", matches)


def _knockout_winners(drawn: KnockoutRound, stored: list[Match]) -> tuple[dict[int, int], bool]:
    """The winner of each table of `drawn` decided so far, and whether `stored` matches it.

    A bye (the opponent withdrew) is won by the team left.
    """
    by_team = {team: match for match in stored for team in (match.ns_team_id, match.ew_team_id)}
    winners: dict[int, int] = {}
    seen = set()
    for planned in drawn.matches:
        match = by_team.get(planned.ns) or by_team.get(planned.ew)
        if match is None or {match.ns_team_id, match.ew_team_id} - {planned.ns, planned.ew, None}:
            return winners, False
        seen.add(match.pk)
        if match.is_bye:
            winners[planned.table] = match.ns_team_id
        elif match.status == Match.Status.FINISHED and match.winner in (Side.NS, Side.EW):
            winners[planned.table] = (
                match.ns_team_id if match.winner == Side.NS else match.ew_team_id  # type: ignore[assignment]
            )
    return winners, len(seen) == len(stored)


def final_ranking(
    tournament: Tournament, progress: KnockoutProgress | None
) -> list[tuple[int, bool, Team]]:
    """(place, shared, team) of every team once the final is played, else empty.

    The bracket's places first (knockout_ranking), then the other teams in the order of
    the qualifying standings the bracket was seeded from.
    """
    if progress is None or not progress.finished:
        return []
    _round, final, winners = progress.played[-1]
    seeds = list(progress.bracket.seeds)
    seeded_from = standings_after(tournament, progress.bracket.after_round, live=False)
    lines = seeded_from.lines() if seeded_from.after == progress.bracket.after_round else []
    others = [t for line in lines if (t := line.team_id) is not None and t not in seeds]
    places = knockout_ranking([*seeds, *others], final, set(winners.values()))
    teams = {t.pk: t for t in tournament.teams.select_related("first_player", "second_player")}
    count = {p: sum(1 for q in places if q.place == p) for p in {q.place for q in places}}
    return [(p.place, count[p.place] > 1, teams[p.team]) for p in places if p.team in teams]


@dataclass(frozen=True, slots=True)
class BracketSlot:
    """One line of a bracket's box: a team (with its seed) or what will decide it."""

    team: Team | None = None
    seed: int | None = None
    placeholder: str = ""
    total: int | None = None
    won: bool = False


@dataclass(frozen=True, slots=True)
class BracketBox:
    table: int | None
    top: BracketSlot
    bottom: BracketSlot
    third_place: bool = False
    match: Match | None = None


@dataclass(frozen=True, slots=True)
class BracketColumn:
    label: str
    drawn: bool
    boxes: list[BracketBox]


def bracket_columns(tournament: Tournament, progress: KnockoutProgress) -> list[BracketColumn]:
    """The bracket round by round, as the bracket page draws it (one query for the teams).

    Drawn rounds show their matches and results; the next round shows who will meet once
    the results decide it, and the rounds after it the tables whose winners go through.
    """
    bracket = progress.bracket
    # The players with the teams: a name is shown as their profiles allow (club.privacy).
    teams = {t.pk: t for t in tournament.teams.select_related("first_player", "second_player")}
    seed_of = {team: number for number, team in enumerate(bracket.seeds, start=1)}

    def slot(team_id: int | None, **kwargs: Any) -> BracketSlot:
        team = teams.get(team_id) if team_id is not None else None
        return BracketSlot(team=team, seed=seed_of.get(team_id) if team_id else None, **kwargs)

    columns: list[BracketColumn] = []
    winners: dict[int, int] = {}
    losers: dict[int, int] = {}
    for index in range(bracket.rounds):
        label = str(Round.Stage.of_knockout(bracket.size >> index).label)
        if index < len(progress.played):
            round_, drawn, won = progress.played[index]
            boxes = [_stored_box(match, slot) for match in progress.matches.get(round_.pk, [])]
            columns.append(BracketColumn(str(round_), True, boxes))
            winners = dict(won)
            losers = {
                m.table: (m.ew if won[m.table] == m.ns else m.ns)
                for m in drawn.matches
                if m.table in won
            }
            continue
        if index == len(progress.played) and progress.upcoming is not None:
            boxes = [
                BracketBox(m.table, slot(m.ns), slot(m.ew), m.third_place)
                for m in progress.upcoming.matches
            ]
        else:
            previous = columns[-1].label if columns else ""
            boxes = [
                BracketBox(
                    table,
                    _awaited(slot, winners.get(2 * table - 1), previous, 2 * table - 1),
                    _awaited(slot, winners.get(2 * table), previous, 2 * table),
                )
                for table in range(1, (bracket.size >> index) // 2 + 1)
            ]
            if bracket.third_place and index == bracket.rounds - 1:
                boxes.append(
                    BracketBox(
                        2,
                        _awaited(slot, losers.get(1), previous, 1, lost=True),
                        _awaited(slot, losers.get(2), previous, 2, lost=True),
                        third_place=True,
                    )
                )
        columns.append(BracketColumn(label, False, boxes))
        winners, losers = {}, {}
    return columns


def _stored_box(match: Match, slot: Any) -> BracketBox:
    done = match.status == Match.Status.FINISHED
    if match.is_bye:
        bottom = BracketSlot(placeholder=_("bye"))
        return BracketBox(None, slot(match.ns_team_id, won=True), bottom, match=match)
    played = match.status != Match.Status.SCHEDULED
    return BracketBox(
        match.table,
        slot(
            match.ns_team_id,
            total=match.ns_total if played else None,
            won=done and match.winner == Side.NS,
        ),
        slot(
            match.ew_team_id,
            total=match.ew_total if played else None,
            won=done and match.winner == Side.EW,
        ),
        third_place=match.is_third_place,
        match=match,
    )


def _awaited(
    slot: Any, team_id: int | None, previous: str, table: int, *, lost: bool = False
) -> BracketSlot:
    if team_id is not None:
        return slot(team_id)
    text = (
        _("Loser of %(round)s, table %(table)d")
        if lost
        else _("Winner of %(round)s, table %(table)d")
    )
    return BracketSlot(placeholder=text % {"round": previous, "table": table})
