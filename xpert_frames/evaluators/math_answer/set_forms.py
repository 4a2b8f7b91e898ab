"""Set answers written differently on the two sides, put in one form before they are compared
(only where the reference is a set, so a rewrite cannot credit an answer that is not one):

* the empty set, as a symbol (``\\emptyset``, ``\\varnothing``, ``∅``, ``\\{\\}``) or in words
  (``no solution``, ``no real solutions``, ``无解``, ``不存在``, ``空集``, also inside
  ``\\text{}``): when the reference is the empty set, a prediction that states it (its answer
  span, or without a box its last sentence, not one that names a solution after all: ``no
  solutions other than x = 0``) has the span ``\\emptyset``, and so has the reference;
* a set-builder reference (``\\{x|x>2\\}``, ``\\{x \\mid x<-1 或 x>3\\}``) against a prediction
  in interval notation: the reference in interval notation (as
  :func:`xpert_frames.evaluators.math_answer.answer_forms.fit_to_reference` does for a
  set-builder prediction).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.reading.spans import last_sentence

#: The empty set in words.
_EMPTY_WORDS = r"(?:(?i:no\s+(?:real\s+)?solutions?)|无(?:实数)?解|不存在|空集)"
#: The whole span is the empty set (the words may stand in ``\\text{}``).
_EMPTY = (
    r"^\s*(?:\\emptyset|\\varnothing|∅|\\\{\s*\\\}|\{\s*\}|"
    rf"{_EMPTY_WORDS}|\\text\s*\{{\s*{_EMPTY_WORDS}\s*[.。]?\s*\}})\s*[.。]?\s*$"
)
#: A sentence that states the empty set.
_EMPTY_STATED = (
    r"\\emptyset|\\varnothing|∅|\\\{\s*\\\}|(?i:\bno\s+(?:real\s+)?(?:solutions?|roots?)\b)"
    r"|无(?:实数)?解|不存在|空集"
)
#: "No solutions" that names one after all: ``no solutions other than x = 0``, ``besides``,
#: ``except``, ``apart from``, ``but``, ``除…外``.
_EXCEPT = (
    r"(?i:\bno\s+(?:real\s+)?(?:solutions?|roots?)\s+(?:other\s+than|besides|except|apart\s+from"
    r"|but)\b)|除了?[^，。,]*?(?:之外|以外|外)"
)
#: Literal pieces of every reference these rules rewrite (a cheap screen first).
_SCREEN = ["emptyset", "varnothing", "∅", "{", "solution", "无", "不存在", "空集"]
#: A set-builder reference.
_BUILDER = r"^\s*\\\{\s*[a-zA-Z]\s*(?:\\mid|\\vert|\||:)"
#: A prediction that is nothing but a list of numbers (``4, 10, -2``): compared as maths
#: (Math-Verify reads a list outside ``$`` as its last number only).
BARE_LIST = r"^\s*[-+]?[0-9]*\.?[0-9]+(?:\s*,\s*[-+]?[0-9]*\.?[0-9]+)+\s*\.?\s*$"
EMPTY_SPAN = "\\emptyset"


def _intervals(refs: pl.Series) -> pl.Series:
    """Each distinct set-builder reference in interval notation (null where it is none)."""
    distinct = refs.drop_nulls().unique()
    out = pl.Series("intervals", [answer_forms.intervals(r) for r in distinct], pl.String)
    table = pl.DataFrame([distinct.alias("reference"), out])
    joined = pl.DataFrame({"reference": refs}).join(
        table, on="reference", how="left", maintain_order="left"
    )
    return joined["intervals"]


def _fit(df: pl.DataFrame) -> pl.DataFrame:
    f = pl.col
    empty_ref = f("reference_span").str.contains(_EMPTY)
    boxed = f("prediction").str.contains_any(["\\boxed", "\\fbox"])
    end = last_sentence(f("prediction"))
    said = end.str.contains(_EMPTY_STATED) & ~end.str.contains(_EXCEPT)
    stated = f("span").str.contains(_EMPTY).fill_null(False) | (~boxed & said.fill_null(False))
    df = df.with_columns(
        pl.when(empty_ref & stated).then(pl.lit(EMPTY_SPAN)).otherwise(f("span")).alias("span"),
        pl.when(empty_ref)
        .then(pl.lit(EMPTY_SPAN))
        .otherwise(f("reference_span"))
        .alias("reference_span"),
    )
    interval = f("span").str.contains(answer_forms.INTERVAL) & ~f("span").str.contains(r"[=<>≤≥]")
    builder = f("reference_span").str.contains(_BUILDER) & interval.fill_null(False)
    mask = df.select(builder).to_series()
    if mask.any():
        fitted = _intervals(df.filter(mask)["reference_span"])
        new = df["reference_span"].scatter(mask.arg_true(), fitted)
        df = df.with_columns(pl.coalesce(new, df["reference_span"]).alias("reference_span"))
    return df


def _fit_batch(batch: pl.Series) -> pl.Series:
    f = pl.col
    df = batch.struct.unnest()
    out = df.select("span", "reference_span")
    rows = df.with_row_index("__row").filter(~f("plain") & f("prediction").is_not_null())
    rows = rows.filter(f("reference_span").str.contains_any(_SCREEN))
    if rows.height:
        rows = _fit(rows)
        out = out.with_columns(
            out["span"].scatter(rows["__row"], rows["span"]),
            out["reference_span"].scatter(rows["__row"], rows["reference_span"]),
        )
    return out.select(pl.struct("span", "reference_span")).to_series().alias(batch.name)


def fit_sets(
    lf: pl.LazyFrame, prediction: pl.Expr, pspan: str, rspan: str, plain: pl.Expr
) -> pl.LazyFrame:
    """The span columns ``pspan`` and ``rspan`` with set answers in one form (module docs); a
    batch function that reads only the rows whose reference span is not one plain number
    (``plain``) and may be a set (the others pass through uncopied)."""
    both = pl.struct(
        prediction.alias("prediction"),
        pl.col(pspan).alias("span"),
        pl.col(rspan).alias("reference_span"),
        plain.fill_null(False).alias("plain"),
    )
    dtype = pl.Struct({"span": pl.String, "reference_span": pl.String})
    fitted = both.map_batches(_fit_batch, return_dtype=dtype, is_elementwise=True)
    tmp = f"{pspan}__sets"
    lf = lf.with_columns(fitted.alias(tmp))
    field = pl.col(tmp).struct.field
    return lf.with_columns(field("span").alias(pspan), field("reference_span").alias(rspan)).drop(
        tmp
    )
