"""The standings arithmetic: plain match results in, ordered lines per round out (no database).

Rules (tournament.md), and the choices this module makes where the spec leaves room:

- Only *finished* matches count. A match being played counts nothing yet (no match
  points, no points, no deals) until its last deal finishes it; then it counts whole.
- A bye gives nothing and counts as no match (not played, no points).
- Match points: `points_win` / `points_draw` / `points_loss` of the tournament. A finished
  match without a stored winner (closed early by a director) is decided by its totals.
- Points for / against: the team's and its opponents' match totals (pot awarded included,
  an open pot at the end goes to nobody, as the engine says).
- Deals: deals played, thrown-in deals not counted (as the engine counts them). Contracts
  taken = made + dedans + litiges, all three counted for the taking team only; capots and
  belotes for the team that made them.
- Sonneborn–Berger: the sum, over the team's finished matches, of the match points it
  earned times its opponent's match points after the same round. With 2/1/0 that is twice
  the chess figure (wins count the opponent's score, draws half), so it orders the same
  and stays an integer.
- Order: the tournament's tie-break list, applied in turn to the teams still equal.
  `head_to_head` counts the match points each team earned in matches *between the tied
  teams only*; when it separates some of them but leaves a smaller group still equal, it
  is applied again to that smaller group alone, and only when it separates nobody does
  the next criterion apply (the UEFA reading). Teams equal on every criterion share a rank
  (`3=`) and are listed by seed.
- Withdrawn teams keep the results they played. From the first round after their last
  match (all of them, if they never played) their row is marked withdrawn and they are
  listed after every other team, ranked among themselves by the same criteria, their rank
  numbers following on.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_TIE_BREAKS = ("match_points", "head_to_head", "point_difference", "points_for")
# Every criterion orders "more is better"; tournaments.models.TIE_BREAKS offers the same.
KNOWN_TIE_BREAKS = frozenset((*DEFAULT_TIE_BREAKS, "wins", "sonneborn_berger"))


@dataclass(frozen=True, slots=True)
class TeamInfo:
    id: int
    seed: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match as stored: `ew_team` None for a bye; `winner` "NS", "EW", "draw" or ""."""

    id: int
    round_number: int
    ns_team: int
    ew_team: int | None
    finished: bool
    ns_total: int = 0
    ew_total: int = 0
    winner: str = ""


@dataclass(frozen=True, slots=True)
class SideStats:
    """One team's deal counts in one match (the aggregate the service reads from Deal columns)."""

    deals: int = 0
    contracts_taken: int = 0
    contracts_made: int = 0
    contracts_dedans: int = 0
    capots: int = 0
    belotes: int = 0
    litiges: int = 0


@dataclass(slots=True)
class Line:
    """A team's line after one round."""

    team_id: int
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    sonneborn_berger: int = 0
    deals: int = 0
    contracts_taken: int = 0
    contracts_made: int = 0
    contracts_dedans: int = 0
    capots: int = 0
    belotes: int = 0
    litiges: int = 0
    withdrawn: bool = False
    rank: int = 0
    shared_rank: bool = False

    def copy(self) -> Line:
        # dataclasses.replace validates its fields on every call: too slow for 4,000 lines.
        return Line(
            self.team_id,
            self.seed,
            self.played,
            self.won,
            self.drawn,
            self.lost,
            self.match_points,
            self.points_for,
            self.points_against,
            self.sonneborn_berger,
            self.deals,
            self.contracts_taken,
            self.contracts_made,
            self.contracts_dedans,
            self.capots,
            self.belotes,
            self.litiges,
            self.withdrawn,
        )

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def wins(self) -> int:
        return self.won


@dataclass(frozen=True, slots=True)
class _Played:
    """One finished match seen from one team."""

    round_number: int
    opponent: int
    earned: int  # match points
    outcome: str  # "won", "drawn", "lost"
    points_for: int
    points_against: int
    stats: SideStats = field(default_factory=SideStats)


def _outcome(match: MatchResult) -> str:
    if match.winner in ("NS", "EW", "draw"):
        return match.winner
    if match.ns_total == match.ew_total:
        return "draw"
    return "NS" if match.ns_total > match.ew_total else "EW"


