"""Two or three players, each for themselves (docs/rules.md §9): a deal read, checked and scored.

Every seat is its own side: where §4 and §5 say a team, a seat is meant. The made / dedans
decision needs the taker to beat each other player; there is no litige and no pot.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    BELOTE_CARDS,
    BELOTE_POINTS,
    CLOCKWISE,
    DEAL_VALUE,
    POSSIBLE_CARD_POINTS,
    RANKS,
    SEQUENCE_STRENGTH,
    Seat,
    Suit,
    cards_in,
)
from .checks import four_problems, overlap_problems, shape_problem
from .deal import Outcome
from .declarations import (
    FOUR_MASKS,
    Declaration,
    Four,
    Sequence,
    declaration_key,
    sequence_key,
)
from .messages import problem
from .problems import Problem
from .reading import (
    DEAL_KEYS,
    _code,
    _integer,
    _is_mapping,
    _read_declaration,
    _unknown_fields,
)
from .rules import AllPass, DeclarationComparison, Direction, Rounding, Rules
from .written import nearest_ten

SoloScores = Mapping[Seat, int]
_SEATS: dict[str, Seat] = {s.value: s for s in Seat}
_MISSING = object()
SOLO_POINTS_KEYS = frozenset({"cards"})


def seats_in_game(rules: Rules) -> tuple[Seat, ...]:
    """N, E, S with three players; N and S with two; all four seats otherwise."""
    if rules.players == 3:
        return (Seat.N, Seat.E, Seat.S)
    if rules.players == 2:
        return (Seat.N, Seat.S)
    return CLOCKWISE


def dealing_order(rules: Rules) -> tuple[Seat, ...]:
    """The seats in play direction from N: N → E → S, or N → S → E counterclockwise."""
    seats = seats_in_game(rules)
    if rules.direction is Direction.COUNTERCLOCKWISE:
        return (seats[0], *reversed(seats[1:]))
    return seats


def player_after(seat: Seat, rules: Rules) -> Seat:
    """The player who follows `seat` in dealing order."""
    order = dealing_order(rules)
    return order[(order.index(seat) + 1) % len(order)]


@dataclass(frozen=True, slots=True)
class SoloDeal:
    """One deal of a game of two or three as entered; `cards` may leave one seat out."""

    taker: Seat | None = None
    trump: Suit | None = None
    cards: Mapping[Seat, int] | None = None
    capot: Seat | None = None
    belote: Seat | None = None
    declarations: Mapping[Seat, tuple[Declaration, ...]] = field(default_factory=dict)

    @property
    def thrown_in(self) -> bool:
        return self.taker is None


@dataclass(frozen=True, slots=True)
class SoloResult:
    """What a deal writes for each seat; `declarations` are the points that counted."""

    outcome: Outcome
    capot: Seat | None
    cards: SoloScores
    declarations: SoloScores
    belote: SoloScores
    score: SoloScores
    taker: Seat | None = None


def zero(seats: Seq[Seat]) -> dict[Seat, int]:
    return dict.fromkeys(seats, 0)


# Reading ---------------------------------------------------------------------------------------


class _SeatReader:
    """Reads seat codes of one game, telling an unknown seat from one not at this table."""

    def __init__(self, rules: Rules, found: list[Problem]) -> None:
        self.seats = seats_in_game(rules)
        self.players = rules.players
        self.found = found

    def seat(self, raw: object, path: str) -> Seat | None:
        seat = _code(_SEATS, raw, "unknown_seat", path, self.found)
        if seat is None:
            return None
        if seat not in self.seats:
            self.found.append(
                problem(
                    "seat_not_in_game",
                    path,
                    value=str(raw),
                    players=self.players,
                    seats=", ".join(s.value for s in self.seats),
                )
            )
            return None
        return seat  # type: ignore[return-value]


def read_solo_entry(obj: object, rules: Rules) -> tuple[SoloDeal | None, list[Problem]]:
    """The §9 deal object read as far as it goes, with every problem of its shape and seats."""
    if not _is_mapping(obj):
        return None, [problem("not_an_object", "deal", value=obj)]
    found = _unknown_fields(obj, DEAL_KEYS, "")
    reader = _SeatReader(rules, found)

    def optional_seat(name: str) -> Seat | None:
        raw = obj.get(name)
        return None if raw is None else reader.seat(raw, name)

    if obj.get("taker", _MISSING) is _MISSING:
        found.append(problem("required", "taker"))
    taker = optional_seat("taker")
    trump = None
    if obj.get("trump") is not None:
        trump = _code({s.value: s for s in Suit}, obj["trump"], "unknown_suit", "trump", found)
    capot = optional_seat("capot")
    belote = optional_seat("belote")
    cards = _read_cards(obj.get("points"), reader)
    declarations = _read_seat_declarations(obj.get("declarations"), reader)
    deal = SoloDeal(taker, trump, cards, capot, belote, declarations)  # type: ignore[arg-type]
    return deal, found


def _read_cards(raw: object, reader: _SeatReader) -> dict[Seat, int] | None:
    found = reader.found
    if raw is None:
        return None
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "points", value=raw))
        return None
    found.extend(_unknown_fields(raw, SOLO_POINTS_KEYS, "points."))
    by_seat = raw.get("cards")
    if by_seat is None:
        found.append(problem("required", "points.cards"))
        return None
    if not _is_mapping(by_seat):
        found.append(problem("not_an_object", "points.cards", value=by_seat))
        return None
    cards: dict[Seat, int] = {}
    for key, value in by_seat.items():
        path = f"points.cards.{str(key)[:40]}"
        seat = reader.seat(key, path)
        number = _integer(value, path, found)
        if seat is not None and number is not None:
            if number not in POSSIBLE_CARD_POINTS:
                found.append(problem("impossible_card_points", path, value=number))
            cards[seat] = number
    return cards


def _read_seat_declarations(
    raw: object, reader: _SeatReader
) -> dict[Seat, tuple[Declaration, ...]]:
    found = reader.found
    declarations: dict[Seat, tuple[Declaration, ...]] = {}
    if raw is None:
        return declarations
    if not _is_mapping(raw):
        found.append(problem("not_an_object", "declarations", value=raw))
        return declarations
    for key, items in raw.items():
        path = f"declarations.{str(key)[:40]}"
        seat = reader.seat(key, path)
        if seat is None or items is None:
            continue
        if not isinstance(items, list | tuple):
            found.append(problem("not_a_list", path, value=items))
            continue
        read = [_read_declaration(item, f"{path}.{i}", found) for i, item in enumerate(items)]
        declarations[seat] = tuple(d for d in read if d is not None)
    return declarations


# Checks ----------------------------------------------------------------------------------------


def check_solo_deal(deal: SoloDeal, rules: Rules) -> list[Problem]:
    """Every rule of §3, §4 and §9 that a read deal breaks."""
    if deal.taker is None:
        return thrown_in_problems(deal, rules)
    found: list[Problem] = []
    if deal.trump is None:
        found.append(problem("trump_required", "trump"))
    found.extend(card_points_problems(deal, rules))
    if any(deal.declarations.values()):
        found.extend(solo_declaration_problems(deal, rules))
    return found


def thrown_in_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    found = []
    if rules.all_pass is AllPass.DEALER_MUST_TAKE:
        found.append(problem("thrown_in_not_allowed", "taker"))
    for name, value in (
        ("trump", deal.trump),
        ("points", deal.cards),
        ("capot", deal.capot),
        ("belote", deal.belote),
    ):
        if value is not None:
            found.append(problem("thrown_in_with_data", name, field=name))
    if any(deal.declarations.values()):
        found.append(problem("thrown_in_with_data", "declarations", field="declarations"))
    return found


def card_points_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    """Each player's card points but one, together 162 (or the capot's, which says them)."""
    cards = deal.cards
    seats = seats_in_game(rules)
    if cards is None:
        return [] if deal.capot is not None else [problem("points_required", "points")]
    if deal.capot is not None:
        return [
            problem(
                "points_disagree_with_capot_seat",
                f"points.cards.{seat.value}",
                capot=deal.capot.value,
                seat=seat.value,
                expected=DEAL_VALUE if seat is deal.capot else 0,
                value=cards[seat],
            )
            for seat in seats
            if seat in cards and cards[seat] != (DEAL_VALUE if seat is deal.capot else 0)
        ]
    missing = [seat for seat in seats if seat not in cards]
    total = sum(cards.values())
    if len(missing) > 1:
        names = ", ".join(s.value for s in missing)
        return [problem("card_points_missing", "points.cards", seats=names)]
    if not missing:
        if total != DEAL_VALUE:
            return [problem("card_points_total", "points.cards", value=total)]
        return []
    left_over = DEAL_VALUE - total
    if left_over < 0:
        return [problem("card_points_total", "points.cards", value=total)]
    if left_over not in POSSIBLE_CARD_POINTS:
        return [
            problem("left_over_impossible", "points.cards", value=left_over, seat=missing[0].value)
        ]
    return []


Placed = tuple[Seat, int, Declaration]


def _path(seat: Seat, position: int, leaf: str = "") -> str:
    return f"declarations.{seat.value}.{position}{leaf}"


def solo_declaration_problems(deal: SoloDeal, rules: Rules) -> list[Problem]:
    placed: list[Placed] = [
        (seat, pos, d) for seat, items in deal.declarations.items() for pos, d in enumerate(items)
    ]
    if not rules.declarations:
        return [
            problem("declarations_off", _path(seat, pos), value=str(d)) for seat, pos, d in placed
        ]
    found: list[Problem] = []
    sound = [p for p in placed if not shape_problem(p, found)]
    found.extend(four_problems(sound, two_holders="same_four_two_players"))
    found.extend(overlap_problems(sound, others_four="sequence_uses_another_four"))
    if deal.belote is not None and deal.trump is not None:
        found.extend(belote_cards_stay_with_their_holder(sound, deal.belote, deal.trump))
    if not found:
        highest = rules.declaration_comparison is DeclarationComparison.HIGHEST
        found.extend(tied_sequences_need_their_top(sound, highest))
    return found


def belote_cards_stay_with_their_holder(
    placed: list[Placed], belote: Seat, trump: Suit
) -> list[Problem]:
    king_queen = BELOTE_CARDS[trump]
    found = []
    for seat, pos, d in placed:
        if seat is belote:
            continue
        shared = (FOUR_MASKS[d.rank] if isinstance(d, Four) else d.cards) & king_queen
        if shared:
            cards = ", ".join(cards_in(shared))
            found.append(
                problem("uses_belote_card_seat", _path(seat, pos), cards=cards, seat=belote.value)
            )
    return found


def tied_sequences_need_their_top(placed: list[Placed], highest: bool) -> list[Problem]:
    """When the two best sequences have the same length, their top (then suit) decide."""
    best: dict[Seat, int] = {}
    for seat, _, d in placed:
        if isinstance(d, Sequence):
            best[seat] = max(best.get(seat, 0), d.length)
    if highest and any(isinstance(d, Four) for _, _, d in placed):
        return []
    lengths = sorted(best.values(), reverse=True)
    if len(lengths) < 2 or lengths[0] != lengths[1]:
        return []
    length = lengths[0]
    tied = [
        (s, p, d)
        for s, p, d in placed
        if isinstance(d, Sequence) and d.length == length and best[s] == length
    ]
    found = [
        problem("top_needed_players", _path(s, p, ".top"), length=length)
        for s, p, d in tied
        if d.top is None
    ]
    if found:
        return found
    tops: dict[Seat, int] = {}
    for s, _, d in tied:
        assert isinstance(d, Sequence) and d.top is not None
        tops[s] = max(tops.get(s, 0), SEQUENCE_STRENGTH[d.top])
    ranked = sorted(tops.values(), reverse=True)
    if len(ranked) < 2 or ranked[0] != ranked[1]:
        return []
    top = RANKS[ranked[0]]
    return [
        problem("suit_needed_players", _path(s, p, ".suit"), length=length, top=top.value)
        for s, p, d in tied
        if isinstance(d, Sequence) and d.top is top and d.suit is None
    ]


# Scoring ---------------------------------------------------------------------------------------


def sole_best(keys: Mapping[Seat, Any]) -> Seat | None:
    """The one seat whose key is strictly the highest; None when two share it or none has one."""
    if not keys:
        return None
    ranked = sorted(keys.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def declarations_scored_by_each_player(
    declared: Mapping[Seat, Seq[Declaration]], seats: Seq[Seat], trump: Suit | None, highest: bool
) -> dict[Seat, int]:
    """§4 each for themselves: the holder of the best sequence scores their sequences, the holder
    of the best four their fours; with `highest`, the holder of the single best declaration scores
    all of theirs. Equal best: nobody scores that category."""
    scored = zero(seats)
    if highest:
        bests = {s: max(declaration_key(d, trump) for d in ds) for s, ds in declared.items() if ds}
        winner = sole_best(bests)
        if winner is not None:
            scored[winner] = sum(d.points for d in declared[winner])
        return scored
    sequences = {s: [d for d in ds if isinstance(d, Sequence)] for s, ds in declared.items()}
    fours = {s: [d for d in ds if isinstance(d, Four)] for s, ds in declared.items()}
    best_sequence = sole_best(
        {s: max(sequence_key(d, trump) for d in ds) for s, ds in sequences.items() if ds}
    )
    if best_sequence is not None:
        scored[best_sequence] += sum(d.points for d in sequences[best_sequence])
    best_four = sole_best({s: max(d.order for d in ds) for s, ds in fours.items() if ds})
    if best_four is not None:
        scored[best_four] += sum(d.points for d in fours[best_four])
    return scored


def card_points_of_each_player(deal: SoloDeal, seats: Seq[Seat], rules: Rules) -> dict[Seat, int]:
    """As entered, the player left out having 162 minus the others; a capot takes them all."""
    if deal.capot is not None:
        return {s: rules.capot_value if s is deal.capot else 0 for s in seats}
    cards = deal.cards or {}
    entered = sum(cards.get(s, 0) for s in seats)
    return {s: cards[s] if s in cards else DEAL_VALUE - entered for s in seats}


def taker_beats_each_player(taker: Seat, totals: Mapping[Seat, int]) -> bool:
    """Made only when the taker's deal points are strictly more than each other player's."""
    return all(totals[taker] > points for seat, points in totals.items() if seat is not taker)


def dedans_shares(taker: Seat, shared: int, rules: Rules) -> dict[Seat, int]:
    """The taker's card points and declarations, shared equally among the other players; the
    remainder to the player who follows the taker in dealing order."""
    others = [s for s in seats_in_game(rules) if s is not taker]
    each, remainder = divmod(shared, len(others))
    shares = dict.fromkeys(others, each)
    shares[player_after(taker, rules)] += remainder
    return shares


def capot_scores(
    capot: Seat, seats: Seq[Seat], value: int, declarations: int, belote: Mapping[Seat, int]
) -> dict[Seat, int]:
    """The player who wins every trick scores the capot with their declarations and belote; the
    others only their belote."""
    return {s: value + declarations + belote[s] if s is capot else belote[s] for s in seats}


def score_solo(deal: SoloDeal, rules: Rules) -> SoloResult:
    """What a valid deal of two or three players writes."""
    seats = seats_in_game(rules)
    if deal.taker is None:
        nothing = zero(seats)
        return SoloResult(Outcome.THROWN_IN, None, nothing, nothing, nothing, nothing, None)
    taker = deal.taker
    cards = card_points_of_each_player(deal, seats, rules)
    highest = rules.declaration_comparison is DeclarationComparison.HIGHEST
    declarations = declarations_scored_by_each_player(deal.declarations, seats, deal.trump, highest)
    belote = {s: BELOTE_POINTS if s is deal.belote else 0 for s in seats}
    if deal.capot is not None:
        capot = deal.capot
        counted = {s: declarations[s] if s is capot else 0 for s in seats}
        score = capot_scores(capot, seats, rules.capot_value, counted[capot], belote)
        outcome = Outcome.MADE if capot is taker else Outcome.DEDANS
        return _written(outcome, capot, cards, counted, belote, score, taker, rules)
    totals = {s: cards[s] + declarations[s] + belote[s] for s in seats}
    if taker_beats_each_player(taker, totals):
        return _written(Outcome.MADE, None, cards, declarations, belote, totals, taker, rules)
    shares = dedans_shares(taker, cards[taker] + declarations[taker], rules)
    score = {s: belote[s] if s is taker else totals[s] + shares[s] for s in seats}
    return _written(Outcome.DEDANS, None, cards, declarations, belote, score, taker, rules)


def _written(
    outcome: Outcome,
    capot: Seat | None,
    cards: SoloScores,
    declarations: SoloScores,
    belote: SoloScores,
    score: Mapping[Seat, int],
    taker: Seat,
    rules: Rules,
) -> SoloResult:
    """The result, each player's written points rounded when the table rounds."""
    if rules.rounding is Rounding.NEAREST_TEN:
        score = {s: nearest_ten(points) for s, points in score.items()}
    return SoloResult(outcome, capot, cards, declarations, belote, dict(score), taker)


def solo_result_or_problems(entry: object, rules: Rules) -> tuple[SoloResult | None, list[Problem]]:
    """What an entry writes in a game of two or three, or every problem that stops it."""
    deal, found = read_solo_entry(entry, rules)
    if deal is None or found:
        return None, found
    found = check_solo_deal(deal, rules)
    if found:
        return None, found
    return score_solo(deal, rules), []
