"""The rules a deal must obey (docs/rules.md §3, §4, §8) once read: every broken one becomes a `Problem`."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from collections.abc import Sequence as Seq

from .cards import (
    BELOTE_CARDS,
    EW,
    NS,
    POSSIBLE_CARD_POINTS,
    RANKS,
    SEQUENCE_STRENGTH,
    Rank,
    Seat,
    Suit,
    Team,
    cards_in,
)
from .deal import Deal
from .declarations import (
    FOUR_MASKS,
    FOUR_ORDER,
    POSSIBLE_MASKS,
    Declaration,
    Four,
    Sequence,
    certain_cards,
    certainly_overlap,
    top_high_enough,
)
from .messages import problem
from .problems import Problem
from .rules import AllPass, DeclarationComparison, Rules

TEAM_HAND = 16
_NOTHING: frozenset[str] = frozenset()

# (team, position in the entry's list, declaration)
Placed = tuple[Team, int, Declaration]
# A declaration and who made it: a team, or a seat in a game of two or three.
HeldBy = tuple[Team | Seat, int, Declaration]


def check_deal(
    deal: Deal,
    rules: Rules,
    broken: Collection[str] = _NOTHING,
    positions: Mapping[Team, tuple[int, ...]] | None = None,
) -> list[Problem]:
    """Every rule `deal` breaks under `rules`; fields named in `broken` were unreadable."""
    found: list[Problem] = []
    if deal.taker is None and "taker" not in broken:
        return thrown_in_problems(deal, rules)
    if deal.taker is not None and deal.trump is None and "trump" not in broken:
        found.append(problem("trump_required", "trump"))
    found.extend(points_problems(deal, broken))
    if deal.declarations:
        found.extend(declaration_problems(deal, rules, positions))
    return found


def thrown_in_problems(deal: Deal, rules: Rules) -> list[Problem]:
    """A thrown-in deal writes nothing, and cannot happen when the dealer must take."""
    found = []
    if rules.all_pass is AllPass.DEALER_MUST_TAKE:
        found.append(problem("thrown_in_not_allowed", "taker"))
    for name in ("trump", "points", "capot", "belote"):
        if getattr(deal, name) is not None:
            found.append(problem("thrown_in_with_data", name, field=name))
    if any(deal.declarations.values()):
        found.append(problem("thrown_in_with_data", "declarations", field="declarations"))
    return found


def points_problems(deal: Deal, broken: Collection[str]) -> list[Problem]:
    """Card points are needed unless capot says them, possible, and agree with a capot."""
    points = deal.points
    if points is None:
        if deal.capot is None and "points" not in broken and "capot" not in broken:
            return [problem("points_required", "points")]
        return []
    if points.cards not in POSSIBLE_CARD_POINTS:
        return [problem("impossible_card_points", "points.cards", value=points.cards)]
    if deal.capot is not None:
        expected = 162 if points.team is deal.capot else 0
        if points.cards != expected:
            return [
                problem(
                    "points_disagree_with_capot",
                    "points.cards",
                    capot=deal.capot.value,
                    team=points.team.value,
                    expected=expected,
                    value=points.cards,
                )
            ]
    return []


def _path(owner: Team | Seat, position: int, leaf: str = "") -> str:
    """A declaration's field: a team's (four players) or a seat's (two or three)."""
    return f"declarations.{owner.value}.{position}{leaf}"


def declaration_problems(
    deal: Deal, rules: Rules, positions: Mapping[Team, tuple[int, ...]] | None
) -> list[Problem]:
    declared = deal.declarations
    if rules.declarations and plainly_sound(
        declared.get(NS, ()), declared.get(EW, ()), deal.belote, deal.trump
    ):
        return []
    placed: list[Placed] = []
    for team in (Team.NS, Team.EW):
        items = deal.declarations.get(team, ())
        at = positions.get(team, ()) if positions is not None else range(len(items))
        placed.extend((team, pos, d) for pos, d in zip(at, items, strict=True))
    if not rules.declarations:
        return [
            problem("declarations_off", _path(team, pos), value=str(d)) for team, pos, d in placed
        ]
    found: list[Problem] = []
    sound = [p for p in placed if not shape_problem(p, found)]
    found.extend(four_problems(sound))
    found.extend(overlap_problems(sound))
    if deal.belote is not None and deal.trump is not None:
        found.extend(belote_card_problems(sound, deal.belote, deal.trump))
    found.extend(hand_size_problems(sound, deal))
    if not found:
        highest = rules.declaration_comparison is DeclarationComparison.HIGHEST
        found.extend(missing_detail_problems(sound, highest))
    return found


