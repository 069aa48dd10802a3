"""The draw's words: a player's past, a table of four, a drawn round."""

from __future__ import annotations

from dataclasses import dataclass

Partnership = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's past in the tournament, as the draw of the next round needs it.

    ``partners`` has one entry per round played, ``opponents`` two (a player faced twice
    is listed as often); ``ns`` and ``ew`` count the seats they had.
    """

    player: int
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    sit_outs: int = 0
    ns: int = 0
    ew: int = 0


@dataclass(frozen=True, slots=True)
class IndividualTable:
    """One table of four: ``ns`` is (North, South), ``ew`` is (East, West)."""

    table: int
    ns: Partnership
    ew: Partnership

    @property
    def players(self) -> tuple[int, int, int, int]:
        """North, East, South, West: the order of play."""
        return (self.ns[0], self.ew[0], self.ns[1], self.ew[1])


@dataclass(frozen=True, slots=True)
class IndividualRound:
    """One drawn round: its tables (1..k) and the players who sit it out."""

    round: int
    tables: tuple[IndividualTable, ...]
    sit_outs: tuple[int, ...]
    # Partnerships of players already partners before: 0 unless no draw avoided it.
    repeated_partners: int
    # Pairs of opponents at a table who had already faced each other.
    repeated_opponents: int
