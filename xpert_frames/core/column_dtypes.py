"""The dtypes accepted for the input columns of the data contract, and the expressions that
bring each to its canonical dtype (:mod:`xpert_frames.core.frames` applies them): text as
String, numbers as the text users write, several references as List(String), choices as
:data:`CHOICE_DTYPE`. Anything else is a :class:`ColumnTypeError` naming the column and a hint.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core.exceptions import ColumnTypeError

#: Dtype of the canonical choices column: a list of ``{id, content}`` structs.
CHOICE_DTYPE = pl.List(pl.Struct({"id": pl.String, "content": pl.String}))
_NUMERIC_HINT = "Cast it first, e.g. pl.col(name).cast(pl.String)."


def string_expr(expr: pl.Expr, dtype: pl.DataType, where: str) -> pl.Expr:
    if dtype == pl.String or dtype == pl.Null:
        return expr.cast(pl.String)
    if isinstance(dtype, pl.Categorical | pl.Enum):
        return expr.cast(pl.String)
    raise ColumnTypeError(where, "text", "a string column", dtype, _NUMERIC_HINT)


def number_text(expr: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """Numbers as users write them: an integer-valued float is ``"3"`` (a pandas integer column
    with a missing value holds floats), other floats their shortest round-trip text, ±inf
    ``"inf"``/``"-inf"``; NaN is no value (null: the row is invalid, skipped)."""
    if not dtype.is_float():
        return expr.cast(pl.String)
    x = expr.cast(pl.Float64)
    integral = x.is_finite() & (x == x.floor()) & (x.abs() < 2.0**53)
    return (
        pl.when(x.is_nan())
        .then(pl.lit(None, pl.String))
        .when(integral)
        .then(x.cast(pl.Int64).cast(pl.String))
        .otherwise(expr.cast(pl.String))  # the column's own precision: Float32 0.1 is "0.1"
    )


def answer_expr(expr: pl.Expr, dtype: pl.DataType, where: str) -> pl.Expr:
    """Reference values: strings; numbers are written as strings (:func:`number_text`); lists
    of strings for several references."""
    if dtype.is_numeric():
        return number_text(expr, dtype)
    if isinstance(dtype, pl.List) and (dtype.inner == pl.String or dtype.inner == pl.Null):
        return expr.cast(pl.List(pl.String))
    if isinstance(dtype, pl.List) and dtype.inner.is_numeric():
        inner = dtype.inner if isinstance(dtype.inner, pl.DataType) else dtype.inner()
        return expr.list.eval(number_text(pl.element(), inner)).cast(pl.List(pl.String))
    if isinstance(dtype, pl.List | pl.Array):
        raise ColumnTypeError(
            where,
            "answer",
            "a string column, or a list of strings (several accepted answers: any one counts)",
            dtype,
            'Write each accepted answer as a string, e.g. ["Paris", "City of Paris"].',
        )
    return string_expr(expr, dtype, where)


def choices_expr(expr: pl.Expr, dtype: pl.DataType, where: str) -> pl.Expr:
    if dtype == pl.Null:
        return expr.cast(CHOICE_DTYPE)
    if isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct):
        names = {f.name for f in dtype.inner.fields}
        if "id" in names:
            el = pl.element().struct
            content = (
                el.field("content").cast(pl.String)
                if "content" in names
                else pl.lit(None, pl.String)
            )
            return expr.list.eval(
                pl.struct(el.field("id").cast(pl.String).alias("id"), content.alias("content"))
            ).cast(CHOICE_DTYPE)
    if isinstance(dtype, pl.List) and (dtype.inner == pl.String or dtype.inner == pl.Null):
        # A plain list of option letters.
        return expr.list.eval(
            pl.struct(
                pl.element().cast(pl.String).alias("id"), pl.lit(None, pl.String).alias("content")
            )
        ).cast(CHOICE_DTYPE)
    raise ColumnTypeError(
        where, "choices", "a list of {id, content} structs or a list of strings", dtype
    )
