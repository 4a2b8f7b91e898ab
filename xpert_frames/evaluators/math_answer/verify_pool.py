"""Math-Verify (the optional ``symbolic`` extra) in worker processes with a per-pair deadline.

Math-Verify's own time limits use ``signal.alarm``, which works only in a process's main
thread: in a thread, a Ray actor or a Polars worker a pathological pair could hang the caller.
Here every pair is verified in a worker process of :mod:`xpert_frames.core.workers` (handler:
:func:`~xpert_frames.evaluators.math_answer.verify_worker.verify_pair`, loaded without this
package), which gives the deadlines, the budget and the stop on a signal:

- the worker's alarm answers ``timeout`` at 80% of ``timeout`` (no restart); a worker silent for
  the whole ``timeout`` is killed, the pair is ``timeout`` and a fresh worker goes on;
- a call's *budget* (seconds): once spent, the pairs not yet answered are :data:`BUDGET`;
- a stop request (Ctrl-C or SIGTERM in the CLI) kills every worker at once; the call returns
  within a tenth of a second, its unanswered pairs :data:`ERROR` (the caller discards them).

A large batch is shared by up to one worker per core of the core budget
(:func:`xpert_frames.core.budget.available_cores`), in chunks of :data:`CHUNK` pairs, one worker
per :data:`MIN_PER_WORKER` pairs at most (a worker's start-up, importing Math-Verify, costs
about as much as that many pairs).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Sequence
from pathlib import Path

from xpert_frames.core.budget import available_cores
from xpert_frames.core.workers import Miss, WorkerPool

__all__ = ["BUDGET", "DIFFERENT", "EQUAL", "ERROR", "TIMEOUT", "VerifyPool", "available", "pool"]

#: Outcomes of one pair (``budget``: not verified, the call's budget being spent).
EQUAL, DIFFERENT, TIMEOUT, ERROR, BUDGET = "equal", "different", "timeout", "error", "budget"
#: Pairs sent to a worker at once.
CHUNK = 64
#: Pairs per worker from which a batch uses another worker process.
MIN_PER_WORKER = 32
_HANDLER = f"{Path(__file__).with_name('verify_worker.py')}:verify_pair"
_MISSED = {Miss.TIMEOUT: TIMEOUT, Miss.ERROR: ERROR, Miss.BUDGET: BUDGET, Miss.STOPPED: ERROR}


def available() -> bool:
    """Whether Math-Verify is installed (``pip install xpert-frames[symbolic]``)."""
    from importlib.util import find_spec

    return find_spec("math_verify") is not None


class VerifyPool(WorkerPool[None]):
    """Up to ``workers`` Math-Verify worker processes (default: the core budget), ``timeout``
    seconds per pair; :meth:`verify` is thread-safe (calls are serialized)."""

    def __init__(
        self, timeout: float = 5.0, start_timeout: float = 60.0, workers: int | None = None
    ) -> None:
        import sys

        super().__init__(
            _HANDLER,
            size=workers if workers is not None else available_cores(),
            name="Math-Verify",
            start_timeout=start_timeout,
            quiet=True,
            hint=f"check that `{sys.executable} -c 'import math_verify'` works.",
        )
        self.timeout = timeout

    def verify(self, pairs: Sequence[tuple[str, str]], *, budget: float | None = None) -> list[str]:
        """Outcome of each ``(prediction, reference)`` pair: equal, different, timeout or
        error; with ``budget`` (seconds for the whole call, from now), :data:`BUDGET` for the
        pairs not answered when it is spent."""
        if not pairs:
            return []
        workers = -(-len(pairs) // MIN_PER_WORKER)
        chunk = min(CHUNK, -(-len(pairs) // min(self.size, workers)))
        answers, _ = self.run(
            list(pairs), workers=workers, chunk=chunk, deadline=self.timeout, budget=budget
        )
        return [_MISSED[a] if isinstance(a, Miss) else a for a in answers]


_POOLS: dict[float, VerifyPool] = {}
_POOLS_LOCK = threading.Lock()


def pool(timeout: float) -> VerifyPool:
    """The process-wide pool for ``timeout`` (created on first use, closed at exit)."""
    with _POOLS_LOCK:
        if timeout not in _POOLS:
            _POOLS[timeout] = VerifyPool(timeout)
        return _POOLS[timeout]


@atexit.register
def _close_all() -> None:
    for p in _POOLS.values():
        p.close()
