"""The last ``\\boxed{}`` of a prediction or reference for the answer spans of
:mod:`xpert_frames.evaluators.math_answer.symbolic`: its content, and the text after it. Each is
read after the last ``\\boxed`` first, anchored (:mod:`xpert_frames.numeric.boxed`), and with
the plain regex only where that box is not well formed (the same result, faster)."""

from __future__ import annotations

import polars as pl

from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.numeric.boxed import anchored_box, box_tail, plain_box
from xpert_frames.numeric.rules import on_subset

#: A box's content: four levels of nested braces.
BOX_CONTENT = r"(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
_BOXED = plain_box(BOX_CONTENT)
_AFTER_BOX = rf"(?s)^.*\\(?:boxed|fbox)\s*\{{{BOX_CONTENT}\}}(.*)$"


def boxed_content(text: pl.Expr) -> pl.Expr:
    """The content of the last ``\\boxed{}`` (four levels of nested braces), else null."""
    return text.str.extract(_BOXED, 1)


def last_box(df: pl.DataFrame) -> pl.DataFrame:
    """``s``: the content of the last box of ``p`` (:func:`boxed_content`), read after the
    last ``\\boxed`` first, the whole text only where that box is not well formed."""
    f = pl.col
    df = df.with_columns(box_tail(f("p")).str.extract(anchored_box(BOX_CONTENT), 1).alias("s"))
    return on_subset(df, f("s").is_null(), lambda d: d.with_columns(boxed_content(f("p"))))


def after_box(df: pl.DataFrame) -> pl.DataFrame:
    """``p`` replaced by the last sentence after its last well-formed box (:data:`_AFTER_BOX`,
    null where none; row order changes), the whole text read only where the last box is not
    well formed."""
    f = pl.col
    anchored = anchored_box(BOX_CONTENT)
    df = df.with_columns(box_tail(f("p")).alias("__a"))
    fits = df.select(f("__a").str.contains(anchored).fill_null(False)).to_series()
    parts = [df.filter(fits).with_columns(f("__a").str.replace(anchored, ""))]
    if not fits.all():
        rest = df.filter(~fits).with_columns(f("p").str.extract(_AFTER_BOX, 1).alias("__a"))
        parts.append(rest)
    df = pl.concat(parts)
    return df.with_columns(answer_forms.last_sentence(f("__a")).alias("p")).drop("__a")
