"""The worker-pool module (``core.workers``) that the jieba and Math-Verify pools use: answers in
order, a failing task is an error and not the end of its worker, the worker's own alarm and the
caller's deadline, a worker that died or hung is replaced, the call's budget, a stop request,
the caller's own share alongside."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from xpert_frames.core import interrupt
from xpert_frames.core.workers import Miss, WorkerPool

HANDLER = f"{Path(__file__).with_name('worker_tasks.py')}:work"


@pytest.fixture
def pool() -> Iterator[WorkerPool[str]]:
    workers: WorkerPool[str] = WorkerPool(HANDLER, size=2, name="test", quiet=True)
    try:
        yield workers
    finally:
        workers.close()
        interrupt.clear()


def test_answers_in_order_across_workers_and_chunks(pool: WorkerPool[str]) -> None:
    tasks = [("echo", float(i)) for i in range(50)]
    for chunk in (1, 7, 64):
        answers, own = pool.run(tasks, chunk=chunk)
        assert answers == [float(i) for i in range(50)] and own is None
    assert pool.running() == 2
    assert pool.run([]) == ([], None)


def test_a_failing_task_is_an_error_and_its_worker_goes_on(pool: WorkerPool[str]) -> None:
    answers, _ = pool.run([("echo", 1.0), ("nope", 0.0), ("echo", 2.0)], workers=1, chunk=3)
    assert answers == [1.0, Miss.ERROR, 2.0]
    assert pool.running() == 1


def test_the_workers_alarm_times_a_slow_task_out_without_a_restart(
    pool: WorkerPool[str],
) -> None:
    pool.run([("echo", 0.0)], workers=1)
    before = pool._workers[0]
    answers, _ = pool.run([("sleep", 30.0), ("echo", 1.0)], workers=1, chunk=2, deadline=0.5)
    assert answers == [Miss.TIMEOUT, 1.0]
    assert pool._workers[0] is before


def test_a_hung_worker_is_killed_at_the_deadline_and_replaced(pool: WorkerPool[str]) -> None:
    pool.run([("echo", 0.0)], workers=1)
    before = pool._workers[0]
    start = time.monotonic()
    answers, _ = pool.run([("deaf", 30.0), ("echo", 1.0)], workers=1, chunk=2, deadline=0.5)
    assert answers == [Miss.TIMEOUT, 1.0]
    assert time.monotonic() - start < 20
    assert pool._workers[0] is not before and pool.running() == 1


def test_a_worker_that_died_is_an_error_and_is_replaced(pool: WorkerPool[str]) -> None:
    answers, _ = pool.run([("die", 0.0), ("echo", 1.0)], workers=1, chunk=2)
    assert answers == [Miss.ERROR, 1.0]
    assert pool.run([("echo", 2.0)], workers=1)[0] == [2.0]


def test_the_budget_ends_the_call(pool: WorkerPool[str]) -> None:
    tasks = [("sleep", 30.0), ("echo", 1.0)]
    answers, _ = pool.run(tasks, workers=1, chunk=2, deadline=60.0, budget=0.5)
    assert answers == [Miss.BUDGET, Miss.BUDGET]
    assert pool.run([("echo", 1.0)])[0] == [1.0]  # a fresh worker after the budget


def test_a_stop_request_kills_the_workers_at_once(pool: WorkerPool[str]) -> None:
    pool.run([("echo", 0.0)] * 2, workers=2)
    procs = [w.proc for w in pool._workers if w is not None]
    timer = threading.Timer(0.5, interrupt.request, args=(signal.SIGTERM,))
    timer.start()
    start = time.monotonic()
    answers, _ = pool.run([("sleep", 30.0)] * 4, chunk=2, deadline=60.0)
    assert time.monotonic() - start < 10
    assert answers == [Miss.STOPPED] * 4
    assert all(p.poll() is not None for p in procs)


def test_the_callers_share_runs_alongside(pool: WorkerPool[str]) -> None:
    answers, own = pool.run([("echo", 1.0), ("echo", 2.0)], alongside=lambda: "mine")
    assert answers == [1.0, 2.0] and own == "mine"


def test_a_worker_that_cannot_start_says_why() -> None:
    broken: WorkerPool[None] = WorkerPool(
        "no_such_module_xf:work",
        size=1,
        name="broken",
        start_timeout=30.0,
        quiet=True,
        hint="check the handler",
    )
    with pytest.raises(RuntimeError, match=r"expected a broken worker .* Hint: check the handler"):
        broken.run([("echo", 1.0)])
    assert broken._lock.acquire(blocking=False)  # not left held
    broken._lock.release()
