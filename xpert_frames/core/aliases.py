"""Typing aliases shared by the whole package: one place for every ``Literal`` option set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias, TypeVar

import polars as pl

if TYPE_CHECKING:  # pyarrow is imported only by code that receives or returns Arrow tables
    import pyarrow as pa

#: A table the toolkit accepts and gives back in kind.
FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame, "pa.Table")
Frame: TypeAlias = "pl.DataFrame | pl.LazyFrame | pa.Table"

#: A column given by name or as an expression.
IntoExpr: TypeAlias = str | pl.Expr

#: Text normalizations the fuzzy evaluator can apply before matching.
FuzzyNormalization: TypeAlias = Literal["case", "width", "whitespace", "punctuation"]

#: Language choice of the BLEU evaluator.
Language: TypeAlias = Literal["auto", "en", "zh"]

#: Which number the math evaluator (and ``numbers.extract_number``) takes when no rule applies.
MathExtract: TypeAlias = Literal["last", "first"]

#: Output formats of ``xpert-frames report``.
ReportFormat: TypeAlias = Literal["table", "markdown", "json", "csv"]
