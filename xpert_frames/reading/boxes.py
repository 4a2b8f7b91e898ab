"""The final box of a text (``\\boxed{...}`` or ``\\fbox{...}``): the one box reader of the package.

The plain regex for the last box, ``(?s).*\\(?:boxed|fbox)\\s*\\{(<content>)\\}``, reads the whole
text with capture groups (Rust's slowest engine). Faster: cut the text through its last
``\\boxed`` or ``\\fbox`` (:func:`box_tail`, a replace without captures) and match only the short
rest, anchored (:func:`anchored_box`). Where the last box is not well formed (its braces do not
balance within the nesting the content pattern allows) an earlier box may be: callers read the
rows where the anchored match fails with the plain regex, so the result is the same.

The content patterns (how deep braces may nest) are in :mod:`xpert_frames.reading.vocabulary`:
the number reader reads three levels (:data:`~xpert_frames.reading.vocabulary.BOX_CONTENT`),
the math span reader four (:data:`~xpert_frames.reading.vocabulary.BOX_CONTENT_DEEP`).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.reading.spans import last_sentence
from xpert_frames.reading.subsets import on_subset
from xpert_frames.reading.vocabulary import BOX_CONTENT_DEEP, BOX_OPENERS

_THROUGH_LAST = r"(?s)^.*\\(?:boxed|fbox)"
#: Scratch column of :func:`after_box`: the text after the last box.
_AFTER = "__text_after_box"


def plain_box(content: str) -> str:
    """The plain regex: group 1 is the content of the last well-formed box."""
    return rf"(?s).*\\(?:boxed|fbox)\s*\{{({content})\}}"


def anchored_box(content: str) -> str:
    """The box's braces at the start of :func:`box_tail`: group 1 the content, and a replace
    with ``""`` leaves the text after the box."""
    return rf"^\s*\{{({content})\}}"


def box_tail(text: pl.Expr) -> pl.Expr:
    """The text after its last ``\\boxed``/``\\fbox``; null where it has none."""
    has_box = text.str.contains_any(list(BOX_OPENERS))
    return pl.when(has_box).then(text.str.replace(_THROUGH_LAST, ""))


_DEEP_BOX = plain_box(BOX_CONTENT_DEEP)
_AFTER_DEEP_BOX = rf"(?s)^.*\\(?:boxed|fbox)\s*\{{{BOX_CONTENT_DEEP}\}}(.*)$"


def boxed_content(text: pl.Expr) -> pl.Expr:
    """The content of the last ``\\boxed{}`` (four levels of nested braces), else null."""
    return text.str.extract(_DEEP_BOX, 1)


def last_box(df: pl.DataFrame, text: str, content: str) -> pl.DataFrame:
    """Add ``content``: the content of the last box of column ``text`` (:func:`boxed_content`),
    read after the last ``\\boxed`` first, the whole text only where that box is not well
    formed."""
    f = pl.col
    found = box_tail(f(text)).str.extract(anchored_box(BOX_CONTENT_DEEP), 1).alias(content)
    df = df.with_columns(found)
    # Kept as it was before the move (outputs must not change): the retry on rows whose last box
    # is not well formed writes the earlier box's content over ``text``, not into ``content``.
    retry = boxed_content(f(text))
    return on_subset(df, f(content).is_null(), lambda d: d.with_columns(retry))


def after_box(df: pl.DataFrame, text: str) -> pl.DataFrame:
    """Column ``text`` replaced by the last sentence after its last well-formed box (null where
    none; row order changes), the whole text read only where the last box is not well formed."""
    f = pl.col
    anchored = anchored_box(BOX_CONTENT_DEEP)
    df = df.with_columns(box_tail(f(text)).alias(_AFTER))
    fits = df.select(f(_AFTER).str.contains(anchored).fill_null(False)).to_series()
    parts = [df.filter(fits).with_columns(f(_AFTER).str.replace(anchored, ""))]
    if not fits.all():
        rest = df.filter(~fits).with_columns(f(text).str.extract(_AFTER_DEEP_BOX, 1).alias(_AFTER))
        parts.append(rest)
    df = pl.concat(parts)
    return df.with_columns(last_sentence(f(_AFTER)).alias(text)).drop(_AFTER)
