"""Test helpers: run the same scoring on every path and demand equal frames; the number of
examples a property test draws (fewer in the quick loop)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf

#: True in the quick loop (``pytest -m "not slow"``; set by ``conftest.pytest_configure``).
QUICK = False


def examples(full: int) -> int:
    """``max_examples`` of a costly property test: ``full`` in the full suite, a tenth (at
    least 5) in the quick loop, where every property still runs on fresh examples."""
    return max(5, full // 10) if QUICK else full


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


def labelled_params(cases: Sequence[dict[str, Any]], misses: set[str]) -> list[Any]:
    """One ``pytest.param`` per labelled case (its ``id``); a case listed in ``misses`` is a
    strict xfail (misread today: it fails the suite once it is read right and not delisted)."""
    strict_miss = [pytest.mark.xfail(strict=True, reason="misread today")]
    return [
        pytest.param(c, id=c["id"], marks=strict_miss if c["id"] in misses else []) for c in cases
    ]
