"""The prize list's arithmetic, hand-computed (docs/prizes.md): no database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prizes.awards import (
    InvalidPrizes,
    Placed,
    prize_list,
    prizes_problems,
    read_prizes,
    round_down,
)

D = Decimal


def field(setting: object) -> list[tuple[str, str]]:
    return [(p.path, p.code) for p in prizes_problems(setting)]


def standings(
    count: int, *, ties: dict[int, int] | None = None, tags: dict[int, str] | None = None
) -> list[Placed]:
    """`count` entries T1..Tn ranked 1..n; `ties` {n: rank} gives entry n another rank."""
    ties, tags = ties or {}, tags or {}
    return [
        Placed(key=n, name=f"T{n}", rank=ties.get(n, n), category=tags.get(n, ""))
        for n in range(1, count + 1)
    ]


def table(result) -> list[tuple[int, str, str | None, str, bool, int]]:
    return [
        (a.place, a.name, None if a.amount is None else str(a.amount), a.kind, a.shared, a.line)
        for a in result.awards
    ]


# --- the pool and each kind of line ------------------------------------------------------------


def test_the_pool_is_the_added_money_and_a_share_of_the_fees_due():
    prizes = read_prizes({"pool": {"percent_of_fees": 60, "added": 50}, "lines": []})
    # 20 teams at 10.00: 200.00 due, 60 % is 120.00, plus 50.00 added.
    assert prizes.pool(D("200.00")) == D("170.00")
    assert read_prizes({"lines": []}).pool(D("200")) == D("0")


def test_a_percent_line_is_rounded_down_to_the_clubs_unit():
    prizes = read_prizes(
        {
            "pool": {"percent_of_fees": 60, "added": 50},
            "rounding": 5,
            "lines": [{"place": 1, "percent": 40}, {"place": 2, "percent": 25}],
        }
    )
    result = prize_list(prizes, standings(20), D("200.00"))
    # 40 % of 170 = 68 → 65; 25 % = 42.50 → 40.
    assert table(result) == [(1, "T1", "65.00", "", False, 0), (2, "T2", "40.00", "", False, 1)]
    assert result.awarded == D("105.00")
    assert result.retained == D("65.00")


@pytest.mark.parametrize(
    ("unit", "cash"), [("0.01", "42.57"), ("1", "42.00"), ("5", "40.00"), ("10", "40.00")]
)
def test_each_rounding_unit_rounds_down(unit, cash):
    assert round_down(D("42.579"), D(unit)) == D(cash)


def test_a_fixed_amount_is_paid_as_written():
    prizes = read_prizes({"rounding": 10, "lines": [{"place": 2, "amount": 62.5}]})
    assert table(prize_list(prizes, standings(4), D(0))) == [(2, "T2", "62.50", "", False, 0)]


def test_a_range_of_places_pays_each_place():
    prizes = read_prizes({"lines": [{"places": [5, 8], "amount": 10}]})
    result = prize_list(prizes, standings(10), D(0))
    assert [(a.place, str(a.amount)) for a in result.awards] == [
        (5, "10.00"),
        (6, "10.00"),
        (7, "10.00"),
        (8, "10.00"),
    ]


def test_every_fourth_place_stops_at_the_last_entry():
    prizes = read_prizes({"lines": [{"every": 4, "from": 4, "to": 32, "amount": 5}]})
    result = prize_list(prizes, standings(18), D(0))
    assert [a.place for a in result.awards] == [4, 8, 12, 16]
    assert result.awarded == D("20.00")


def test_the_last_place_wins_the_booby_prize_in_kind():
    prizes = read_prizes({"lines": [{"last": True, "kind": "Booby prize"}]})
    assert table(prize_list(prizes, standings(7), D(0))) == [
        (7, "T7", None, "Booby prize", False, 0)
    ]


def test_a_line_may_pay_money_and_a_prize_in_kind():
    prizes = read_prizes({"lines": [{"place": 1, "amount": 100, "kind": "Cup"}]})
    assert table(prize_list(prizes, standings(3), D(0))) == [(1, "T1", "100.00", "Cup", False, 0)]


def test_the_formule_van_4():
    # Places 1 to 4, then every fourth place: 24 teams at 10.00, the whole of the fees.
    prizes = read_prizes(
        {
            "pool": {"percent_of_fees": 100},
            "rounding": 1,
            "lines": [
                {"place": 1, "percent": 30},
                {"place": 2, "percent": 20},
                {"place": 3, "percent": 12},
                {"place": 4, "percent": 8},
                {"every": 4, "from": 8, "to": 24, "percent": 5},
            ],
        }
    )
    result = prize_list(prizes, standings(24), D("240.00"))
    # 72, 48, 28.80 → 28, 19.20 → 19, then 12 at 8, 12, 16, 20, 24.
    assert [(a.place, str(a.amount)) for a in result.awards] == [
        (1, "72.00"),
        (2, "48.00"),
        (3, "28.00"),
        (4, "19.00"),
        (8, "12.00"),
        (12, "12.00"),
        (16, "12.00"),
        (20, "12.00"),
        (24, "12.00"),
    ]
    assert result.retained == D("13.00")


# --- ties ----------------------------------------------------------------------------------------


def test_tied_entries_share_the_cash_of_the_places_they_cover_across_a_percent_line():
    prizes = read_prizes(
        {
            "pool": {"added": 100},
            "rounding": 1,
            "lines": [
                {"place": 1, "percent": 50},
                {"place": 2, "percent": 25},
                {"place": 3, "percent": 10},
            ],
        }
    )
    # T2 and T3 share second place: places 2 and 3, 25 + 10 = 35 → 17.50 each.
    result = prize_list(prizes, standings(5, ties={3: 2}), D(0))
    assert table(result) == [
        (1, "T1", "50.00", "", False, 0),
        (2, "T2", "12.50", "", False, 1),
        (2, "T2", "5.00", "", False, 2),
        (2, "T3", "12.50", "", False, 1),
        (2, "T3", "5.00", "", False, 2),
    ]
    assert all(a.shared_place for a in result.awards[1:])
    assert result.retained == D("15.00")


def test_a_tie_over_one_paid_place_splits_it_down_to_the_cent():
    prizes = read_prizes({"lines": [{"place": 3, "amount": 10}]})
    # Three share third place: 10 / 3 = 3.33 each, one cent kept by the club.
    result = prize_list(prizes, standings(6, ties={4: 3, 5: 3}), D(0))
    assert [(a.name, str(a.amount)) for a in result.awards] == [
        ("T3", "3.33"),
        ("T4", "3.33"),
        ("T5", "3.33"),
    ]
    assert result.retained == D("-9.99")


def test_a_prize_in_kind_on_a_tie_is_marked_shared():
    prizes = read_prizes({"lines": [{"last": True, "kind": "Ham"}]})
    result = prize_list(prizes, standings(5, ties={5: 4}), D(0))
    assert table(result) == [(4, "T4", None, "Ham", True, 0), (4, "T5", None, "Ham", True, 0)]


def test_a_prize_in_kind_for_every_place_of_a_tie_is_not_shared():
    prizes = read_prizes({"lines": [{"places": [1, 4], "kind": "Bottle"}]})
    result = prize_list(prizes, standings(4, ties={2: 1}), D(0))
    assert [a.shared for a in result.awards] == [False, False, False, False]


# --- categories ----------------------------------------------------------------------------------


SETTING_WITH_LADIES = {
    "lines": [
        {"place": 1, "amount": 100},
        {"place": 2, "amount": 50},
        {"category": "Ladies", "place": 1, "amount": 20},
        {"category": "Ladies", "place": 2, "kind": "Flowers"},
    ]
}
LADIES = {2: "Ladies", 4: "Ladies", 5: "Ladies", 6: "Youth"}


def test_a_category_line_skips_an_entry_already_holding_a_place_line():
    result = prize_list(read_prizes(SETTING_WITH_LADIES), standings(6, tags=LADIES), D(0))
    # T2 (Ladies) holds second place: the best ladies after her are T4, then T5.
    assert table(result) == [
        (1, "T1", "100.00", "", False, 0),
        (2, "T2", "50.00", "", False, 1),
        (4, "T4", "20.00", "", False, 2),
        (5, "T5", None, "Flowers", False, 3),
    ]
    assert result.awards[2].category == "Ladies"


def test_a_cumulative_category_line_awards_the_best_of_the_category_whatever_they_hold():
    setting = {**SETTING_WITH_LADIES, "cumulative": True}
    result = prize_list(read_prizes(setting), standings(6, tags=LADIES), D(0))
    assert table(result) == [
        (1, "T1", "100.00", "", False, 0),
        (2, "T2", "50.00", "", False, 1),
        (2, "T2", "20.00", "", False, 2),
        (4, "T4", None, "Flowers", False, 3),
    ]


def test_a_category_nobody_has_awards_nothing():
    setting = {"lines": [{"category": "Seniors", "place": 1, "amount": 20}]}
    assert prize_list(read_prizes(setting), standings(4, tags=LADIES), D(0)).awards == ()


# --- the pool smaller than the fixed amounts ----------------------------------------------------


def test_the_club_adds_what_the_fixed_amounts_ask_beyond_the_pool():
    prizes = read_prizes(
        {
            "pool": {"percent_of_fees": 50},
            "lines": [{"place": 1, "amount": 150}, {"place": 2, "amount": 100}],
        }
    )
    # 12 teams at 10.00: half of 120.00 is 60.00; 250.00 handed out.
    result = prize_list(prizes, standings(12), D("120.00"))
    assert (result.pool, result.awarded, result.retained) == (D("60.00"), D("250.00"), D("-190.00"))


def test_places_beyond_the_entries_pay_nobody():
    prizes = read_prizes({"lines": [{"places": [1, 10], "amount": 10}]})
    assert prize_list(prizes, standings(3), D(0)).awarded == D("30.00")


# --- the setting checked --------------------------------------------------------------------------


def test_no_prizes_is_none():
    assert read_prizes(None) is None
    assert prizes_problems(None) == []


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ({"lines": [], "prize": 1}, ("prizes.prize", "unknown_key")),
        ({"pool": {"percent": 50}}, ("prizes.pool.percent", "unknown_key")),
        ({"pool": {"percent_of_fees": 120}}, ("prizes.pool.percent_of_fees", "percent_range")),
        ({"pool": {"added": -5}}, ("prizes.pool.added", "amount_range")),
        ({"pool": {"added": "lots"}}, ("prizes.pool.added", "not_an_amount")),
        ({"rounding": 2}, ("prizes.rounding", "rounding_choice")),
        ({"cumulative": "yes"}, ("prizes.cumulative", "not_a_boolean")),
        ({"lines": {}}, ("prizes.lines", "not_a_list")),
        ({"lines": [5]}, ("prizes.lines[0]", "not_an_object")),
        ({"lines": [{"place": 0, "amount": 5}]}, ("prizes.lines[0].place", "place_range")),
        ({"lines": [{"place": 1.5, "amount": 5}]}, ("prizes.lines[0].place", "not_a_place")),
        (
            {"lines": [{"place": 1, "amount": 5, "prize": 2}]},
            ("prizes.lines[0].prize", "unknown_key"),
        ),
        ({"lines": [{"amount": 5}]}, ("prizes.lines[0]", "no_place")),
        ({"lines": [{"place": 1}]}, ("prizes.lines[0]", "no_prize")),
        (
            {"lines": [{"place": 1, "amount": 5, "percent": 5}]},
            ("prizes.lines[0].percent", "amount_and_percent"),
        ),
        (
            {"lines": [{"place": 1, "places": [2, 3], "amount": 5}]},
            ("prizes.lines[0].places", "two_places"),
        ),
        ({"lines": [{"places": [4, 2], "amount": 5}]}, ("prizes.lines[0].places", "places_order")),
        ({"lines": [{"places": [4], "amount": 5}]}, ("prizes.lines[0].places", "places_pair")),
        (
            {"lines": [{"every": 4, "from": 4, "amount": 5}]},
            ("prizes.lines[0].to", "every_needs_to"),
        ),
        (
            {"lines": [{"every": 4, "from": 8, "to": 4, "amount": 5}]},
            ("prizes.lines[0].to", "to_before_from"),
        ),
        (
            {"lines": [{"place": 1, "to": 4, "amount": 5}]},
            ("prizes.lines[0].to", "from_to_without_every"),
        ),
        ({"lines": [{"last": False, "kind": "Ham"}]}, ("prizes.lines[0].last", "last_true")),
        ({"lines": [{"place": 1, "amount": 5.555}]}, ("prizes.lines[0].amount", "amount_range")),
        ({"lines": [{"place": 1, "kind": 5}]}, ("prizes.lines[0].kind", "kind_text")),
        (
            {"lines": [{"category": "", "place": 1, "amount": 5}]},
            ("prizes.lines[0].category", "category_text"),
        ),
        (
            {"lines": [{"place": 1, "percent": 60}, {"places": [2, 3], "percent": 25}]},
            ("prizes.lines", "percents_over_100"),
        ),
        ([], ("prizes", "not_an_object")),
    ],
)
def test_each_problem_names_its_path(setting, problem):
    assert problem in field(setting)


def test_every_problem_is_reported_at_once():
    problems = field({"rounding": 3, "lines": [{"place": 0, "amount": 5}, {"place": 2}]})
    assert sorted(problems) == [
        ("prizes.lines[0].place", "place_range"),
        ("prizes.lines[1]", "no_prize"),
        ("prizes.rounding", "rounding_choice"),
    ]


def test_a_bad_setting_raises_with_every_problem():
    with pytest.raises(InvalidPrizes) as raised:
        read_prizes({"rounding": 3})
    assert [p.path for p in raised.value.problems] == ["prizes.rounding"]


# --- properties -----------------------------------------------------------------------------------

amounts = st.decimals(min_value=0, max_value=500, places=2, allow_nan=False, allow_infinity=False)
place_line = st.fixed_dictionaries(
    {"place": st.integers(1, 12)},
    optional={"amount": amounts, "kind": st.sampled_from(["Ham", "Cup"])},
)
range_line = st.builds(
    lambda a, n, cash: {"places": [a, a + n], "amount": cash},
    st.integers(1, 12),
    st.integers(0, 5),
    amounts,
)
every_line = st.builds(
    lambda e, f, n, cash: {"every": e, "from": f, "to": f + n, "amount": cash},
    st.integers(1, 5),
    st.integers(1, 8),
    st.integers(0, 20),
    amounts,
)
percent_line = st.builds(
    lambda p, pc: {"place": p, "percent": pc}, st.integers(1, 12), st.integers(0, 20)
)
category_line = st.builds(
    lambda c, p, cash: {"category": c, "place": p, "amount": cash},
    st.sampled_from(["Ladies", "Youth"]),
    st.integers(1, 3),
    amounts,
)
settings_strategy = st.fixed_dictionaries(
    {
        "pool": st.fixed_dictionaries(
            {"percent_of_fees": st.integers(0, 100), "added": st.integers(0, 200)}
        ),
        "rounding": st.sampled_from([0.01, 1, 5, 10]),
        "cumulative": st.booleans(),
        "lines": st.lists(
            st.one_of(place_line, range_line, every_line, percent_line, category_line), max_size=5
        ),
    }
).filter(lambda s: not prizes_problems(s))


@st.composite
def final_standings(draw):
    """Entries in rank order; each may tie with the one before (same rank, as "2=")."""
    entries: list[Placed] = []
    for n in range(1, draw(st.integers(0, 24)) + 1):
        tied = bool(entries) and draw(st.integers(0, 3)) == 0
        entries.append(
            Placed(
                key=n,
                name=f"T{n}",
                rank=entries[-1].rank if tied else n,
                category=draw(st.sampled_from(["", "Ladies", "Youth"])),
            )
        )
    return entries


@settings(max_examples=200, deadline=None)
@given(settings_strategy, final_standings(), st.integers(0, 1000))
def test_the_cash_awarded_never_exceeds_the_pool_plus_the_fixed_amounts(setting, entries, fees):
    prizes = read_prizes(setting)
    result = prize_list(prizes, entries, D(fees))
    # A fixed amount is counted once per place it pays, its category's places included.
    assert result.awarded <= result.pool + prizes.fixed_total(len(entries))
    assert all(a.amount is None or a.amount >= 0 for a in result.awards)


@settings(max_examples=100, deadline=None)
@given(settings_strategy, final_standings(), st.integers(0, 1000))
def test_two_runs_on_the_same_standings_give_the_same_list(setting, entries, fees):
    assert prize_list(read_prizes(setting), entries, D(fees)) == prize_list(
        read_prizes(setting), list(entries), D(fees)
    )
