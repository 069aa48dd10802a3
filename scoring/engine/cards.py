"""The vocabulary of the table: seats, teams, suits, ranks and the bit tables built on them."""

from __future__ import annotations

import enum


class _Code(enum.StrEnum):
    """A str enum whose repr reads back (`Seat.N`) and whose str is its JSON code."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def parse(cls, text: object) -> _Code:
        """The member spelled `text`; ValueError quoting it otherwise."""
        member = cls._value2member_map_.get(text) if isinstance(text, str) else None
        if member is None:
            raise ValueError(f"unknown {cls.__name__.lower()} {text!r}")
        return member  # type: ignore[return-value]


class Team(_Code):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS


class Seat(_Code):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def team(self) -> Team:
        return SEAT_TEAM[self]

    def next(self, clockwise: bool = True) -> Seat:
        """The seat one place further in play direction."""
        order = CLOCKWISE
        return order[(order.index(self) + (1 if clockwise else -1)) % 4]


class Suit(_Code):
    S = "S"
    H = "H"
    D = "D"
    C = "C"


class Rank(_Code):
    """Ranks in sequence order, lowest first: the index is the sequence strength."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


TEAMS: tuple[Team, Team] = (Team.NS, Team.EW)
# The teams as module constants for the scoring path: `Team.NS` is looked up through the enum's
# metaclass each time, ten times the cost of reading a global. The same goes for every enum.
NS, EW = TEAMS
CLOCKWISE: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
SEAT_TEAM: dict[Seat, Team] = {Seat.N: Team.NS, Seat.S: Team.NS, Seat.E: Team.EW, Seat.W: Team.EW}
SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)

# Strength of a rank inside a sequence: A K Q J T 9 8 7, whatever the trump.
SEQUENCE_STRENGTH: dict[Rank, int] = {rank: i for i, rank in enumerate(RANKS)}

# A deal's cards are worth 152 plus 10 for the last trick.
DEAL_VALUE = 162
BELOTE_POINTS = 20
# One team's card points outside capot: 1 and 161 cannot be made.
POSSIBLE_CARD_POINTS = frozenset({0, *range(2, 161), 162})

TRUMP_VALUE: dict[Rank, int] = {
    Rank.JACK: 20,
    Rank.NINE: 14,
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
PLAIN_VALUE: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}


def card_bit(rank: Rank, suit: Suit) -> int:
    """One card as a bit of a 32-bit mask: overlaps between declarations are one `&`."""
    return 1 << (SUITS.index(suit) * 8 + SEQUENCE_STRENGTH[rank])


# The king and queen of each trump: the cards belote shows.
BELOTE_CARDS: dict[Suit, int] = {
    suit: card_bit(Rank.KING, suit) | card_bit(Rank.QUEEN, suit) for suit in SUITS
}


def card_name(bit_index: int) -> str:
    """`KH` for the king of hearts, from a bit index of `card_bit`."""
    return f"{RANKS[bit_index % 8].value}{SUITS[bit_index // 8].value}"


def cards_in(mask: int) -> list[str]:
    """The cards of a mask, named, for messages."""
    return [card_name(i) for i in range(32) if mask >> i & 1]