def compute_standings(
    teams: Iterable[TeamInfo],
    matches: Iterable[MatchResult],
    stats: Mapping[tuple[int, str], SideStats] | None = None,
    *,
    tie_breaks: Sequence[str] | None = None,
    points: tuple[int, int, int] = (2, 1, 0),
) -> dict[int, list[Line]]:
    """Lines per round number (1..last round with a finished match), each list in rank order.

    `stats` maps (match id, "NS" | "EW") to that side's deal counts.
    """
    stats = stats or {}
    win, draw, loss = points
    team_list = sorted(teams, key=lambda t: t.seed)
    last_match_round: dict[int, int] = {}
    history: dict[int, list[_Played]] = defaultdict(list)
    for match in matches:
        if match.ew_team is None:
            continue  # a bye: no match
        for team in (match.ns_team, match.ew_team):
            last_match_round[team] = max(last_match_round.get(team, 0), match.round_number)
        if not match.finished:
            continue
        result = _outcome(match)
        for side, team, opponent, mine, theirs in (
            ("NS", match.ns_team, match.ew_team, match.ns_total, match.ew_total),
            ("EW", match.ew_team, match.ns_team, match.ew_total, match.ns_total),
        ):
            if result == "draw":
                earned, outcome = draw, "drawn"
            elif result == side:
                earned, outcome = win, "won"
            else:
                earned, outcome = loss, "lost"
            history[team].append(
                _Played(
                    match.round_number,
                    opponent,
                    earned,
                    outcome,
                    mine,
                    theirs,
                    stats.get((match.id, side), SideStats()),
                )
            )
    last_round = max((p.round_number for h in history.values() for p in h), default=0)
    # An unknown name (the model's clean() refuses them, a raw write might not) is skipped.
    criteria = [name for name in tie_breaks or DEFAULT_TIE_BREAKS if name in KNOWN_TIE_BREAKS]
    by_round: dict[int, list[tuple[int, _Played]]] = defaultdict(list)
    lines = {t.id: Line(t.id, t.seed) for t in team_list}
    for team_id, played in history.items():
        if team_id in lines:
            for p in played:
                by_round[p.round_number].append((team_id, p))
    result_by_round: dict[int, list[Line]] = {}
    # Per team, the match points it earned against each opponent so far: head-to-head and
    # Sonneborn–Berger read them.
    earned_against: dict[int, dict[int, int]] = {t.id: {} for t in team_list}
    scored_against: dict[int, dict[int, int]] = {}  # the same, wins and draws only
    for round_number in range(1, last_round + 1):
        for team_id, p in by_round[round_number]:
            line = lines[team_id]
            line.played += 1
            if p.outcome == "won":
                line.won += 1
            elif p.outcome == "drawn":
                line.drawn += 1
            else:
                line.lost += 1
            line.match_points += p.earned
            line.points_for += p.points_for
            line.points_against += p.points_against
            st = p.stats
            line.deals += st.deals
            line.contracts_taken += st.contracts_taken
            line.contracts_made += st.contracts_made
            line.contracts_dedans += st.contracts_dedans
            line.capots += st.capots
            line.belotes += st.belotes
            line.litiges += st.litiges
            against = earned_against.setdefault(team_id, {})
            against[p.opponent] = against.get(p.opponent, 0) + p.earned
            if p.earned:
                scored = scored_against.setdefault(team_id, {})
                scored[p.opponent] = scored.get(p.opponent, 0) + p.earned
        points_now = {tid: line.match_points for tid, line in lines.items()}
        for team_id, scored in scored_against.items():
            lines[team_id].sonneborn_berger = sum(
                earned * points_now.get(opponent, 0) for opponent, earned in scored.items()
            )
        snapshot = {tid: line.copy() for tid, line in lines.items()}
        for info in team_list:
            if info.withdrawn and round_number > last_match_round.get(info.id, 0):
                snapshot[info.id].withdrawn = True
        result_by_round[round_number] = rank_lines(
            list(snapshot.values()), criteria, earned_against
        )
    return result_by_round


def rank_lines(
    lines: list[Line],
    criteria: Sequence[str],
    earned_against: Mapping[int, Mapping[int, int]],
) -> list[Line]:
    """Order `lines` (active teams first, withdrawn last) and set rank and shared_rank."""
    ordered: list[Line] = []
    for withdrawn in (False, True):
        group = [line for line in lines if line.withdrawn is withdrawn]
        for tied in _order(group, criteria, 0, earned_against):
            rank = len(ordered) + 1
            for line in sorted(tied, key=lambda line: line.seed):
                line.rank = rank
                line.shared_rank = len(tied) > 1
                ordered.append(line)
    return ordered


def _head_to_head(
    group: list[Line], earned_against: Mapping[int, Mapping[int, int]]
) -> dict[int, int]:
    members = [line.team_id for line in group]
    scores = {}
    for team_id in members:
        against = earned_against.get(team_id, {})
        scores[team_id] = sum(against.get(other, 0) for other in members)
    return scores


def _order(
    group: list[Line],
    criteria: Sequence[str],
    index: int,
    earned_against: Mapping[int, Mapping[int, int]],
) -> list[list[Line]]:
    """Groups of teams equal on every criterion, best first."""
    if len(group) <= 1 or index >= len(criteria):
        return [group] if group else []
    name = criteria[index]
    if name == "head_to_head":
        h2h = _head_to_head(group, earned_against)

        def key(line: Line) -> int:
            return h2h[line.team_id]

    else:

        def key(line: Line) -> int:
            return int(getattr(line, name))

    ordered: list[list[Line]] = []
    for _, tied_iter in itertools.groupby(sorted(group, key=key, reverse=True), key=key):
        tied = list(tied_iter)
        if name == "head_to_head" and 1 < len(tied) < len(group):
            # Head-to-head split the group: apply it again among the teams still equal.
            ordered.extend(_order(tied, criteria, index, earned_against))
        else:
            ordered.extend(_order(tied, criteria, index + 1, earned_against))
    return ordered
