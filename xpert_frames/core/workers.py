"""Worker processes for Python-only work (jieba, Math-Verify), with deadlines, that stop on a
signal.

A :class:`WorkerPool` keeps up to ``size`` worker processes (:mod:`~xpert_frames.core.
worker_process` run as a script with a handler function; plain subprocesses, not
``multiprocessing``, whose spawn re-imports the caller's ``__main__``). Workers start on first
need (each waited for until it says it is ready, at most ``start_timeout`` seconds) and are kept
for the life of the pool; one that died is replaced at the next task.

:meth:`WorkerPool.run` answers a batch of tasks in order. The batch is cut into chunks of at
most ``chunk`` tasks shared by up to ``workers`` workers, each driven by a thread of the caller;
a worker is sent a whole chunk and answers task by task, so a slow task costs only its own
deadline:

- **per-task deadline** (``deadline`` seconds): the worker's own alarm answers
  :attr:`Miss.TIMEOUT` at :data:`ALARM_SHARE` of it without a restart; a worker silent past the
  whole deadline (stuck where its alarm cannot reach) is killed, the task is
  :attr:`Miss.TIMEOUT`, and a fresh worker goes on with the rest of the chunk;
- **budget** (seconds for the whole call): once spent, the tasks not yet answered are
  :attr:`Miss.BUDGET` and the workers busy on them are replaced;
- **stop request** (:mod:`xpert_frames.core.interrupt`: Ctrl-C or SIGTERM in the CLI): every
  worker is killed at once from the signal handler, the call returns within :data:`POLL`
  seconds, its unanswered tasks :attr:`Miss.STOPPED`. Workers run in their own process group
  (a Ctrl-C typed in a terminal reaches the caller only) and ignore SIGINT.

A task whose function raised is :attr:`Miss.ERROR`, as is one whose worker died on it. The
caller may do its own share of the work meanwhile (``alongside``). Calls on one pool are
serialized; pools are closed at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import os
import queue
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from xpert_frames.core import interrupt, worker_process

__all__ = ["ALARM_SHARE", "POLL", "Miss", "WorkerPool"]

#: Seconds between two looks at the clock and at a stop request while an answer is awaited.
POLL = 0.1
#: Share of the per-task deadline at which the worker's own alarm answers "timeout".
ALARM_SHARE = 0.8
_SCRIPT = str(Path(worker_process.__file__).resolve())
_ROOT = str(Path(__file__).resolve().parents[2])  # where this package is imported from
_POOLS: weakref.WeakSet[WorkerPool[Any]] = weakref.WeakSet()

T = TypeVar("T")


class Miss(enum.Enum):
    """Why a task has no answer."""

    TIMEOUT = "timeout"  #: past its deadline
    ERROR = "error"  #: the function raised, or the worker died on it
    BUDGET = "budget"  #: not answered when the call's budget was spent
    STOPPED = "stopped"  #: a stop request came first


class _Late:
    """No answer in time: the task's deadline, the call's budget or a stop request."""


_DEADLINE, _SPENT, _STOP = _Late(), _Late(), _Late()


class _Stopped(Exception):
    """A worker's start-up was cut short by a stop request."""


class _Worker:
    """A worker process and a thread that queues its answers (None: the worker ended)."""

    def __init__(self, argv: list[str], quiet: bool) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if quiet else None,
            env=env,
            process_group=0,  # a terminal's Ctrl-C reaches the caller, which stops the worker
        )
        self.answers: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, pipe: IO[bytes]) -> None:
        with contextlib.suppress(Exception):  # EOF, a killed worker: the end of its answers
            while True:
                self.answers.put(worker_process.receive(pipe))
        self.answers.put(None)

    def send(self, tasks: Sequence[Any], alarm: float | None) -> None:
        assert self.proc.stdin is not None
        for task in tasks:
            worker_process.send(self.proc.stdin, (alarm, task))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def answer(self, end: float, budget_end: float) -> tuple[str, Any] | _Late | None:
        """The next answer, waited for until ``end`` and not past ``budget_end`` (monotonic
        clock), looking for a stop request every :data:`POLL` seconds."""
        while True:
            if interrupt.pending() is not None:
                return _STOP
            now = time.monotonic()
            limit = min(end, budget_end)
            if now >= limit:
                return _SPENT if budget_end <= end else _DEADLINE
            try:
                return self.answers.get(timeout=min(POLL, limit - now))
            except queue.Empty:
                continue