def plainly_sound(
    ns: Seq[Declaration], ew: Seq[Declaration], belote: Team | None, trump: Suit | None
) -> bool:
    """The usual case, checked fast: every declaration exact and no card needed twice.

    False sends the deal through the detailed checks, which say what is wrong (if anything).
    """
    ours = _exact_cards(ns)
    theirs = _exact_cards(ew)
    if ours is None or theirs is None:
        return False
    # A team's four may share a card with its own sequence, never with the other team's.
    ns_held = ours[0] | ours[1]
    ew_held = theirs[0] | theirs[1]
    if ns_held & ew_held:
        return False
    if belote is not None and trump is not None:
        king_queen = BELOTE_CARDS[trump]
        if belote is NS:
            if ew_held & king_queen:
                return False
            ns_held |= king_queen
        else:
            if ns_held & king_queen:
                return False
            ew_held |= king_queen
    return ns_held.bit_count() <= TEAM_HAND and ew_held.bit_count() <= TEAM_HAND


def _exact_cards(declared: Seq[Declaration]) -> tuple[int, int] | None:
    """The cards of a team's sequences and of its fours, when every one is exact and no two
    sequences or two fours of the team share a card."""
    sequences = fours = 0
    for d in declared:
        cards = d.cards
        if not cards:
            return None
        if type(d) is Sequence:
            if cards & sequences:
                return None
            sequences |= cards
        else:
            if cards & fours:
                return None
            fours |= cards
    return sequences, fours


def shape_problem(placed: tuple[Team | Seat, int, Declaration], found: list[Problem]) -> bool:
    """A sequence of 3 to 8 cards that fits in its suit, a four worth something (a team's
    declaration, or a seat's in a game of two or three)."""
    team, pos, d = placed
    if isinstance(d, Four):
        if d.rank in (Rank.SEVEN, Rank.EIGHT):
            found.append(problem("four_worthless", _path(team, pos, ".rank"), rank=d.rank.value))
            return True
        return False
    if not 3 <= d.length <= 8:
        found.append(problem("sequence_length", _path(team, pos, ".length"), value=d.length))
        return True
    if d.top is not None and not top_high_enough(d.length, d.top):
        found.append(
            problem("top_too_low", _path(team, pos, ".top"), value=d.top.value, length=d.length)
        )
        return True
    return False


def four_problems(
    placed: Seq[HeldBy], *, two_holders: str = "same_four_both_teams"
) -> list[Problem]:
    """A rank has four cards: one four of it in the whole deal (a team's or, in a game of
    two or three, a seat's; `two_holders` is the code when two of them declare it)."""
    found = []
    seen: dict[Rank, Team | Seat] = {}
    for team, pos, d in placed:
        if isinstance(d, Four):
            if d.rank in seen:
                code = "duplicate_four" if seen[d.rank] is team else two_holders
                found.append(problem(code, _path(team, pos, ".rank"), rank=d.rank.value))
            else:
                seen[d.rank] = team
    return found


def overlap_problems(
    placed: Seq[HeldBy], *, others_four: str = "sequence_uses_other_four"
) -> list[Problem]:
    """No card in two sequences (of any holder), nor in a sequence and another holder's
    four (`others_four`: the code, the other team's or another player's)."""
    found = []
    sequences = [(t, p, d) for t, p, d in placed if isinstance(d, Sequence)]
    for k, (team, pos, seq) in enumerate(sequences):
        for other_team, _, other in sequences[:k]:
            shared = certainly_overlap(seq, other)
            if shared:
                cards = ", ".join(cards_in(shared)) if shared > 0 else "cards"
                found.append(
                    problem(
                        "overlapping_sequences",
                        _path(team, pos),
                        cards=cards,
                        other=f"the {other_team.value} sequence {other}",
                    )
                )
                break
        for four_team, _, four in placed:
            if isinstance(four, Four) and four_team is not team:
                shared = _always_meets(seq, FOUR_MASKS[four.rank])
                if shared:
                    found.append(
                        problem(
                            others_four,
                            _path(team, pos),
                            cards=", ".join(cards_in(shared)) if shared > 0 else "a card",
                            rank=four.rank.value,
                        )
                    )
    return found


