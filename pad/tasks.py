"""The score pad's tasks: the clean-up of games nobody opened for a long time (on beat)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task
def delete_expired_pads() -> int:
    return services.delete_expired_pads()
