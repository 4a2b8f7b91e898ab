"""A progress bar for long runs, fed by the streaming engine once per batch (never per row)."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

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


@contextlib.contextmanager
def held_stderr(hold: bool) -> Iterator[None]:
    """With ``hold``, this process's stderr (file descriptor 2, where Ray's C++ core and the
    processes it starts write their log lines) goes to a temporary file; it is shown only if
    the block fails, so a quiet run prints nothing but errors."""
    if not hold:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            held.seek(0)
            sys.stderr.write(held.read()[-20_000:].decode("utf-8", "replace"))
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
