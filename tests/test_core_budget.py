"""The one core budget (``core.budget.available_cores``): the affinity mask, Polars' thread pool
and a Ray task's or actor's CPU allotment, whichever is smallest; the kernels and worker pools
that use it."""

from __future__ import annotations

import os
import sys

import polars as pl
import pytest

from xpert_frames.core import budget
from xpert_frames.evaluators.math_answer import parts, verify_pool
from xpert_frames.tokens import pool


class _Context:
    def __init__(self, mode: int, cpus: float | None) -> None:
        self.worker = type("Worker", (), {"mode": mode})()
        self.cpus = cpus

    def get_assigned_resources(self) -> dict[str, float]:
        return {} if self.cpus is None else {"CPU": self.cpus}


def _fake_ray(mode: int, cpus: float | None, *, initialized: bool = True) -> object:
    context = _Context(mode, cpus)
    return type(
        "Ray",
        (),
        {
            "WORKER_MODE": 1,
            "is_initialized": staticmethod(lambda: initialized),
            "get_runtime_context": staticmethod(lambda: context),
        },
    )


@pytest.fixture
def eight_cores(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setitem(sys.modules, "ray", None)  # no Ray unless a test puts one there
    monkeypatch.setattr(budget.os, "sched_getaffinity", lambda _pid: set(range(8)), raising=False)
    monkeypatch.setattr(budget.pl, "thread_pool_size", lambda: 8)
    return monkeypatch


def test_polars_pool_and_affinity_cap_the_budget(eight_cores: pytest.MonkeyPatch) -> None:
    assert budget.available_cores() == 8
    eight_cores.setattr(budget.pl, "thread_pool_size", lambda: 3)  # POLARS_MAX_THREADS=3
    assert budget.available_cores() == 3
    eight_cores.setattr(budget.os, "sched_getaffinity", lambda _pid: {5}, raising=False)
    assert budget.available_cores() == 1  # e.g. taskset -c 5


@pytest.mark.parametrize(
    ("mode", "cpus", "expected"),
    [
        (1, 2.0, 2),  # a task or actor with num_cpus=2
        (1, 0.5, 1),  # a fractional CPU: at least one thread
        (1, 0.0, 1),
        (1, None, 8),  # an actor's default (no CPU while it runs): no Ray limit
        (1, 16.0, 8),  # an allotment above the mask: the mask
        (0, 2.0, 8),  # mode 0: the driver, never confined
    ],
)
def test_a_ray_allotment_caps_the_budget(
    eight_cores: pytest.MonkeyPatch, mode: int, cpus: float | None, expected: int
) -> None:
    eight_cores.setitem(sys.modules, "ray", _fake_ray(mode, cpus))
    assert budget.available_cores() == expected


def test_ray_is_asked_only_when_running(eight_cores: pytest.MonkeyPatch) -> None:
    eight_cores.setitem(sys.modules, "ray", _fake_ray(1, 2.0, initialized=False))
    assert budget.ray_cpus() is None and budget.available_cores() == 8
    eight_cores.setitem(sys.modules, "ray", type("OldRay", (), {"is_initialized": lambda: True}))
    assert budget.ray_cpus() is None  # too old to say: no allotment known
    eight_cores.delitem(sys.modules, "ray")
    assert budget.ray_cpus() is None
    assert "ray" not in sys.modules  # never imported just to ask


def test_the_pools_and_the_math_parts_follow_the_budget(eight_cores: pytest.MonkeyPatch) -> None:
    eight_cores.setattr(budget.pl, "thread_pool_size", lambda: 3)
    assert pool.worker_count() == 2  # jieba: the budget less this process
    assert verify_pool.VerifyPool().size == 3  # Math-Verify: one worker per core
    seen: list[int] = []

    def read(frame: pl.DataFrame) -> pl.DataFrame:
        seen.append(frame.height)
        return frame

    frame = pl.DataFrame({"x": range(parts.PART_ROWS * 4)})
    assert parts.in_parts(read, frame).equals(frame)
    assert len(seen) == 3  # one part per core of the budget
    eight_cores.setattr(budget.os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert pool.worker_count() == 0


def test_the_real_budget_is_within_the_machine() -> None:
    cores = budget.available_cores()
    assert 1 <= cores <= min(len(os.sched_getaffinity(0)), pl.thread_pool_size())
