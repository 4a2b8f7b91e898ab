"""The one core budget: how many threads or processes a kernel or a worker pool may use.

Every parallel piece of work (rapidfuzz's ``workers``, the math reading's parts, the jieba and
Math-Verify worker processes) asks :func:`available_cores` and never more. It is the smallest of

1. the **CPU affinity mask** (``os.sched_getaffinity``: ``taskset``, cgroup cpusets), which can
   be narrower than ``os.cpu_count()``; ``os.cpu_count()`` where there is no mask (not Linux);
2. **Polars' thread pool** (``pl.thread_pool_size()``, set by ``POLARS_MAX_THREADS``): the budget
   the caller already chose for this process. Polars sizes it from Rust's
   ``available_parallelism``, which also follows a cgroup CPU quota (``docker --cpus``);
3. inside a **Ray task or actor**, its CPU allotment (``num_cpus``, rounded down, at least 1).

Ray's semantics, the stricter of the two the project had: a process counts as a Ray task or
actor when its runtime context's ``worker.mode`` is ``WORKER_MODE`` (the driver, a script that
called ``ray.init()``, is not confined, and asking it for a task id would log a warning).
The allotment is ``get_assigned_resources()["CPU"]``; a worker with none (an actor's default:
1 CPU to be placed, 0 while it runs) has no Ray limit. Ray is never imported here: only a Ray
the caller already runs (in ``sys.modules``) is asked, and a Ray too old to answer (missing
attributes) means "no allotment known".
"""

from __future__ import annotations

import os
import sys

import polars as pl

__all__ = ["available_cores", "ray_cpus"]


def available_cores() -> int:
    """Threads or processes this process may use: the affinity mask, capped by Polars' thread
    pool size and, inside a Ray task or actor, by its CPU allotment; at least 1."""
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    limits = [cores, pl.thread_pool_size()]
    allotted = ray_cpus()
    if allotted is not None:
        limits.append(allotted)
    return max(1, min(limits))


def ray_cpus() -> int | None:
    """CPUs assigned to the current Ray task or actor (rounded down, at least 1); None outside
    Ray workers (the driver included) and where Ray assigned no CPU."""
    ray = sys.modules.get("ray")  # never import Ray just to ask
    if ray is None:
        return None
    try:
        if not ray.is_initialized():
            return None
        context = ray.get_runtime_context()
        if context.worker.mode != ray.WORKER_MODE:  # the driver is not confined
            return None
        cpus = context.get_assigned_resources().get("CPU")
    except AttributeError:  # an older Ray without these attributes: no allotment known
        return None
    return None if cpus is None else max(1, int(cpus))
