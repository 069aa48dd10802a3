"""Why a service refused an action; views and the API turn these into messages and status codes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from club.errors import Conflict as Conflict
from club.errors import NotAllowed as NotAllowed
from club.errors import ServiceError as ServiceError
from scoring.engine import codec


class DealRefused(ServiceError, ValueError):
    """The engine found problems in an entry; `problems` are the engine's, with their paths."""

    code = "invalid_deal"

    def __init__(self, problems: Iterable[Any]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in self.problems))

    def errors(self) -> dict[str, list[str]]:
        return dict(codec.errors_to_json(self.problems)["errors"])


class MatchOver(Conflict):
    code = "match_over"


class DealNumberTaken(Conflict):
    """An entry meant as deal n arrived after another deal took that number."""

    code = "deal_number_taken"


class DealChanged(Conflict):
    """An edit based on a version of the deal that another edit replaced meanwhile.

    `current` is the deal as it stands: the API answers it beside the refusal, the page
    shows it, so the person sees what they would overwrite.
    """

    status = 412
    code = "deal_changed"

    def __init__(self, message: str, *, current: Any, field: str = "version") -> None:
        super().__init__(message, field=field)
        self.current = current


class RoundNotReady(Conflict):
    """Closing a round with matches unfinished or unconfirmed: say so, close only when forced."""

    code = "round_not_ready"

    def __init__(self, message: str, *, unfinished: list[int], unconfirmed: list[int]) -> None:
        super().__init__(message)
        self.unfinished = unfinished
        self.unconfirmed = unconfirmed

    def details(self) -> dict[str, Any]:
        """Beside the message in the API's answer: the tables still to finish or to confirm."""
        return {"unfinished_tables": self.unfinished, "unconfirmed_tables": self.unconfirmed}


class MatchClosed(Conflict):
    code = "match_closed"


class ResultsFinal(Conflict):
    """The tournament's correction window is over: no deal changes until a director reopens."""

    code = "results_final"


class ResultsNotFinished(Conflict):
    code = "not_finished"


class ScheduleLocked(Conflict):
    code = "schedule_locked"


class TeamInDraw(Conflict):
    """Deleting a team drawn in a round: it is withdrawn instead (services.registration)."""

    code = "team_in_draw"


class RegistrationClosed(Conflict):
    """Online registration is closed (or was never opened) for this tournament."""

    code = "registration_closed"


class TournamentFull(Conflict):
    """Every place is taken: an entry waits for a cancellation (or a higher capacity)."""

    code = "tournament_full"


class AlreadyRegistered(ServiceError):
    code = "already_registered"


class EntriesNotCheckedIn(Conflict):
    """A round robin asked for while entries are expected and not checked in: asked first."""

    code = "entries_not_checked_in"

    def __init__(self, message: str, *, expected: list[str]) -> None:
        super().__init__(message, field="entries")
        self.expected = expected

    def details(self) -> dict[str, Any]:
        return {"expected": self.expected}
