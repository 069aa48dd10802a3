"""The knockout final: the bracket of the top 2, 4, 8 or 16, its rounds and the final ranking.

Pure data in, pure data out; teams are known by their ids, seeds by their place in the
qualifying order (seed 1 first).

- **Bracket**: round 1 pairs seeds 1 v N, 2 v N-1, … in the standard bracket order
  (:func:`bracket_order`), which keeps seeds 1 and 2 apart until the final, 1 to 4 apart
  until the semi-finals, and so on: for 8, ``1v8 4v5 2v7 3v6``.
- **Rounds**: the winners of matches 1 and 2 of a round meet in match 1 of the next, those
  of matches 3 and 4 in match 2, and so on. The final round also holds the third-place
  match of the semi-finals' losers when the director asked for one.
- **Tables and sides**: tables 1..k in bracket order, the third-place match last; the
  better seed of a match sits NS (no seat history weighs more in a one-off match).
- **Ranking** (:func:`knockout_ranking`): the final's winner 1, its loser 2; the
  third-place match's winner 3 and loser 4, or, without that match, both semi-finals'
  losers 3=; the quarter-finals' losers 5=, those of the round of 16 9=, each group in
  qualifying order; then every other team in qualifying order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .matching import DrawError

__all__ = [
    "BRACKET_SIZES",
    "KnockoutMatch",
    "KnockoutPlace",
    "KnockoutRound",
    "bracket_order",
    "first_knockout_round",
    "knockout_ranking",
    "next_knockout_round",
]

BRACKET_SIZES = (2, 4, 8, 16)


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """One match of the bracket: the better seed ``ns`` against ``ew`` at ``table``."""

    table: int
    ns: int
    ew: int
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class KnockoutRound:
    """One round of a bracket and what :func:`next_knockout_round` needs to go on.

    ``seeds`` are the bracket's teams, seed 1 first; ``eliminated`` the losers of each
    earlier round, in round order.
    """

    round: int
    seeds: tuple[int, ...]
    third_place: bool
    matches: tuple[KnockoutMatch, ...]
    eliminated: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.seeds)

    @property
    def rounds(self) -> int:
        """How many rounds the whole bracket has: 1 for 2 teams, 4 for 16."""
        return self.size.bit_length() - 1

    @property
    def is_final(self) -> bool:
        return self.round == self.rounds


@dataclass(frozen=True, slots=True)
class KnockoutPlace:
    """A team's place in the final ranking; teams sharing a place (``3=``) have equal ones."""

    place: int
    team: int


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds of a bracket of ``size`` from top to bottom, two by two a match.

    Each seed ``s`` of the bracket half the size gets the opponent ``size + 1 - s`` next to
    it: 2 → 1 2; 4 → 1 4 2 3; 8 → 1 8 4 5 2 7 3 6.
    """
    _check_size(size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return tuple(order)


def first_knockout_round(
    qualifiers: Sequence[int], *, size: int, third_place: bool = False
) -> KnockoutRound:
    """Round 1 of the bracket of the first ``size`` of ``qualifiers`` (best first)."""
    _check_size(size)
    _check_teams(qualifiers, "qualifiers")
    if len(qualifiers) < size:
        raise DrawError(
            "size", f"a bracket of {size} needs {size} qualified teams, not {len(qualifiers)}"
        )
    if third_place and size < 4:
        raise DrawError("third_place", "a third-place match needs a bracket of 4 or more")
    seeds = tuple(qualifiers[:size])
    order = bracket_order(size)
    matches = tuple(
        KnockoutMatch(table, seeds[order[2 * table - 2] - 1], seeds[order[2 * table - 1] - 1])
        for table in range(1, size // 2 + 1)
    )
    return KnockoutRound(round=1, seeds=seeds, third_place=third_place, matches=matches)


def next_knockout_round(previous: KnockoutRound, winners: Collection[int]) -> KnockoutRound:
    """The round after ``previous``, whose matches were won by ``winners``."""
    if previous.is_final:
        raise DrawError("previous", "the final is the last round of the bracket")
    advancing, losing = _decide(previous, winners)
    seed = {team: number for number, team in enumerate(previous.seeds)}

    def better_first(a: int, b: int) -> tuple[int, int]:
        return (a, b) if seed[a] < seed[b] else (b, a)

    matches = [
        KnockoutMatch(table, *better_first(advancing[2 * table - 2], advancing[2 * table - 1]))
        for table in range(1, len(advancing) // 2 + 1)
    ]
    number = previous.round + 1
    if number == previous.rounds and previous.third_place:
        matches.append(KnockoutMatch(len(matches) + 1, *better_first(*losing), third_place=True))
    return KnockoutRound(
        round=number,
        seeds=previous.seeds,
        third_place=previous.third_place,
        matches=tuple(matches),
        eliminated=(*previous.eliminated, tuple(losing)),
    )


def knockout_ranking(
    qualifiers: Sequence[int], final: KnockoutRound, winners: Collection[int]
) -> tuple[KnockoutPlace, ...]:
    """Every qualifier's place once ``final`` (the last round) was won by ``winners``."""
    _check_teams(qualifiers, "qualifiers")
    if not final.is_final:
        raise DrawError("final", f"round {final.round} is not the final of the bracket")
    if tuple(qualifiers[: final.size]) != final.seeds:
        raise DrawError("qualifiers", "the bracket's seeds are not the first of the qualifiers")
    _decide(final, winners)
    order = {team: number for number, team in enumerate(qualifiers)}
    places: list[KnockoutPlace] = []

    def shared(teams: Collection[int]) -> None:
        place = len(places) + 1
        places.extend(KnockoutPlace(place, team) for team in sorted(teams, key=order.__getitem__))

    for match in sorted(final.matches, key=lambda m: m.third_place):
        winner = match.ns if match.ns in winners else match.ew
        shared([winner])
        shared([match.ew if winner == match.ns else match.ns])
    # Without a third-place match the semi-finals' losers are the last of ``eliminated``.
    for losers in reversed(final.eliminated[: None if not final.third_place else -1]):
        shared(losers)
    for team in qualifiers[final.size :]:
        shared([team])
    return tuple(places)


def _decide(played: KnockoutRound, winners: Collection[int]) -> tuple[list[int], list[int]]:
    """The winners of the bracket matches of ``played`` in bracket order, and the losers."""
    advancing, losing = [], []
    teams = {team for match in played.matches for team in (match.ns, match.ew)}
    for team in winners:
        if team not in teams:
            raise DrawError("winners", f"team {team!r} plays no match of round {played.round}")
    for match in played.matches:
        ns_won, ew_won = match.ns in winners, match.ew in winners
        if ns_won == ew_won:
            raise DrawError(
                "winners",
                f"exactly one of teams {match.ns} and {match.ew} must win table {match.table}",
            )
        if not match.third_place:
            advancing.append(match.ns if ns_won else match.ew)
            losing.append(match.ew if ns_won else match.ns)
    return advancing, losing


def _check_size(size: int) -> None:
    if size not in BRACKET_SIZES:
        raise DrawError(
            "size", f"must be one of {', '.join(map(str, BRACKET_SIZES))}, not {size!r}"
        )


def _check_teams(teams: Sequence[int], field: str) -> None:
    if len(set(teams)) != len(teams):
        raise DrawError(field, "a team is listed twice")
