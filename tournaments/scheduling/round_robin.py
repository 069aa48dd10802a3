"""Round-robin pairings by the FIDE Berger tables: pure data, no Django, no database.

Teams are known here only by their pairing number 1..n; the service maps numbers to teams.

Construction (FIDE Handbook C.05, Annex 1; docs/formats.md), for an even ``n`` (an odd
``n`` gets a dummy team ``n + 1`` whose opponent has the bye), ``h = n/2``, ``m = n - 1``:
round 1, board ``k`` is ``k`` (NS) against ``n + 1 - k``; from one round to the next every
team ``p != n`` becomes ``((p - 1 + h) mod m) + 1``, each board keeping its sides, except
board 1, where team ``n`` sits NS in even rounds and EW in odd rounds.

Seat balance (checked by the tests for every n from 2 to 40):
- even n, single cycle: every team has n/2 and n/2 - 1 NS/EW seats (in some order),
  so the two counts differ by exactly one;
- odd n, single cycle: every team plays n - 1 (even) matches with exactly (n - 1)/2 on
  each side; the bye, which would have been a seat against the dummy, is no seat at all;
- double round robin: every team has exactly as many NS as EW seats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Pairing", "Schedule", "berger_rounds", "round_robin"]


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: ``ns`` against ``ew`` at ``table``; a bye when ``ew`` is None.

    A bye has no table (``table`` None); the other matches of a round are at tables 1..k,
    in the Berger board order here and in the order of :mod:`.teams` in a drawn round.
    """

    round: int
    table: int | None
    ns: int
    ew: int | None

    @property
    def is_bye(self) -> bool:
        return self.ew is None

    def __str__(self) -> str:
        if self.ew is None:
            return f"{self.ns}-bye"
        return f"{self.ns}-{self.ew}"


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The published Berger table for an even ``n``: rounds of boards ``(NS, EW)``."""
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table needs an even number of at least 2 teams, not {n!r}")
    h, m = n // 2, n - 1
    boards = [(k, n + 1 - k) for k in range(1, h + 1)]
    # Round 1 is odd: team n sits EW at board 1, as the construction above says.
    rounds = [boards]
    for number in range(2, n):
        moved = [(_rotate(ns, h, m, n), _rotate(ew, h, m, n)) for ns, ew in rounds[-1]]
        other = moved[0][0] if moved[0][1] == n else moved[0][1]
        moved[0] = (n, other) if number % 2 == 0 else (other, n)
        rounds.append(moved)
    return rounds


def _rotate(p: int, h: int, m: int, n: int) -> int:
    return p if p == n else ((p - 1 + h) % m) + 1


@dataclass(frozen=True, slots=True)
class Schedule:
    """A whole round-robin schedule over pairing numbers 1..teams."""

    teams: int
    double: bool
    rounds: tuple[tuple[Pairing, ...], ...]

    def __iter__(self) -> Iterator[tuple[Pairing, ...]]:
        return iter(self.rounds)

    def __len__(self) -> int:
        return len(self.rounds)

    def pairings(self) -> Iterator[Pairing]:
        for matches in self.rounds:
            yield from matches

    def seat_counts(self) -> dict[int, tuple[int, int]]:
        """Each team's (NS, EW) seat count over the whole schedule; a bye is no seat."""
        ns: Counter[int] = Counter()
        ew: Counter[int] = Counter()
        for pairing in self.pairings():
            if pairing.ew is not None:
                ns[pairing.ns] += 1
                ew[pairing.ew] += 1
        return {team: (ns[team], ew[team]) for team in range(1, self.teams + 1)}

    def meetings(self) -> Counter[frozenset[int]]:
        """How many times each pair of teams meets."""
        return Counter(frozenset((p.ns, p.ew)) for p in self.pairings() if p.ew is not None)


def round_robin(teams: int, *, double: bool = False) -> Schedule:
    """The Berger schedule for ``teams`` teams, single or double.

    A double round robin repeats the cycle with sides swapped, after swapping the last two
    rounds of the first cycle (FIDE's advice: no team sits the same side three rounds
    running). That holds for every size but 4, where teams 2 and 4 still sit the same side
    in rounds 3, 4 and 5 (the swap cannot help with three rounds a cycle).
    """
    if not isinstance(teams, int) or isinstance(teams, bool) or teams < 2:
        raise ValueError(f"a round robin needs at least 2 teams, not {teams!r}")
    size = teams + teams % 2
    cycle = berger_rounds(size)
    if double:
        if len(cycle) >= 2:
            cycle[-2], cycle[-1] = cycle[-1], cycle[-2]
        cycle = cycle + [[(ew, ns) for ns, ew in boards] for boards in cycle]
    rounds = []
    for number, boards in enumerate(cycle, start=1):
        matches: list[Pairing] = []
        bye: Pairing | None = None
        table = 0
        for ns, ew in boards:
            if ns > teams or ew > teams:
                # The dummy team: its opponent has the bye.
                bye = Pairing(number, None, ew if ns > teams else ns, None)
                continue
            table += 1
            matches.append(Pairing(number, table, ns, ew))
        if bye is not None:
            matches.append(bye)
        rounds.append(tuple(matches))
    return Schedule(teams=teams, double=double, rounds=tuple(rounds))
