"""Typing aliases shared by the whole package: one place for every ``Literal`` option set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar

import polars as pl

if TYPE_CHECKING:  # pyarrow and pandas are imported only by code that receives them
    import pandas as pd
    import pyarrow as pa


class ArrowStreamExportable(Protocol):
    """Anything that speaks the Arrow PyCapsule stream interface (DuckDB relations, pyarrow
    readers, pandas >= 2.2, Polars, ...)."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...


#: A table the toolkit gives back in kind.
FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame, "pa.Table", "pa.RecordBatch", "pd.DataFrame")
#: Every table the toolkit accepts (other Arrow streams come back as a pyarrow Table).
Frame: TypeAlias = (
    "pl.DataFrame | pl.LazyFrame | pa.Table | pa.RecordBatch | pd.DataFrame | ArrowStreamExportable"
)

#: A column given by name or as an expression.
IntoExpr: TypeAlias = str | pl.Expr

#: Text normalizations the fuzzy evaluator can apply before matching.
FuzzyNormalization: TypeAlias = Literal["case", "width", "whitespace", "punctuation"]

#: Language choice of the BLEU evaluator.
Language: TypeAlias = Literal["auto", "en", "zh"]

#: Which number the math evaluator (and ``numbers.extract_number``) takes when no rule applies.
MathExtract: TypeAlias = Literal["last", "first"]

#: Output formats of ``xpert-frames report``.
ReportFormat: TypeAlias = Literal["table", "markdown", "json", "csv", "html"]
