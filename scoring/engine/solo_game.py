"""A game of two or three players replayed (docs/rules.md §9): dealers, totals, the end, the winner."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import Seat
from .deal import Outcome
from .messages import problem
from .problems import InvalidDeal, InvalidMatch, Problem
from .rules import Rules, rules_problems
from .solo import SoloResult, dealing_order, seats_in_game, solo_result_or_problems

_SEATS = {s.value: s for s in Seat}


@dataclass(frozen=True, slots=True)
class SoloPlayedDeal:
    number: int
    dealer: Seat
    result: SoloResult
    totals: Mapping[Seat, int]


@dataclass(frozen=True, slots=True)
class SoloReplay:
    """A game replayed from its deals; `winner` is a seat, or None while it goes on."""

    deals: tuple[SoloPlayedDeal, ...]
    totals: Mapping[Seat, int]
    over: bool
    winner: Seat | None
    next_dealer: Seat | None
    deals_played: int


def _parsed(rules: Rules | Mapping[str, object] | None) -> tuple[Rules, list[Problem]]:
    if isinstance(rules, Rules):
        return rules, []
    return rules_problems(rules)


def score_solo_deal(entry: object, rules: Rules | Mapping[str, object] | None) -> SoloResult:
    """The result of one deal of a game of two or three; `InvalidDeal` with every problem."""
    parsed, found = _parsed(rules)
    result, deal_found = solo_result_or_problems(entry, parsed)
    if found or result is None:
        raise InvalidDeal([*found, *deal_found])
    return result


def game_end(
    totals: Mapping[Seat, int], deals_played: int, rules: Rules
) -> tuple[bool, Seat | None]:
    """After a deal not thrown in: a total reached the target, or `max_deals` were played; the one
    highest total wins, and equal highest totals play on."""
    reached = rules.target is not None and max(totals.values()) >= rules.target
    counted_out = rules.max_deals is not None and deals_played >= rules.max_deals
    if not (reached or counted_out):
        return False, None
    ranked = sorted(totals.values(), reverse=True)
    if ranked[0] == ranked[1]:
        return False, None
    return True, max(totals, key=lambda seat: totals[seat])


def play_solo_game(
    rules: Rules | Mapping[str, object] | None,
    first_dealer: Seat | str,
    deals: Iterable[object],
) -> SoloReplay:
    """Replay a game of two or three from `first_dealer`; `InvalidMatch` with every problem."""
    parsed, found = _parsed(rules)
    seats = seats_in_game(parsed)
    dealer = first_dealer if isinstance(first_dealer, Seat) else None
    if dealer is None and isinstance(first_dealer, str):
        dealer = _SEATS.get(first_dealer)
    if dealer is None:
        found.append(problem("unknown_seat", "first_dealer", value=first_dealer))
        dealer = seats[0]
    elif dealer not in seats:
        names = ", ".join(s.value for s in seats)
        found.append(
            problem(
                "seat_not_in_game",
                "first_dealer",
                value=dealer.value,
                players=parsed.players,
                seats=names,
            )
        )
        dealer = seats[0]
    if isinstance(deals, str | bytes | Mapping) or not isinstance(deals, Iterable):
        found.append(problem("not_a_list", "deals", value=deals))
        raise InvalidMatch(found)
    order = dealing_order(parsed)
    start = order.index(dealer)
    in_turn = tuple(order[(start + i) % len(order)] for i in range(len(order)))
    totals = dict.fromkeys(seats, 0)
    played: list[SoloPlayedDeal] = []
    over, winner, deals_played, known = False, None, 0, True
    for index, entry in enumerate(deals):
        result, deal_problems = solo_result_or_problems(entry, parsed)
        found.extend(_in_game(p, index) for p in deal_problems)
        if over and known:
            found.append(problem("deal_after_end", f"deals.{index}", number=index + 1, index=index))
            known = False
            continue
        if result is None or not known:
            known = False
            continue
        if result.outcome is not Outcome.THROWN_IN:
            deals_played += 1
            totals = {s: totals[s] + result.score[s] for s in seats}
            over, winner = game_end(totals, deals_played, parsed)
        played.append(SoloPlayedDeal(index + 1, in_turn[index % len(in_turn)], result, totals))
    if found:
        raise InvalidMatch(found)
    next_dealer = None if over else in_turn[len(played) % len(in_turn)]
    return SoloReplay(tuple(played), dict(totals), over, winner, next_dealer, deals_played)


def _in_game(found: Problem, index: int) -> Problem:
    if found.path == "deal":
        return Problem(found.code, f"deals.{index}", found.message, found.params)
    return found.prefixed(f"deals.{index}")
