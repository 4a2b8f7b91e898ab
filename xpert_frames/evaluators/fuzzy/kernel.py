"""Native kernels called on whole batches: never one Python call per row.

``levenshtein_similarity`` is ``1 - distance / max(len)`` on Unicode code points (1.0 for two
equal strings, including two empty ones), computed in float64 by the package's C extension
``_levenshtein`` straight from the Arrow buffers of the two string columns: no Python strings.
Its results are those of rapidfuzz's ``Levenshtein.normalized_similarity`` on the same Python
strings (bit-parallel distance: one 64-bit word for patterns of <= 64 code points, blocks of
words beyond; tests compare both against the plain dynamic programme).

The kernel's thread count follows the cores this process may use (:func:`kernel_threads`):
never more than Polars' own thread pool, the CPU affinity mask, or a Ray actor's CPU allotment.
"""

from __future__ import annotations

import os
import sys

import polars as pl

from xpert_frames.core.arrow import arrow_strings
from xpert_frames.evaluators.fuzzy._levenshtein import similarity as _similarity


def kernel_threads() -> int:
    """Threads for a native kernel: the cores Polars, the affinity mask and Ray allow.

    Polars' thread pool (``POLARS_MAX_THREADS``) is the budget the caller already chose for
    this process; the affinity mask (``taskset``, cgroup cpusets) can be narrower than
    ``os.cpu_count()``; inside a Ray worker the task's or actor's ``num_cpus`` is its share.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    limits = [cores or 1, pl.thread_pool_size()]
    ray_cpus = _ray_cpus()
    if ray_cpus is not None:
        limits.append(ray_cpus)
    return max(1, min(limits))


def _ray_cpus() -> int | None:
    """CPUs assigned to the current Ray task or actor; None outside Ray workers."""
    ray = sys.modules.get("ray")  # never import Ray just to ask
    if ray is None or not ray.is_initialized():
        return None
    try:
        context = ray.get_runtime_context()
        if context.worker.mode != ray.WORKER_MODE:  # the driver is not confined
            return None
        cpus = context.get_assigned_resources().get("CPU")
    except AttributeError:  # an older Ray without these attributes: no allotment known
        return None
    return None if cpus is None else max(1, int(cpus))


def levenshtein_similarity(a: pl.Series, b: pl.Series, *, workers: int | None = None) -> pl.Series:
    """Normalized Levenshtein similarity of aligned string Series; null where either is null.

    ``workers`` is the kernel's thread count; by default :func:`kernel_threads`.
    """
    import numpy as np

    if len(a) != len(b):
        raise ValueError(f"series lengths differ: {len(a)} and {len(b)}")
    threads = kernel_threads() if workers is None else workers
    if threads < 1:
        raise ValueError(f"workers must be a positive thread count or None, got {workers!r}")
    out = np.empty(len(a), dtype=np.float64)
    if len(a):
        _similarity(*arrow_strings(a), *arrow_strings(b), out, threads)
    # The kernel writes NaN exactly where either side is null (never otherwise).
    return pl.Series(a.name, out, dtype=pl.Float64, nan_to_null=True)
