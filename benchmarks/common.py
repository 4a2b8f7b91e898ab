"""Shared benchmark plumbing: timing, peak memory, result rows, Markdown output."""

from __future__ import annotations

import gc
import os
import platform
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def size(quick: bool, quick_n: int, full_n: int, smoke: int | None = None) -> int:
    """Rows for a run: ``full_n``, ``quick_n`` with ``--quick``, and ``smoke`` (by default a
    twentieth of ``quick_n``, at least 500) with ``--smoke``: the test suite's check that every
    benchmark runs and writes its table, where the numbers mean nothing."""
    if not quick:
        return full_n
    if os.environ.get("XF_BENCH_SMOKE") == "1":
        return max(500, quick_n // 20) if smoke is None else smoke
    return quick_n


@dataclass
class Row:
    """One measured contender in one benchmark."""

    bench: str
    contender: str
    rows: int
    seconds: float
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("inf")


def runs(repeat: int) -> int:
    """``repeat``, or 1 with ``--smoke`` (where the numbers mean nothing)."""
    return 1 if os.environ.get("XF_BENCH_SMOKE") == "1" else repeat


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best wall time of ``repeat`` runs (:func:`runs`), and the last result."""
    repeat = runs(repeat)
    best = float("inf")
    result: Any = None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine() -> str:
    return f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def markdown(rows: list[Row], baseline: str | None = None) -> str:
    """A Markdown table; ``ratio`` is each contender's rate over ``baseline``'s rate."""
    base = next((r for r in rows if r.contender == baseline), None)
    lines = [
        "| benchmark | contender | rows | seconds | rows/s | ratio | note |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        ratio = f"{r.rate / base.rate:.2f}x" if base else ""
        lines.append(
            f"| {r.bench} | {r.contender} | {r.rows:,} | {r.seconds:.3f} | {r.rate:,.0f} "
            f"| {ratio} | {r.note} |"
        )
    return "\n".join(lines)
