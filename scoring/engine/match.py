"""Replaying a match (docs/rules.md §7): dealers, running totals, the litige pot, the end and the winner."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from .cards import CLOCKWISE, EW, NS, Seat, Team
from .deal import DealResult, Outcome
from .messages import problem
from .problems import InvalidMatch, Problem
from .rules import BothReachTarget, Direction, Draws, LitigeRule, Rules
from .score import Entry, RulesLike, _rules, result_or_problems

# A match's result: the winning team, DRAW (equal totals where house rules allow a draw), or
# None while it goes on. The one spelling of a draw: the database, the standings and the pages
# read this one.
DRAW: Final = "draw"
Winner = Team | Literal["draw"] | None
_SEATS = {s.value: s for s in Seat}
# Enum members read once (see cards.NS): the replay loop runs for every deal of every match.
_THROWN_IN, _LITIGE = Outcome.THROWN_IN, Outcome.LITIGE
_CARRY = LitigeRule.CARRY
_TAKER = BothReachTarget.TAKER
_ALLOWED, _PLAY_ON = Draws.ALLOWED, Draws.PLAY_ON


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """One deal of a match: its 1-based number, its dealer, its result, and the state after it."""

    number: int
    dealer: Seat
    result: DealResult
    totals: Mapping[Team, int]
    pot: int


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A match replayed from its deals; `winner` is a team, "draw", or None while it goes on."""

    deals: tuple[PlayedDeal, ...]
    totals: Mapping[Team, int]
    pot: int
    over: bool
    winner: Winner
    next_dealer: Seat | None
    deals_played: int

    @property
    def accepts_more_deals(self) -> bool:
        return not self.over


def dealer_of(first_dealer: Seat, index: int, direction: Direction) -> Seat:
    """The dealer moves one seat in play direction after every deal, thrown-in deals included."""
    return dealers(first_dealer, direction)[index % 4]


def dealers(first_dealer: Seat, direction: Direction) -> tuple[Seat, ...]:
    """The four dealers in turn from `first_dealer`."""
    step = 1 if direction is Direction.CLOCKWISE else -1
    start = CLOCKWISE.index(first_dealer)
    return tuple(CLOCKWISE[(start + step * index) % 4] for index in range(4))


def _higher(totals: Mapping[Team, int]) -> Team:
    return NS if totals[NS] > totals[EW] else EW


def match_end(
    totals: Mapping[Team, int],
    deals_played: int,
    taker: Team | None,
    rules: Rules,
    *,
    pot: int = 0,
    playing_on: bool = False,
) -> tuple[bool, Winner]:
    """Whether the match ends after a deal not thrown in, and who wins it.

    `playing_on`: the match already ended level under `draws: play_on`, so this is an extra deal.
    """
    if playing_on:
        return extra_deal_end(totals, pot)
    target = rules.target
    if target is not None:
        ns_reached, ew_reached = totals[NS] >= target, totals[EW] >= target
        if ns_reached != ew_reached:
            return True, NS if ns_reached else EW
        if ns_reached:
            if rules.both_reach_target is _TAKER and taker is not None:
                return True, taker
            if totals[NS] != totals[EW]:
                return True, _higher(totals)
            # Equal totals past the target: play another deal, unless max_deals ends it.
    if rules.max_deals is not None and deals_played >= rules.max_deals:
        if totals[NS] != totals[EW]:
            return True, _higher(totals)
        if rules.draws is _ALLOWED:
            return True, DRAW
    return False, None


def ends_level(totals: Mapping[Team, int], deals_played: int, rules: Rules) -> bool:
    """The match would end here with equal totals: at `max_deals`, or both teams past the target."""
    if totals[NS] != totals[EW]:
        return False
    if rules.max_deals is not None and deals_played >= rules.max_deals:
        return True
    return rules.target is not None and totals[NS] >= rules.target


def extra_deal_end(totals: Mapping[Team, int], pot: int) -> tuple[bool, Winner]:
    """An extra deal decides when it leaves one team ahead; the target no longer counts.

    A litige carried keeps the match level: the defenders' lead is the pot, which waits for
    the winner of the next deal.
    """
    if pot or totals[NS] == totals[EW]:
        return False, None
    return True, _higher(totals)


def _in_match(found: Problem, index: int) -> Problem:
    """A deal's problem seen from the match: the deal object itself (`deal`) is `deals.<index>`."""
    if found.path == "deal":
        return Problem(found.code, f"deals.{index}", found.message, found.params)
    return found.prefixed(f"deals.{index}")


def play_match(
    rules: RulesLike, first_dealer: Seat | str, deals: Iterable[Entry | object]
) -> MatchReplay:
    """Replay `deals` from `first_dealer`; `InvalidMatch` carrying every problem."""
    parsed, rule_problems = _rules(rules)
    found: list[Problem] = list(rule_problems)
    dealer: Seat | None = first_dealer if isinstance(first_dealer, Seat) else None
    if dealer is None and isinstance(first_dealer, str):
        dealer = _SEATS.get(first_dealer)
    if dealer is None:
        found.append(problem("unknown_seat", "first_dealer", value=first_dealer))
        dealer = Seat.N
    if isinstance(deals, str | bytes | Mapping) or not isinstance(deals, Iterable):
        found.append(problem("not_a_list", "deals", value=deals))
        raise InvalidMatch(found)
    played: list[PlayedDeal] = []
    in_turn = dealers(dealer, parsed.direction)
    carry = parsed.litige is _CARRY
    totals = {NS: 0, EW: 0}
    pot = 0
    over, winner, deals_played = False, None, 0
    playing_on = False  # the match ended level under `draws: play_on`: extra deals decide
    known = True  # false once an invalid deal hides the totals that follow
    for index, entry in enumerate(deals):
        result, deal_problems = result_or_problems(entry, parsed)
        if deal_problems:
            found.extend(_in_match(p, index) for p in deal_problems)
        if over and known:
            found.append(problem("deal_after_end", f"deals.{index}", number=index + 1, index=index))
            known = False
            continue
        if result is None or not known:
            known = False
            continue
        if result.outcome is not _THROWN_IN:
            deals_played += 1
            if result.outcome is _LITIGE and carry:
                pot += result.pot_in
            elif pot and result.winner is not None:
                result = result.with_pot_awarded(result.winner, pot)
                pot = 0
            score = result.score
            totals = {NS: totals[NS] + score[NS], EW: totals[EW] + score[EW]}
            over, winner = match_end(
                totals, deals_played, result.taker, parsed, pot=pot, playing_on=playing_on
            )
            if not over and parsed.draws is _PLAY_ON:
                playing_on = playing_on or ends_level(totals, deals_played, parsed)
        # Each deal keeps its own totals: a new mapping after every deal not thrown in.
        played.append(PlayedDeal(index + 1, in_turn[index % 4], result, totals, pot))
    if found:
        raise InvalidMatch(found)
    return MatchReplay(
        tuple(played),
        dict(totals),
        pot,
        over,
        winner,
        None if over else in_turn[len(played) % 4],
        deals_played,
    )
