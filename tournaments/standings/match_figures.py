"""What each finished match (and each bye) adds to the lines it counts for, round by round."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from scoring.engine import DRAW, Team

from .lines import NO_STATS, MatchResult

# A match's winner as the engine's replay writes it: a team's code, or the engine's DRAW.
NS, EW = Team.NS.value, Team.EW.value


def winner_of(winner: str, ns_total: int, ew_total: int) -> str:
    """NS, EW or DRAW: the stored winner of a finished match, else the higher total.

    Only a row made by hand lacks its winner; the deal services always store the engine's.
    """
    if winner in (NS, EW, DRAW):
        return winner
    if ns_total == ew_total:
        return DRAW
    return NS if ns_total > ew_total else EW


# Who gets the figures, whom they met across the table, the figures.
Addition = tuple[int, tuple[int, ...], tuple[int, ...]]
# A side's key (a team's id, or in a mêlée a partnership's) → the line numbers it stands for.
Members = dict[int, tuple[int, ...]]


def members_of(lines: dict[int, int], sides: Mapping[int, Sequence[int]] | None) -> Members:
    """Each side's line numbers: a team is its own line; a partnership, its players' lines."""
    if sides is None:
        return {key: (i,) for key, i in lines.items()}
    return {
        key: tuple(lines[member] for member in members if member in lines)
        for key, members in sides.items()
    }


def additions_of(
    matches: Iterable[MatchResult], index: Members, points: tuple[int, int, int]
) -> tuple[dict[int, list[Addition]], dict[int, int], list[tuple[int, Addition]]]:
    """What each finished match adds to each side, per round; each line's last match round;
    what each match in play would add if it ended now (the live table's), with its round."""
    win, draw, loss = points
    outcomes = {
        DRAW: ((0, 1, 0, draw), (0, 1, 0, draw)),
        NS: ((1, 0, 0, win), (0, 0, 1, loss)),
        EW: ((0, 0, 1, loss), (1, 0, 0, win)),
    }
    additions: dict[int, list[Addition]] = defaultdict(list)
    provisional: list[tuple[int, Addition]] = []
    last_match_round: dict[int, int] = {}
    nobody: tuple[int, ...] = ()
    for match in matches:
        if match.ew_team is None:
            continue  # a bye: no match
        number = match.round_number
        ns, ew = index.get(match.ns_team, nobody), index.get(match.ew_team, nobody)
        for line in ns + ew:
            last_match_round[line] = max(last_match_round.get(line, 0), number)
        if match.finished:
            winner = winner_of(match.winner, match.ns_total, match.ew_total)
        elif match.playing:
            winner = winner_of("", match.ns_total, match.ew_total)  # the team ahead, now
        else:
            continue
        ns_won, ew_won = outcomes[winner]
        ns_diff = match.ns_total - match.ew_total
        sides: list[Addition] = []
        if ns:
            figures = (1, *ns_won, match.ns_total, match.ew_total, ns_diff, *match.ns_stats)
            for i in ns:
                sides.append((i, ew, figures))
        if ew:
            figures = (1, *ew_won, match.ew_total, match.ns_total, -ns_diff, *match.ew_stats)
            for i in ew:
                sides.append((i, ns, figures))
        if match.finished:
            additions[number].extend(sides)
        else:
            provisional.extend((number, side) for side in sides)
    return additions, last_match_round, provisional


def add_byes(
    additions: dict[int, list[Addition]],
    provisional: list[tuple[int, Addition]],
    matches: Iterable[MatchResult],
    index: Members,
    win: int,
    bye_points: int,
) -> None:
    """A bye as a won match, in each round where some match counts (or is in play, live)."""
    counted, in_play = set(additions), {number for number, _side in provisional}
    figures = (1, 1, 0, 0, win, bye_points, 0, bye_points, *NO_STATS)
    for match in matches:
        if match.ew_team is not None:
            continue
        for i in index.get(match.ns_team, ()):
            if match.round_number in counted:
                additions[match.round_number].append((i, (), figures))
            elif match.round_number in in_play:
                provisional.append((match.round_number, (i, (), figures)))
