"""Native kernels called on whole batches: never one Python call per row.

``levenshtein_similarity`` is ``1 - distance / max(len)`` on Unicode code points, computed by
rapidfuzz in float64 (its ``cpdist`` default, float32, differs from the exact value by up to
~3e-8). Polars answers every pair it can without Python strings: equal strings (including two
empty ones) score 1, a pair with exactly one empty side scores 0. The remaining pairs are
converted to Python strings chunk by chunk while the previous chunk is in the kernel, so the two
overlap.

The kernel's thread count follows the cores this process may use (:func:`kernel_threads`):
never more than Polars' own thread pool, the CPU affinity mask, or a Ray actor's CPU allotment.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # numpy and rapidfuzz load on first use, not with the package
    import numpy as np

#: Distinct pairs converted to Python strings per step (one step converts while one computes).
CHUNK = 32_768


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


def _kernel(a: list[str], b: list[str], workers: int) -> np.ndarray:
    import numpy as np
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    return process.cpdist(
        a, b, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=workers
    )


def _scores(a: pl.Series, b: pl.Series, workers: int) -> np.ndarray:
    """Scores of aligned pairs; conversion of one chunk overlaps the kernel of the previous."""
    import numpy as np

    scores = np.empty(len(a), dtype=np.float64)
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending: list[tuple[int, object]] = []
        for start in range(0, len(a), CHUNK):
            a_list = a.slice(start, CHUNK).to_list()
            b_list = b.slice(start, CHUNK).to_list()
            pending.append((start, pool.submit(_kernel, a_list, b_list, workers)))
            if len(pending) == 2:  # at most one chunk converting while one computes
                begin, future = pending.pop(0)
                chunk = future.result()  # type: ignore[attr-defined]
                scores[begin : begin + len(chunk)] = chunk
        for begin, future in pending:
            chunk = future.result()  # type: ignore[attr-defined]
            scores[begin : begin + len(chunk)] = chunk
    return scores


def levenshtein_similarity(a: pl.Series, b: pl.Series, *, workers: int | None = None) -> pl.Series:
    """Normalized Levenshtein similarity of aligned string Series; null where either is null.

    ``workers`` is rapidfuzz's thread count; by default :func:`kernel_threads`.
    """
    import numpy as np

    if len(a) != len(b):
        raise ValueError(f"series lengths differ: {len(a)} and {len(b)}")
    if workers is None:
        workers = kernel_threads()
    pairs = pl.DataFrame({"a": a.cast(pl.String), "b": b.cast(pl.String)})
    differ = (pl.col("a") != pl.col("b")).fill_null(False)
    one_empty = (pl.col("a").str.len_bytes() == 0) | (pl.col("b").str.len_bytes() == 0)
    masks = pairs.select(
        zero=(differ & one_empty).arg_true().implode(),
        null=(pl.col("a").is_null() | pl.col("b").is_null()).any(),
    )
    out = np.ones(len(pairs), dtype=np.float64)
    out[masks["zero"][0].to_numpy()] = 0.0
    # Pairs that need the kernel. (Scoring only their distinct pairs was measured: Polars'
    # string group-by cost as much as the conversion it saved, and more wall time when idle.)
    need = pairs.select((differ & ~one_empty).arg_true()).to_series().to_numpy()
    if len(need):
        out[need] = _scores(pairs["a"].gather(need), pairs["b"].gather(need), workers)
    result = pl.Series(a.name, out, dtype=pl.Float64)
    if masks["null"][0]:
        nulls = a.is_null() | b.is_null()
        result = pl.select(pl.when(nulls).then(None).otherwise(result)).to_series().alias(a.name)
    return result
