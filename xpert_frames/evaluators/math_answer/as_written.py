"""Answers as written: plain-text maths put in LaTeX before a span is cut from its sentence, and
whether a prediction's answer is written exactly as the reference's.

* :func:`plain_math`: ``sqrt(3)`` and ``sqrt 3`` → ``\\sqrt{3}``, ``pi`` → ``\\pi``, a decimal
  said to repeat (``0.1666 repeating``) marked ``\\repeating`` (read exactly by
  :mod:`~xpert_frames.evaluators.math_answer.pair_forms`), so that the words around the maths
  do not cut it (``the larger root is -1 + sqrt(3)``);
* :func:`identical`: the answer span, or a short prediction whole, equal to the reference span
  but for whitespace, ``$``, LaTeX spacing, a final period and a text wrapper around letters
  (``E`` and ``\\mathrm{E}``; rule ``identical``).

Both are batch functions that read only the rows they can concern.
"""

from __future__ import annotations

import polars as pl

#: Maths written as plain text, put in LaTeX so that the words around it do not cut it: ``sqrt(3)``
#: and ``sqrt 3`` → ``\\sqrt{3}``, ``pi`` → ``\\pi``, and a decimal said to repeat (``0.1666
#: repeating``, ``0.3 (recurring)``) marked ``\\repeating`` (read exactly by
#: :mod:`~xpert_frames.evaluators.math_answer.pair_forms`).
_PLAIN_MATH = [
    (r"(^|[^A-Za-z\\])sqrt\s*\(([^()]*)\)", "${1}\\sqrt{${2}}"),
    (r"(^|[^A-Za-z\\])sqrt\s*([0-9]+)", "${1}\\sqrt{${2}}"),
    (r"(^|[^A-Za-z\\])pi($|[^A-Za-z])", "${1}\\pi ${2}"),
    (r"(^|[^A-Za-z\\])pi($|[^A-Za-z])", "${1}\\pi ${2}"),  # again: ``pi/pi`` shares a character
    (r"([0-9])\s*(?:repeating|recurring|\((?:repeating|recurring)\))", "${1}\\repeating"),
]
_PLAIN_MATH_WORDS = ["sqrt", "pi", "repeating", "recurring"]


def plain_math(df: pl.DataFrame, column: str) -> pl.DataFrame:
    """Column ``column`` with plain-text maths in LaTeX (:data:`_PLAIN_MATH`), read only on the
    rows that hold one of its words (row order kept)."""
    mask = df.select(pl.col(column).str.contains_any(_PLAIN_MATH_WORDS).fill_null(False))
    hits = mask.to_series()
    if not hits.any():
        return df
    text = pl.col(column)
    for pattern, repl in _PLAIN_MATH:
        text = text.str.replace_all(pattern, repl)
    rewritten = df.filter(hits).select(text).to_series()
    return df.with_columns(df[column].scatter(hits.arg_true(), rewritten))


#: What two answers written identically may differ in: whitespace, ``$``, LaTeX spacing
#: commands, a final period; and a text or upright wrapper around letters (``\\mathrm{E}``,
#: ``\\text{odd}``: opened by :data:`_WRAPPER` first).
_LAYOUT = r"\s+|\$|\\[,;:! ]|[.。]$"
_WRAPPER = r"\\(?:text|textbf|textrm|textnormal|mathrm|mbox)\s*\{\s*([A-Za-z][A-Za-z ]*?)\s*\}"
#: A prediction longer than twice the reference span and this many bytes is not compared whole
#: (it holds more than the answer; its answer span is compared).
_WHOLE_SLACK = 16


def identical(
    prediction: pl.Expr, pspan: pl.Expr, rspan: pl.Expr, *, plain: pl.Expr | None = None
) -> pl.Expr:
    """Whether the prediction's answer is written exactly as the reference's: its answer span,
    or the whole (short) prediction, equal to the reference span but for layout
    (:data:`_LAYOUT`). Such an answer is right whatever its form (``\\mathbb{Z}``,
    ``\\text{none}``, ``\\binom{10}{3}``); false where either is null, and where ``plain``
    holds (a reference that is one number as written: the number reader reads the same
    number from it). A batch function that reads only the rows with a span or a short
    prediction."""
    plain = pl.lit(False) if plain is None else plain.fill_null(False)
    both = pl.struct(prediction.alias("p"), pspan.alias("s"), rspan.alias("r"), plain.alias("n"))
    return both.map_batches(_identical_batch, return_dtype=pl.Boolean, is_elementwise=True)


def _identical_batch(batch: pl.Series) -> pl.Series:
    f = pl.col
    df = batch.struct.unnest()
    short = f("p").str.len_bytes() <= f("r").str.len_bytes() * 2 + _WHOLE_SLACK
    screen = (short | f("s").is_not_null()) & f("r").is_not_null() & ~f("n")
    out = pl.repeat(False, len(df), dtype=pl.Boolean, eager=True).alias(batch.name)
    cand = df.select(screen.fill_null(False)).to_series()
    if not cand.any():
        return out
    rows = df.filter(cand).with_columns(short.alias("short"))
    ref = f("r").str.replace_all(_WRAPPER, "${1}").str.replace_all(_LAYOUT, "")
    whole = pl.when(f("short")).then(f("p")).str.replace_all(_WRAPPER, "${1}")
    whole = whole.str.replace_all(_LAYOUT, "")
    span = f("s").str.replace_all(_WRAPPER, "${1}").str.replace_all(_LAYOUT, "")
    same = (((span == ref) | (whole == ref)) & (ref != "")).fill_null(False)
    return out.scatter(cand.arg_true(), rows.select(same).to_series())
