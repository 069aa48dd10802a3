"""One function per action on tournaments, each in one transaction (design.md)."""

from .changes import record_change

__all__ = ["record_change"]
