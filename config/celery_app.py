"""The Celery application: configured from Django settings under the CELERY namespace."""

import logging
import os
from typing import Any

from celery import Celery, bootsteps
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

# The broker connection reconnects within seconds (config/broker.py).
app = Celery("belote", amqp="config.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class ReconcileOnConnect(bootsteps.StartStopStep):
    """Each time the worker (re)connects to the broker, it asks for the reconcile.

    A recompute sent while the broker was down, or held by a worker that lost it, is then
    caught up as soon as both are back, without waiting for beat.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: Any) -> None:
        try:
            parent.app.send_task("tournaments.tasks.reconcile_standings")
        except Exception:
            # The broker went away again: the next reconnection or beat sends it.
            log.exception("could not send the reconcile after connecting")


app.steps["consumer"].add(ReconcileOnConnect)


@worker_process_init.connect
def settle_pool_process(**kwargs: Any) -> None:
    """A pool process starts with the site loaded: its objects set aside from the collector."""
    from config.process import settle

    settle()
