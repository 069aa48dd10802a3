"""Pure pairing, no Django and no database: Berger round robins and the round-by-round draws."""

from .round_robin import Pairing, Schedule, berger_rounds, round_robin

__all__ = ["Pairing", "Schedule", "berger_rounds", "round_robin"]