class WorkerPool(Generic[T]):
    """Up to ``size`` worker processes running ``handler`` (``module:function`` or
    ``/path/file.py:function``, see :mod:`~xpert_frames.core.worker_process`) on one task at a
    time. ``name`` is for messages; ``quiet`` sends the workers' stderr to /dev/null;
    ``start_timeout`` bounds a worker's start (``hint``: what to check when it fails)."""

    def __init__(
        self,
        handler: str,
        *,
        size: int,
        name: str,
        start_timeout: float = 60.0,
        quiet: bool = False,
        hint: str = "",
    ) -> None:
        self.handler, self.name, self.hint = handler, name, hint
        self.size = max(1, size)
        self.start_timeout = start_timeout
        self.quiet = quiet
        self._lock = threading.Lock()
        self._workers: list[_Worker | None] = [None] * self.size
        interrupt.on_request(f"worker-pool-{id(self)}", self._kill_all_now)
        _POOLS.add(self)

    # ------------------------------------------------------------------ workers
    def running(self) -> int:
        """Worker processes alive now."""
        return sum(1 for w in self._workers if w is not None and w.alive())

    def _kill_all_now(self) -> None:
        """Kill every worker without waiting or locking (from a signal handler)."""
        for worker in list(self._workers):
            if worker is not None:
                worker.proc.kill()

    def _start(self, slot: int) -> _Worker:
        """A fresh worker in ``slot``, waited for until it is ready."""
        worker = _Worker([sys.executable, "-u", _SCRIPT, self.handler], self.quiet)
        ready = worker.answer(time.monotonic() + self.start_timeout, float("inf"))
        if ready is _STOP:
            worker.kill()
            raise _Stopped
        if not (isinstance(ready, tuple) and ready[0] == worker_process.READY):
            worker.kill()
            got = None if isinstance(ready, _Late) else ready
            raise RuntimeError(
                f"expected a {self.name} worker within {self.start_timeout:g} s, received "
                f"{got!r}.{' Hint: ' + self.hint if self.hint else ''}"
            )
        self._workers[slot] = worker
        return worker

    def _kill(self, slot: int) -> None:
        worker = self._workers[slot]
        if worker is not None:
            worker.kill()
        self._workers[slot] = None

    def warm(self, workers: int | None = None) -> None:
        """Start ``workers`` workers (default: all) now, side by side, e.g. before timing; a
        failure is left for :meth:`run` to report."""
        with self._lock:
            count = self.size if workers is None else min(self.size, workers)
            threads = [
                threading.Thread(target=self._try_start, args=(i,))
                for i in range(count)
                if self._workers[i] is None
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

    def _try_start(self, slot: int) -> None:
        with contextlib.suppress(RuntimeError, OSError, _Stopped):
            self._start(slot)

    def close(self) -> None:
        """Stop every worker (they start again on demand)."""
        with self._lock:
            for slot in range(self.size):
                self._kill(slot)

    # ------------------------------------------------------------------ tasks
    def run(
        self,
        tasks: Sequence[Any],
        *,
        workers: int | None = None,
        chunk: int = 1,
        deadline: float | None = None,
        budget: float | None = None,
        alongside: Callable[[], T] | None = None,
    ) -> tuple[list[Any], T | None]:
        """The answers to ``tasks`` in order (a :class:`Miss` where there is none), and what
        ``alongside()`` returned: the caller's own share, run on this thread meanwhile.

        Up to ``workers`` workers (default ``size``), chunks of at most ``chunk`` tasks,
        ``deadline`` seconds per task and ``budget`` seconds for the call (None: no limit).
        An error starting a worker is raised after every thread has ended."""
        out: list[Any] = [Miss.STOPPED] * len(tasks)
        budget_end = float("inf") if budget is None else time.monotonic() + budget
        step = max(1, chunk)
        chunks: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        for lo in range(0, len(tasks), step):
            chunks.put((lo, min(lo + step, len(tasks))))
        wanted = self.size if workers is None else max(1, workers)
        count = min(wanted, self.size, -(-len(tasks) // step))
        errors: list[BaseException] = []
        own: T | None = None
        with self._lock:
            first = 0 if alongside is not None else 1
            threads = [
                threading.Thread(
                    target=self._drain, args=(i, chunks, tasks, out, errors, deadline, budget_end)
                )
                for i in range(first, count)
            ]
            for t in threads:
                t.start()
            try:
                if alongside is not None:
                    own = alongside()
                elif count:
                    self._drain(0, chunks, tasks, out, errors, deadline, budget_end)
            finally:
                for t in threads:
                    t.join()  # each task waits at most its deadline, each start start_timeout
        if errors:
            raise errors[0]
        return out, own

    def _drain(
        self,
        slot: int,
        chunks: queue.SimpleQueue[tuple[int, int]],
        tasks: Sequence[Any],
        out: list[Any],
        errors: list[BaseException],
        deadline: float | None,
        budget_end: float,
    ) -> None:
        while True:
            try:
                lo, hi = chunks.get_nowait()
            except queue.Empty:
                return
            part: list[Any] = [Miss.STOPPED] * (hi - lo)
            try:
                self._chunk(slot, tasks[lo:hi], part, deadline, budget_end)
            except _Stopped:  # the tasks left stay STOPPED
                return
            except BaseException as exc:  # re-raised in the caller
                errors.append(exc)
                return
            finally:
                out[lo:hi] = part

    def _chunk(
        self,
        slot: int,
        tasks: Sequence[Any],
        out: list[Any],
        deadline: float | None,
        budget_end: float,
    ) -> None:
        """Answer ``tasks`` on worker ``slot`` into ``out`` (same length); a worker that is
        late or gone is killed and replaced."""
        alarm = None if deadline is None else max(0.05, deadline * ALARM_SHARE)
        wait = float("inf") if deadline is None else deadline
        done = 0
        while done < len(tasks):
            if interrupt.pending() is not None or time.monotonic() >= budget_end:
                miss = Miss.STOPPED if interrupt.pending() is not None else Miss.BUDGET
                out[done:] = [miss] * (len(tasks) - done)
                return
            worker = self._workers[slot]
            if worker is None or not worker.alive():
                self._kill(slot)
                worker = self._start(slot)
            try:
                worker.send(tasks[done:], alarm)
            except OSError:  # the worker is gone: start another
                self._kill(slot)
                continue
            for _ in range(done, len(tasks)):
                answer = worker.answer(time.monotonic() + wait, budget_end)
                if answer is _SPENT or answer is _STOP or interrupt.pending() is not None:
                    self._kill(slot)  # busy on a task nobody waits for any more (or killed)
                    break  # the loop's head fills in the rest
                if answer is None or isinstance(answer, _Late):  # gone, or stuck
                    out[done] = Miss.ERROR if answer is None else Miss.TIMEOUT
                    done += 1
                    self._kill(slot)  # the rest of the chunk goes to a fresh worker
                    break
                status, value = answer
                out[done] = value if status == worker_process.OK else Miss(status)
                done += 1


@atexit.register
def _close_all() -> None:
    for pool in list(_POOLS):
        pool.close()
