"""Problems found in an entry, and the two errors that carry them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an entry: a stable `code`, the field `path`, a referee's message."""

    code: str
    path: str
    message: str
    # The values quoted in the message, so a UI can translate the template by code and
    # fill it again; not part of a problem's identity.
    params: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def prefixed(self, prefix: str) -> Problem:
        """The same problem seen from a container (`deals.3.` + `points.cards`)."""
        path = f"{prefix}.{self.path}" if self.path else prefix
        return Problem(self.code, path, self.message, self.params)


class _Invalid(ValueError):
    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems) or "invalid")


class InvalidDeal(_Invalid):
    """A deal (or its house rules) cannot be scored; `.problems` lists every reason."""


class InvalidMatch(_Invalid):
    """A match cannot be replayed; paths are prefixed `deals.<index>.`, `first_dealer`, `rules.`."""
