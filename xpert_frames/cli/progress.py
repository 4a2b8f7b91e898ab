"""A progress bar for long runs, fed by the streaming engine once per batch (never per row)."""

from __future__ import annotations

import sys

import polars as pl
from tqdm import tqdm


def bar(total: int | None, *, disable: bool) -> tqdm:
    """A tqdm bar on stderr; silent when ``disable`` or when stderr is not a terminal."""
    return tqdm(
        total=total,
        unit=" rows",
        unit_scale=True,
        disable=disable or not sys.stderr.isatty(),
        file=sys.stderr,
        dynamic_ncols=True,
    )


def track(lf: pl.LazyFrame, column: str, progress: tqdm) -> pl.LazyFrame:
    """``lf`` unchanged, except that each batch passing through ``column`` advances ``progress``."""
    if progress.disable:
        return lf

    def tick(batch: pl.Series) -> pl.Series:
        progress.update(len(batch))
        return batch

    dtype = lf.collect_schema()[column]
    return lf.with_columns(
        pl.col(column).map_batches(tick, return_dtype=dtype, is_elementwise=True)
    )
