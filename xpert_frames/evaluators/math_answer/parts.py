"""A whole column read in parts side by side: one part per core the process may use.

The math reading is many small Polars steps; as an elementwise batch function the engine calls
it once per morsel (100,000 rows), paying those steps' fixed cost (Python glue, under the GIL)
ten times per million rows. Run once per table, cut into one part per core, each part read on
its own thread (Polars releases the GIL), the fixed cost is paid a few times instead.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import polars as pl

from xpert_frames.core.budget import available_cores

#: Rows per part at least (smaller tables are read in one part).
PART_ROWS = 50_000


def in_parts(
    read: Callable[[pl.DataFrame], pl.DataFrame], frame: pl.DataFrame, *, threads: int | None = None
) -> pl.DataFrame:
    """``read`` (row ``i`` of its result depends only on row ``i`` of its input) over ``frame``
    cut into up to ``threads`` parts (default: the core budget,
    :func:`~xpert_frames.core.budget.available_cores`) read side by side, the
    results stacked in row order."""
    threads = available_cores() if threads is None else threads
    parts = max(1, min(threads, frame.height // PART_ROWS))
    if parts == 1:
        return read(frame)
    size = -(-frame.height // parts)
    chunks = [frame.slice(i * size, size) for i in range(parts)]
    with ThreadPoolExecutor(parts) as pool:
        return pl.concat(list(pool.map(read, chunks)))
