"""Math-Verify (the optional ``symbolic`` extra) in worker processes with a per-pair deadline.

Math-Verify's own time limits use ``signal.alarm``, which works only in a process's main
thread: in a thread, a Ray actor or a Polars worker a pathological pair could hang the caller.
Here every pair is verified in a separate worker process: this file run as a script
(``python math_verify_pool.py --worker``), so the worker imports neither the caller's
``__main__`` nor Polars. The caller waits at most ``timeout`` seconds per pair; a worker that
does not answer in time is killed, the pair is marked as timed out and a fresh worker goes on
with the rest of the batch.

Pairs are sent in chunks (JSON lines); the worker answers pair by pair, so one slow pair costs
only its own deadline. A large batch is shared by up to one worker per available core
(:func:`available_cores`: CPU affinity, Polars' thread pool, a Ray actor's CPU allotment), each
driven by its own caller thread under the same deadlines. The worker calls Math-Verify in its
main thread under one alarm per pair (80% of the deadline) that answers "timeout" itself, so a
slow pair is reported as timed out (never as a silent "not equal") without a worker restart.

A call may be given a *budget* (seconds for the whole call): once spent, the pairs not yet
answered are :data:`BUDGET` and the workers busy on them are replaced. A stop request
(:mod:`xpert_frames.core.interrupt`: Ctrl-C or SIGTERM in the CLI) kills every worker at once and
the call returns within a tenth of a second, its unanswered pairs :data:`ERROR` (the caller
discards them). Workers run in their own process group, so a Ctrl-C typed in a terminal reaches
the caller only, which stops them.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

#: Outcomes of one pair (``budget``: not verified, the call's budget being spent).
EQUAL, DIFFERENT, TIMEOUT, ERROR, BUDGET = "equal", "different", "timeout", "error", "budget"
#: Seconds between two looks at the clock and at a stop request while an answer is awaited.
_POLL = 0.1
_CHUNK = 64
#: Pairs per worker from which a batch uses another worker process.
MIN_PER_WORKER = 32


def available() -> bool:
    """Whether Math-Verify is installed (``pip install xpert-frames[symbolic]``)."""
    from importlib.util import find_spec

    return find_spec("math_verify") is not None


def _stop_requested() -> bool:
    """Whether the caller's process was asked to stop (imported here, not at the top: the
    worker runs this file without the package)."""
    from xpert_frames.core import interrupt

    return interrupt.pending() is not None


class _Late:
    """What :meth:`VerifyPool._answer` returns when no answer came in time: the pair's
    deadline (``timeout``), the call's budget (``budget``) or a stop request (``stop``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


_DEADLINE, _SPENT, _STOPPED = _Late("timeout"), _Late("budget"), _Late("stop")


class _PairTimeout(BaseException):
    """Raised by the worker's alarm; a BaseException so that Math-Verify's ``except
    Exception`` handlers let it through."""


def _expire(signum: int, frame: object) -> None:  # pragma: no cover - runs in the child
    raise _PairTimeout


def _verify_one(prediction: str, reference: str, budget: float) -> str:
    """One pair as Math-Verify decides it, under one alarm for the whole pair that reports
    :data:`TIMEOUT`. Math-Verify's own limits are off: they turn a timed-out parse into
    "nothing parsed" and a timed-out comparison into "not equal", a silent 0 that depends on
    how loaded the machine is."""
    import signal

    from math_verify import parse, verify

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        gold = parse(reference, parsing_timeout=None)
        target = parse(prediction, parsing_timeout=None)
        equal = bool(gold) and bool(target) and verify(gold, target, timeout_seconds=None)
    except _PairTimeout:
        return TIMEOUT
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return EQUAL if equal else DIFFERENT


class _Stopped(Exception):
    """A worker's start-up was cut short by a stop request."""


def _worker(budget: float) -> None:  # pragma: no cover - runs in the child
    import logging
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller stops its workers itself

    import math_verify  # noqa: F401  (imported once, before the first pair)

    logging.getLogger("math_verify").setLevel(logging.ERROR)  # "timeout is disabled" notice
    print("ready", flush=True)
    for line in sys.stdin:
        prediction, reference = json.loads(line)
        try:
            outcome = _verify_one(prediction, reference, budget)
        except Exception:  # any failure of the library on one pair
            outcome = ERROR
        print(outcome, flush=True)


class _Worker:
    """A worker process and a thread that queues its answers."""

    def __init__(self, budget: float) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-u", __file__, "--worker", repr(budget)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            process_group=0,  # a terminal's Ctrl-C reaches the caller, which stops the worker
        )
        self.answers: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line.strip())
        self.answers.put(None)  # the worker ended

    def send(self, pairs: Sequence[tuple[str, str]]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(json.dumps(list(p)) + "\n" for p in pairs))
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def answer(self, end: float, budget_end: float) -> str | _Late | None:
        """The next answer (None: the worker ended), waited for until ``end`` and not past
        ``budget_end`` (monotonic clock), looking for a stop request every :data:`_POLL`."""
        while True:
            if _stop_requested():
                return _STOPPED
            now = time.monotonic()
            limit = min(end, budget_end)
            if now >= limit:
                return _SPENT if budget_end <= end else _DEADLINE
            try:
                return self.answers.get(timeout=min(_POLL, limit - now))
            except queue.Empty:
                continue


def available_cores() -> int:
    """The core budget (:func:`xpert_frames.core.budget.available_cores`: CPU affinity, Polars'
    thread pool, a Ray task's or actor's CPU allotment). Imported here, not at the top: the
    worker runs this file without the package."""
    from xpert_frames.core.budget import available_cores as cores

    return cores()


