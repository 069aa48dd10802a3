"""Why a service refused an action; views and the API turn these into messages and status codes.

The base lives in club/, the app every other app may import; tournaments add their own.
"""

from __future__ import annotations


class ServiceError(Exception):
    """An action refused for a reason the user can fix or must be told; never a server error."""

    status = 400
    code = "refused"

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def errors(self) -> dict[str, list[str]]:
        """The messages by field path, as the API answers them."""
        return {self.field or "detail": [self.message]}


class NotAllowed(ServiceError):
    status = 403
    code = "forbidden"


class Conflict(ServiceError):
    """The action does not fit the current state (match over, closed, schedule locked)."""

    status = 409
    code = "conflict"


class FieldsRefused(ServiceError):
    """Several fields refused at once; nothing was saved. `problems` maps each field to its messages."""

    code = "invalid"

    def __init__(self, problems: dict[str, list[str]]) -> None:
        self.problems = {field: list(messages) for field, messages in problems.items()}
        field, messages = next(iter(self.problems.items()))
        super().__init__("; ".join(messages), field=field)

    def errors(self) -> dict[str, list[str]]:
        return dict(self.problems)