def _always_meets(seq: Sequence, mask: int) -> int:
    """Cards of `mask` that `seq` uses for sure, or -1 when every reading of it uses some."""
    certain = certain_cards(seq) & mask
    if certain:
        return certain
    masks = POSSIBLE_MASKS[(seq.length, seq.top, seq.suit)]
    return -1 if masks and all(m & mask for m in masks) else 0


def belote_card_problems(placed: list[Placed], belote: Team, trump: Suit) -> list[Problem]:
    """Belote says who holds K and Q of trump: the other team cannot declare them."""
    king_queen = BELOTE_CARDS[trump]
    found = []
    for team, pos, d in placed:
        if team is belote:
            continue
        if isinstance(d, Four):
            shared = FOUR_MASKS[d.rank] & king_queen
        else:
            shared = _always_meets(d, king_queen)
        if shared:
            cards = ", ".join(cards_in(shared)) if shared > 0 else "the king or queen of trump"
            found.append(problem("uses_belote_card", _path(team, pos), cards=cards, team=belote))
    return found


def hand_size_problems(placed: list[Placed], deal: Deal) -> list[Problem]:
    """A team holds 16 cards; a four may share a card with a sequence of the same team,
    and belote shows the king and queen of trump too."""
    found = []
    for team in (Team.NS, Team.EW):
        ours = [d for t, _, d in placed if t is team]
        fours = [d for d in ours if isinstance(d, Four)]
        known = 0
        if deal.belote is team and deal.trump is not None:
            known = BELOTE_CARDS[deal.trump]
        for four in fours:
            known |= FOUR_MASKS[four.rank]
        unplaced = 0
        for d in ours:
            if isinstance(d, Sequence):
                masks = POSSIBLE_MASKS[(d.length, d.top, d.suit)]
                if len(masks) == 1:
                    known |= masks[0]
                else:
                    # An unplaced sequence meets each of our fours in one card at most.
                    unplaced += max(0, d.length - len(fours))
        needed = known.bit_count() + unplaced
        if needed > TEAM_HAND:
            found.append(
                problem("too_many_cards", f"declarations.{team.value}", team=team, value=needed)
            )
    return found


def _tie_key(d: Declaration, highest: bool) -> tuple[int, int, int]:
    """What decides between the teams before top card and suit are looked at."""
    if isinstance(d, Four):
        return (d.points if highest else 0, 1, FOUR_ORDER[d.rank])
    return (d.points if highest else 0, 0, d.length)


def missing_detail_problems(placed: list[Placed], highest: bool) -> list[Problem]:
    """When the best sequences of both teams have the same length, their top (then suit) decide."""
    pool = placed if highest else [p for p in placed if isinstance(p[2], Sequence)]
    best: dict[Team, tuple[int, int, int]] = {}
    for team, _, d in pool:
        key = _tie_key(d, highest)
        if team not in best or key > best[team]:
            best[team] = key
    if len(best) < 2 or best[Team.NS] != best[Team.EW] or best[Team.NS][1] == 1:
        return []
    length = best[Team.NS][2]
    tied = [(t, p, d) for t, p, d in pool if isinstance(d, Sequence) and d.length == length]
    found = [
        problem("top_needed", _path(t, p, ".top"), length=length)
        for t, p, d in tied
        if d.top is None
    ]
    if found:
        return found
    tops = {
        team: max(SEQUENCE_STRENGTH[d.top] for t, _, d in tied if t is team and d.top)
        for team in (Team.NS, Team.EW)
    }
    if tops[Team.NS] != tops[Team.EW]:
        return []
    top = RANKS[tops[Team.NS]]
    return [
        problem("suit_needed", _path(t, p, ".suit"), length=length, top=top.value)
        for t, p, d in tied
        if isinstance(d, Sequence) and d.top is top and d.suit is None
    ]