class VerifyPool:
    """Up to ``workers`` worker processes (default: :func:`available_cores`), each fed by a
    thread of the caller; :meth:`verify` is thread-safe (calls are serialized). A batch uses
    one worker per :data:`MIN_PER_WORKER` pairs at most (a worker's start-up, importing
    Math-Verify, costs about as much as that many pairs)."""

    def __init__(
        self, timeout: float = 5.0, start_timeout: float = 60.0, workers: int | None = None
    ) -> None:
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.size = max(1, workers if workers is not None else available_cores())
        self._lock = threading.Lock()
        self._workers: list[_Worker | None] = [None] * self.size
        from xpert_frames.core import interrupt

        interrupt.on_request(f"verify-pool-{id(self)}", self._kill_all_now)

    def _kill_all_now(self) -> None:
        """Kill every worker without waiting or locking (from a signal handler); the callers
        waiting on them see the stop request within :data:`_POLL` seconds."""
        for worker in list(self._workers):
            if worker is not None:
                worker.proc.kill()

    def _start(self, slot: int) -> _Worker:
        # the worker's own alarm answers "timeout" a little before the caller's deadline, so a
        # slow pair does not cost a worker restart
        worker = _Worker(max(0.05, self.timeout * 0.8))
        ready = worker.answer(time.monotonic() + self.start_timeout, float("inf"))
        if ready is _STOPPED:
            worker.kill()
            raise _Stopped
        if ready != "ready":
            worker.kill()
            ready = None if isinstance(ready, _Late) else ready
            raise RuntimeError(
                f"expected a Math-Verify worker within {self.start_timeout} s, received "
                f"{ready!r}. Hint: check that `{sys.executable} -c 'import math_verify'` works."
            )
        self._workers[slot] = worker
        return worker

    def _kill(self, slot: int) -> None:
        worker = self._workers[slot]
        if worker is not None:
            worker.kill()
        self._workers[slot] = None

    def _chunk(
        self, slot: int, pairs: Sequence[tuple[str, str]], out: list[str], budget_end: float
    ) -> None:
        """Verify ``pairs`` on worker ``slot`` into ``out`` (same length): each answer waited
        for at most ``timeout``; a worker that is late or gone is killed and replaced. Past
        ``budget_end`` the pairs left are :data:`BUDGET`; after a stop request, :data:`ERROR`."""
        done = 0
        while done < len(pairs):
            if _stop_requested() or time.monotonic() >= budget_end:
                out[done:] = [ERROR if _stop_requested() else BUDGET] * (len(pairs) - done)
                return
            worker = self._workers[slot] or self._start(slot)
            chunk = pairs[done:]
            try:
                worker.send(chunk)
            except OSError:  # the worker is gone: start another
                self._kill(slot)
                continue
            for _ in chunk:
                answer = worker.answer(time.monotonic() + self.timeout, budget_end)
                if answer is _SPENT or answer is _STOPPED:
                    self._kill(slot)  # busy on a pair nobody waits for any more
                    break  # the loop's head fills in the rest
                late = isinstance(answer, _Late)  # stuck where its own alarm cannot reach
                out[done] = TIMEOUT if isinstance(answer, _Late) else (answer or ERROR)
                done += 1
                if answer is None or late:
                    self._kill(slot)  # the rest of the chunk goes to a fresh worker
                    break

    def _drain(
        self,
        slot: int,
        chunks: queue.SimpleQueue[tuple[int, int]],
        pairs: Sequence[tuple[str, str]],
        out: list[str],
        errors: list[BaseException],
        budget_end: float,
    ) -> None:
        while True:
            try:
                lo, hi = chunks.get_nowait()
            except queue.Empty:
                return
            part = [ERROR] * (hi - lo)
            try:
                self._chunk(slot, pairs[lo:hi], part, budget_end)
            except _Stopped:  # the pairs left stay ERROR: the caller discards them
                return
            except BaseException as exc:  # re-raised in the caller
                errors.append(exc)
                return
            finally:
                out[lo:hi] = part

    def verify(self, pairs: Sequence[tuple[str, str]], *, budget: float | None = None) -> list[str]:
        """Outcome of each ``(prediction, reference)`` pair: equal, different, timeout or
        error; with ``budget`` (seconds for the whole call, from now), :data:`BUDGET` for the
        pairs not answered when it is spent."""
        out = [ERROR] * len(pairs)
        if not pairs:
            return out
        budget_end = float("inf") if budget is None else time.monotonic() + budget
        with self._lock:
            n = min(self.size, -(-len(pairs) // MIN_PER_WORKER))
            step = min(_CHUNK, -(-len(pairs) // n))
            chunks: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
            for lo in range(0, len(pairs), step):
                chunks.put((lo, min(lo + step, len(pairs))))
            errors: list[BaseException] = []
            threads = [
                threading.Thread(
                    target=self._drain, args=(i, chunks, pairs, out, errors, budget_end)
                )
                for i in range(1, n)
            ]
            for t in threads:
                t.start()
            self._drain(0, chunks, pairs, out, errors, budget_end)
            for t in threads:
                t.join()  # each pair waits at most ``timeout``, each start ``start_timeout``
        if errors:
            raise errors[0]
        return out

    def warm(self) -> None:
        """Start every worker now (in parallel), e.g. before timing."""
        with self._lock:
            threads = [
                threading.Thread(target=self._try_start, args=(i,))
                for i in range(self.size)
                if self._workers[i] is None
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

    def _try_start(self, slot: int) -> None:
        with contextlib.suppress(RuntimeError, _Stopped):  # verify() starts it again, says why
            self._start(slot)

    def close(self) -> None:
        with self._lock:
            for slot in range(self.size):
                self._kill(slot)


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


if __name__ == "__main__":  # pragma: no cover - the worker
    if sys.argv[1:2] == ["--worker"]:
        _worker(float(sys.argv[2]))
