"""The benchmarks' one stopwatch: best and median wall-clock seconds of a few runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(
    action: Callable[[], object],
    runs: int,
    *,
    before: Callable[[], object] | None = None,
    after: Callable[[], object] | None = None,
) -> tuple[float, float]:
    """Best and median seconds of `runs` calls of `action`.

    `before` (set the stage) and `after` (undo, so the next run does the same work) run
    around each call, untimed.
    """
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
        if after is not None:
            after()
    return min(times), statistics.median(times)
