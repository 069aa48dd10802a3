"""The broker connection the site uses: kombu's, riding out a Redis outage.

The worker reconnects within seconds of the broker coming back (`BrokerConnection`), and
does not exit when Redis goes away while it holds a message (`Transport`):

celery 5.7 closes the broker connection after collecting it when the connection is lost
(celery/celery#10242, the fix of #9705). With kombu's Redis transport, `collect()` detaches
the transport (its `client` becomes None) but leaves the default channel open when the
channel's pending BRPOP read fails, as it does with Redis gone; closing the connection then
closes that channel, which restores the worker's unacknowledged messages through the
detached transport and raises `AttributeError: 'NoneType' object has no attribute
'hostname'`. That error is not a connection error, so the worker exits ("Unrecoverable
error") instead of reconnecting — whenever it holds an unacknowledged message: a task with
a countdown, or one reserved or running with acks_late.

A channel whose transport was detached cannot restore anything: it now closes without
trying. The messages it held are in Redis' unacked set (restored after the visibility
timeout) or were lost with Redis; either way the worker's reconcile on reconnection
(config/celery_app.py) recomputes what they would have.
"""

from __future__ import annotations

from typing import Any

from celery.app import amqp
from kombu import Connection
from kombu.transport import redis

RECONNECT_MAX_SECONDS = 5


class Channel(redis.Channel):
    def close(self) -> None:
        if self.connection is not None and getattr(self.connection, "client", None) is None:
            self.do_restore = False
        super().close()


class Transport(redis.Transport):
    Channel = Channel


class BrokerConnection(Connection):
    """kombu's connection; a worker that lost the broker tries again at least every
    `RECONNECT_MAX_SECONDS` (kombu's default back-off grows to 30 s between attempts), so it
    is back, and reconciling, within seconds of Redis."""

    def ensure_connection(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("interval_start", 1)
        kwargs.setdefault("interval_step", 1)
        kwargs.setdefault("interval_max", RECONNECT_MAX_SECONDS)
        return super().ensure_connection(*args, **kwargs)


class AMQP(amqp.AMQP):
    """Celery's messaging wiring with `BrokerConnection`."""

    Connection = BrokerConnection
    BrokerConnection = BrokerConnection
