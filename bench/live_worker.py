"""The live bench's Celery worker: the site's own, with each task run logged again.

The site logs no line per task run (config.settings sets `celery.app.trace` to WARNING);
the bench reads the recompute times from those lines (`bench.live.recompute_times`), so
its worker turns them back on in every pool process.

    python -m bench.live_worker -A config worker …   # as `celery`, same arguments
"""

from __future__ import annotations

import logging
from typing import Any

from celery.signals import celeryd_after_setup, worker_process_init


def _log_task_runs(**_signal: Any) -> None:
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)


# Connected for good (weak=False): the pool processes inherit them when they fork.
celeryd_after_setup.connect(_log_task_runs, weak=False)
worker_process_init.connect(_log_task_runs, weak=False)


if __name__ == "__main__":
    from celery.__main__ import main

    main()
