"""Drawing round by round: a Swiss and a concours drawn, played and deleted through the services."""

from __future__ import annotations

import pytest

from club.models import Membership
from tests.factories import ClubFactory, make_staff
from tournaments.models import Match, Tournament
from tournaments.services.deals import enter_deal
from tournaments.services.draws import draw_next_round, next_round
from tournaments.services.registration import register_teams
from tournaments.services.settings import create_tournament

pytestmark = pytest.mark.django_db

NS_WINS = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}}


def test_explore():
    club = ClubFactory()
    director = make_staff(club, Membership.Role.DIRECTOR, "dir")
    t = create_tournament(club, by=director, name="Swiss", starts_on=__import__("datetime").date(2027,1,1), format="swiss", round_count=3, rules={"target": None, "max_deals": 2}, draw_seed=7)
    register_teams(t, "A: a a & b b\nB: c c & d d\nC: e e & f f\nD: g g & h h\nE: i i & j j", by=director)
    print(t.tie_breaks, t.bye_points_in_use)
    for k in range(3):
        r = draw_next_round(t, by=director)
        for m in r.matches.all():
            print(r, m.table, m)
            if not m.is_bye:
                enter_deal(m, NS_WINS, by=director)
                enter_deal(m, NS_WINS, by=director)
    from tournaments.standings.store import table_of
    for n, lines in table_of(t).items():
        print(n, [(l.team_id, l.rank, l.match_points, l.points_for, l.buchholz) for l in lines])
    with pytest.raises(Exception) as e:
        next_round(t)
    print(e.value)
