"""Frame kinds in and out: which table a user passed (Polars, pyarrow, pandas, anything with the
Arrow stream interface), how it becomes a LazyFrame, and how a result goes back to its kind.

Nothing here imports pyarrow or pandas unless the user's table is one of theirs.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import utf8
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import FrameTypeError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "is_arrow_table",
    "is_pandas",
    "is_record_batch",
    "like",
    "schema_of",
    "to_arrow_table",
    "to_lazy",
]


def is_arrow_table(frame: object) -> bool:
    """Whether ``frame`` is a ``pyarrow.Table`` (without importing pyarrow: if it was never
    imported, nothing can be one)."""
    pa = sys.modules.get("pyarrow")
    return pa is not None and isinstance(frame, pa.Table)


def is_pandas(frame: object) -> bool:
    """Whether ``frame`` is a ``pandas.DataFrame`` (pandas is never imported here)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(frame, pd.DataFrame)


def is_record_batch(frame: object) -> bool:
    pa = sys.modules.get("pyarrow")
    return pa is not None and isinstance(frame, pa.RecordBatch)


def to_arrow_table(frame: object) -> pa.Table:
    """An Arrow-compatible table as a ``pyarrow.Table``: a Table as is, a RecordBatch wrapped
    without copying, anything else through the Arrow PyCapsule stream (``__arrow_c_stream__``:
    a RecordBatchReader, a DuckDB relation, ...), read once."""
    import pyarrow as pa

    if isinstance(frame, pa.Table):
        return frame
    if isinstance(frame, pa.RecordBatch):
        return pa.Table.from_batches([frame])
    if isinstance(frame, pa.RecordBatchReader):
        return frame.read_all()
    return pa.table(frame)


def to_lazy(frame: Frame) -> pl.LazyFrame:
    """Any supported table as a LazyFrame: Polars as is; pyarrow tables wrapped without copying;
    pandas DataFrames (index dropped) and any object with ``__arrow_c_stream__`` converted.
    Arrow string columns are checked to be UTF-8 first
    (:func:`~xpert_frames.core.utf8.check_for_polars`), and a pandas string with no UTF-8 form (a
    lone surrogate) is found when the conversion fails
    (:func:`~xpert_frames.core.utf8.locate_in_pandas`): either is an
    :class:`~xpert_frames.core.exceptions.InvalidUTF8Error` naming the column and row."""
    if isinstance(frame, pl.LazyFrame):
        return frame
    if isinstance(frame, pl.DataFrame):
        return frame.lazy()
    if is_pandas(frame):
        try:
            return pl.from_pandas(frame).lazy()
        except UnicodeEncodeError as exc:  # a string with no UTF-8 form: name its column, row
            raise utf8.locate_in_pandas(frame) or exc from None
    if is_arrow_table(frame) or hasattr(frame, "__arrow_c_stream__"):
        # Polars trusts Arrow strings to be UTF-8: check them before it reads them.
        table = utf8.check_for_polars(to_arrow_table(frame))
        return pl.from_arrow(table, rechunk=False).lazy()  # type: ignore[union-attr]
    raise FrameTypeError(
        "expected a table: a polars DataFrame or LazyFrame, a pandas DataFrame, or any object "
        "with the Arrow stream interface __arrow_c_stream__ (pyarrow Table, RecordBatch or "
        f"RecordBatchReader, a DuckDB relation, ...), got {type(frame).__name__}"
    )


def schema_of(frame: Frame) -> pl.Schema:
    return to_lazy(frame).collect_schema()


def like(template: Frame, lf: pl.LazyFrame) -> Frame:
    """``lf`` as the kind of ``template``: lazy stays lazy, a pyarrow Table gives a Table,
    anything else a DataFrame."""
    if isinstance(template, pl.LazyFrame):
        return lf
    df = lf.collect()
    return df.to_arrow() if is_arrow_table(template) else df
