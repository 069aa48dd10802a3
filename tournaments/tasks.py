"""Celery tasks: take ids, call a service, safe to run twice."""

from __future__ import annotations


def schedule_recompute(tournament_id: int) -> None:
    """Placeholder until the standings issue lands: the recompute is sent from here."""
