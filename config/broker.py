"""The Redis broker transport the site uses: kombu's, with one fix for a broker outage.

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

from kombu.transport import redis


class Channel(redis.Channel):
    def close(self) -> None:
        if self.connection is not None and getattr(self.connection, "client", None) is None:
            self.do_restore = False
        super().close()


class Transport(redis.Transport):
    Channel = Channel
