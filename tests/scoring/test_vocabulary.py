"""The vocabulary: enums with their JSON codes, values whose repr and str read back."""

import pytest

import scoring.engine as engine
from scoring.engine import (
    Deal,
    Four,
    Outcome,
    Points,
    Rank,
    Rules,
    Seat,
    Sequence,
    Suit,
    Team,
)


def test_the_enums_carry_the_json_codes():
    assert [s.value for s in Seat] == ["N", "E", "S", "W"]
    assert [t.value for t in Team] == ["NS", "EW"]
    assert [s.value for s in Suit] == ["S", "H", "D", "C"]
    assert [r.value for r in Rank] == ["7", "8", "9", "T", "J", "Q", "K", "A"]
    assert [o.value for o in Outcome] == ["made", "dedans", "litige", "thrown_in"]


def test_seats_know_their_team_and_their_neighbours():
    assert Seat.N.team is Team.NS and Seat.E.team is Team.EW
    assert Seat.W.next() is Seat.N
    assert Seat.N.next(clockwise=False) is Seat.W
    assert Team.NS.other is Team.EW


def test_parse_reads_a_code_and_refuses_anything_else():
    assert Seat.parse("S") is Seat.S
    with pytest.raises(ValueError, match="'X'"):
        Seat.parse("X")


@pytest.mark.parametrize(
    "value",
    [
        Deal(
            Seat.E,
            Suit.C,
            Points(Team.EW, 100),
            None,
            Team.NS,
            {Team.NS: (Sequence(3, Rank.KING, Suit.H), Four(Rank.JACK))},
        ),
        Rules(target=None, max_deals=16),
        Sequence(4),
    ],
)
def test_the_repr_of_a_value_reads_back(value):
    assert eval(repr(value), vars(engine) | vars(engine.rules)) == value


def test_declarations_read_back_from_their_str():
    assert Sequence.parse(str(Sequence(3, Rank.KING, Suit.H))) == Sequence(3, Rank.KING, Suit.H)
    assert Sequence.parse("5??") == Sequence(5)
    assert Four.parse(str(Four(Rank.NINE))) == Four(Rank.NINE)
    assert Four(Rank.JACK).points == 200 and Sequence(6).points == 100
