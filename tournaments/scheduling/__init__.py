"""Pure pairing, no Django and no database: Berger round robins and the round-by-round draws."""

from .individual import IndividualRound, IndividualTable, PlayerRecord, draw_individual_round
from .knockout import (
    BRACKET_SIZES,
    KnockoutMatch,
    KnockoutPlace,
    KnockoutRound,
    bracket_order,
    first_knockout_round,
    knockout_ranking,
    next_knockout_round,
)
from .matching import DrawError
from .round_robin import Pairing, Schedule, berger_rounds, round_robin
from .teams import PairBy, TeamRecord, TeamRound, draw_team_round

__all__ = [
    "BRACKET_SIZES",
    "DrawError",
    "IndividualRound",
    "IndividualTable",
    "KnockoutMatch",
    "KnockoutPlace",
    "KnockoutRound",
    "PairBy",
    "Pairing",
    "PlayerRecord",
    "Schedule",
    "TeamRecord",
    "TeamRound",
    "berger_rounds",
    "bracket_order",
    "draw_individual_round",
    "draw_team_round",
    "first_knockout_round",
    "knockout_ranking",
    "next_knockout_round",
    "round_robin",
]
