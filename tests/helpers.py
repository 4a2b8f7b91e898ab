"""Test helpers: run the same scoring on every path and demand equal frames."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

import xpert_frames as xf


def score_all_paths(
    frame: pl.DataFrame, evaluators: Sequence[Any] | Any, *, all_rows: bool = False, **columns: str
) -> pl.DataFrame:
    """Score eagerly, lazily, with the streaming engine and through pyarrow; assert all four
    frames are equal and return the eager one."""
    kw: dict[str, Any] = {"all_rows": all_rows, **columns}
    eager = xf.score(frame, evaluators, **kw)
    lazy = xf.score(frame.lazy(), evaluators, **kw).collect()
    streaming = xf.score(frame.lazy(), evaluators, **kw).collect(engine="streaming")
    arrow = pl.from_arrow(xf.score(frame.to_arrow(), evaluators, **kw))
    assert isinstance(arrow, pl.DataFrame)
    assert_frame_equal(eager, lazy)
    assert_frame_equal(eager, streaming)
    assert_frame_equal(eager, arrow, check_dtypes=False)
    assert eager.columns[: frame.width] == frame.columns
    assert_frame_equal(eager.select(frame.columns), frame)
    return eager
