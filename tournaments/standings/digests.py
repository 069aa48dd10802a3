"""Round digests: what each round's standings are computed from. The store ranks the latest
round again only when they moved (the live table, always), and a past round's lines, computed
when asked, are kept under its digest: equal digests, equal lines.

A deal that finishes a match of the current round changes that round's digest alone; a deal
of a match still in play changes none.
"""

from __future__ import annotations

import hashlib
import marshal
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Tabulated(Protocol):
    """What a digest reads of a tabulation (`table.Tabulation`)."""

    @property
    def teams(self) -> Sequence[Any]: ...
    @property
    def withdrawn_after(self) -> Any: ...
    @property
    def tie_breaks(self) -> Sequence[str] | None: ...
    @property
    def points(self) -> Any: ...
    @property
    def bye_points(self) -> Any: ...
    @property
    def sides(self) -> Mapping[int, Sequence[int]] | None: ...
    @property
    def matches(self) -> Sequence[Any]: ...
    @property
    def last_round(self) -> int: ...


def round_digests(tabulation: Tabulated) -> list[str]:
    """One digest per round (1..the last with a finished match) of everything its lines are
    computed from: the teams, their withdrawals, the tie-breaks, the match points, what a bye
    scores (None where it counts nothing: `bye_points`, which the format, the tournament's
    bye points and its rules decide), and every match of that round and the rounds before
    it (in an individual tournament with the players each side stands for, a sit-out being
    a side of one). Equal digests, equal lines. The live table has none: it is always
    computed.

    A match not finished adds nothing to these lines, whatever its totals: only its teams
    and round count (a withdrawn team's last match, a round's byes), so a deal of a match
    still in play leaves every digest as it was.
    """
    chain = hashlib.blake2b(
        repr(
            (
                [(t.id, t.seed, t.withdrawn) for t in tabulation.teams],
                tabulation.withdrawn_after,
                list(tabulation.tie_breaks or ()),
                tabulation.points,
                tabulation.bye_points,
            )
        ).encode(),
        digest_size=16,
    )
    by_round: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    # An individual tournament's sides stand for players: who they are counts too.
    sides = tabulation.sides
    for m in tabulation.matches:
        # Plain tuples, ordered by id whatever the read order.
        if m.finished:
            row: tuple[Any, ...] = (*m[:8], *m.ns_stats, *m.ew_stats)
        else:
            row = (m.id, m.round_number, m.ns_team, m.ew_team)
        if sides is not None:
            across = () if m.ew_team is None else tuple(sides.get(m.ew_team, ()))
            row += (tuple(sides.get(m.ns_team, ())), across)
        by_round[m.round_number].append(row)
    digests = []
    for round_number in range(1, tabulation.last_round + 1):
        # marshal's format 2 has no back-references: equal values give equal bytes.
        chain.update(marshal.dumps(sorted(by_round.get(round_number, ())), 2))
        digests.append(chain.copy().hexdigest())
    return digests
